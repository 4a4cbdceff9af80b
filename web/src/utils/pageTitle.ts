import { TITLE_REVERSE, TITLE_SEPARATOR } from '@/config';

/** Document title: route title and site title joined (order reversible by configuration). */
export function pageTitle(routeTitle: string | undefined, siteTitle: string, reverse: boolean = TITLE_REVERSE): string {
  const parts = routeTitle ? [routeTitle, siteTitle] : [siteTitle];
  return (reverse ? parts.reverse() : parts).join(TITLE_SEPARATOR);
}
