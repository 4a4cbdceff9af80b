import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RawRoute } from '@/router/types';

/** The shared route data the server seeds from (tests run with web/ as cwd). */
export const MENU_ROUTES_FILE = resolve(process.cwd(), '../shared/backoffice/data/menu-routes.json');
export const readMenuRoutes = (): RawRoute[] => JSON.parse(readFileSync(MENU_ROUTES_FILE, 'utf8')) as RawRoute[];
export const SRC_DIR = resolve(process.cwd(), 'src');
