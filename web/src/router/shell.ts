import { preloadable } from '@/utils/preloadable';

/** The signed-in layout, loaded on demand and ahead of time (see prefetch.ts). */
export const shell = preloadable(() => import('@/layout/Shell'));
