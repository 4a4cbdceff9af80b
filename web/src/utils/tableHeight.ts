import { useEffect, useState } from 'react';
import { TABLE_HEIGHT_OFFSET_PX, TABLE_HEIGHT_ROW_PX } from '@/config';

/** Below this a table would show too few rows to be of use; the page scrolls instead. */
export const TABLE_MIN_HEIGHT_PX = 240;

/**
 * The height of a table that fills the page: the window's
 * height less 291 px (header, tabs, filter row, pager, paddings) and 60 px
 * for each extra row of filters.
 */
export function tableHeight(extraRows = 0, viewport: number = window.innerHeight): number {
  return Math.max(TABLE_MIN_HEIGHT_PX, viewport - TABLE_HEIGHT_OFFSET_PX - TABLE_HEIGHT_ROW_PX * extraRows);
}

/**
 * `tableHeight`, following the window as it is resized. The height is derived
 * in the render that gets new `extraRows` (not set by an effect after paint),
 * so a page never shows a frame whose filter rows and table height disagree.
 */
export function useTableHeight(extraRows = 0): number {
  const [viewport, setViewport] = useState(() => window.innerHeight);
  useEffect(() => {
    const apply = () => setViewport(window.innerHeight);
    apply();
    window.addEventListener('resize', apply);
    return () => window.removeEventListener('resize', apply);
  }, []);
  return tableHeight(extraRows, viewport);
}
