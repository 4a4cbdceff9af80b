import { useState } from 'react';
import useSWR from 'swr';
import { get, post } from '@/api/request';
import type { Answer, Body } from '@/api/types';

/**
 * A station's power budget (shared/backoffice handlers/budget.rs): the
 * budget in kW and, per pile, the share sent to its charger as a
 * ChargePointMaxProfile and what the charger made of it.
 */
export type PowerBudget = Answer<'/partnerapi/station/powerBudget', 'get'>;
export type PileShare = PowerBudget['piles'][number];
export type ShareState = NonNullable<PileShare['state']>;

export const getPowerBudget = async (id: string) => (await get<PowerBudget>('/station/powerBudget', { id })).data;

/** Saves (or with `maxPowerKw: null` removes) the budget; a 400 naming `maxPowerKw` is left to the form to show beside the field. */
export const setPowerBudget = (body: Body<'/partnerapi/station/setPowerBudget'>) =>
  post<Answer<'/partnerapi/station/setPowerBudget', 'post'>>('/station/setPowerBudget', body, { fieldErrors: true });

/** How often to reload the budget: every second while a share waits for its charger's answer, else not. */
export const budgetRefreshInterval = (b: PowerBudget | undefined): number => (b?.piles.some((p) => p.state === 'pending') ? 1000 : 0);

/**
 * The station's budget, polled while a share waits for its charger. The
 * interval is state set from each answer (SWR restarts its timer only when
 * the interval changes), so a save that sends new shares polls again.
 */
export function usePowerBudget(stationId: string) {
  const [interval, setPollInterval] = useState(0);
  return useSWR(stationId ? ['station/powerBudget', stationId] : null, () => getPowerBudget(stationId), {
    refreshInterval: interval,
    onSuccess: (b) => setPollInterval(budgetRefreshInterval(b)),
  });
}

/**
 * What is wrong with a budget typed in kW, as a key of `chg.budget`
 * (null: fine). The server checks the same (0-100000, one decimal).
 */
export function budgetProblem(text: string): 'required' | 'number' | 'negative' | 'tooLarge' | 'decimals' | null {
  const s = text.trim();
  if (!s) return 'required';
  if (!/^-?\d+(\.\d+)?$/.test(s)) return 'number';
  const kw = Number(s);
  if (kw < 0) return 'negative';
  if (kw > 100000) return 'tooLarge';
  if (Math.abs(kw * 10 - Math.round(kw * 10)) > 1e-6) return 'decimals';
  return null;
}
