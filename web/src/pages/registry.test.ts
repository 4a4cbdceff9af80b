import { readMenuRoutes } from '@/test/routeData';
import { describe, expect, it } from 'vitest';
import { componentKeys } from '@/router/buildRoutes';
import { BUILT_VIEWS, classifyView, PLANNED_VIEWS } from './registry';

const menu = readMenuRoutes();

describe('view registry vs shared/backoffice/data/menu-routes.json', () => {
  it('every component key of the route data resolves to a page', () => {
    const missing = componentKeys(menu).filter((k) => classifyView(k).kind === 'missing');
    expect(missing).toEqual([]);
  });

  it('lists no planned view that is already built, and none the data does not use', () => {
    const keys = new Set(componentKeys(menu));
    expect(PLANNED_VIEWS.filter((k) => k in BUILT_VIEWS)).toEqual([]);
    expect(PLANNED_VIEWS.filter((k) => !keys.has(k))).toEqual([]);
  });

  it('has the spec product routes', () => {
    const keys = componentKeys(menu);
    for (const k of ['index/index', 'order/orderindex', 'order/detail', 'connector/station', 'connector/connectors', 'connector/stationdetail', 'money/moneyIndex', 'setting/workflow']) {
      expect(keys).toContain(k);
      expect(classifyView(k).kind, `${k} is a real page, not "being built"`).toBe('built');
    }
  });
});
