import { useEffect, useState } from 'react';
import { TABLE_HEIGHT_OFFSET_PX, TABLE_HEIGHT_ROW_PX } from '@/config';

/** Below this a table would show too few rows to be of use; the page scrolls instead. */
export const TABLE_MIN_HEIGHT_PX = 240;

/**
 * The height of a table that fills the page (spec point 9): the window's
 * height less 291 px (header, tabs, filter row, pager, paddings) and 60 px
 * for each extra row of filters.
 */
export function tableHeight(extraRows = 0, viewport: number = window.innerHeight): number {
  return Math.max(TABLE_MIN_HEIGHT_PX, viewport - TABLE_HEIGHT_OFFSET_PX - TABLE_HEIGHT_ROW_PX * extraRows);
}

/** `tableHeight`, following the window as it is resized. */
export function useTableHeight(extraRows = 0): number {
  const [h, setH] = useState(() => tableHeight(extraRows));
  useEffect(() => {
    const apply = () => setH(tableHeight(extraRows));
    apply();
    window.addEventListener('resize', apply);
    return () => window.removeEventListener('resize', apply);
  }, [extraRows]);
  return h;
}
