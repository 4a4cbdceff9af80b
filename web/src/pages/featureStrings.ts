import { loadAreaStrings, type LoadAreaStrings } from '@/i18n';

/** The features' strings (each feature's `locales/`), merged into `common` with the first page. */
const AREA_STRINGS: readonly LoadAreaStrings[] = [
  () => import('@/features/stations/locales/assets'),
  () => import('@/features/stations/locales/chargers'),
  () => import('@/features/stations/locales/ykc'),
  () => import('@/features/demo/locales/demo'),
  () => import('@/features/orders/locales/orders'),
  () => import('@/features/settings/locales/settings'),
];

/** Loads every feature's strings once. */
export const loadFeatureStrings = (): Promise<void> => loadAreaStrings(AREA_STRINGS);
