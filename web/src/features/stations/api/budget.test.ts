import { describe, expect, it } from 'vitest';
import { budgetProblem, budgetRefreshInterval, type PowerBudget } from './budget';

describe('a power budget typed in kW', () => {
  it('takes 0 to 100000 with one decimal at most', () => {
    for (const ok of ['0', '100', '120.5', '100000', ' 7.0 ']) expect(budgetProblem(ok)).toBeNull();
    expect(budgetProblem('')).toBe('required');
    expect(budgetProblem('ten')).toBe('number');
    expect(budgetProblem('1e3')).toBe('number');
    expect(budgetProblem('-1')).toBe('negative');
    expect(budgetProblem('100000.1')).toBe('tooLarge');
    expect(budgetProblem('12.25')).toBe('decimals');
  });
});

describe('the budget view', () => {
  const view = (states: (PowerBudget['piles'][number]['state'])[]) =>
    ({ piles: states.map((state, i) => ({ pileId: `p${i}`, code: `P${i}`, ratedPowerKw: 60, connected: true, limitW: 1000, command: null, state })) }) as unknown as PowerBudget;
  it('is polled while a share waits for its charger, and not after', () => {
    expect(budgetRefreshInterval(view(['done', 'pending']))).toBe(1000);
    expect(budgetRefreshInterval(view(['done', 'rejected', 'offline', null]))).toBe(0);
    expect(budgetRefreshInterval(undefined)).toBe(0);
  });
});
