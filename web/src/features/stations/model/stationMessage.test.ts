import { describe, expect, it } from 'vitest';
import type { Command } from '../api/chargers';
import { postToEach, screenTargets } from './stationMessage';

const piles = [
  { id: 'p1', code: 'A-01', ocppVersion: '2.0.1' },
  { id: 'p2', code: 'A-02', ocppVersion: '1.6' },
  { id: 'p3', code: 'A-03', ocppVersion: '2.0.1' },
  { id: 'p4', code: 'A-04', ocppVersion: '2.0.1' },
];
const command = (id: string) => ({ id, status: 'sent' }) as Command;

describe('a message for every screen of a station', () => {
  it('goes to the 2.0.1 piles only', () => {
    const { screens, without } = screenTargets(piles);
    expect(screens.map((p) => p.code)).toEqual(['A-01', 'A-03', 'A-04']);
    expect(without.map((p) => p.code)).toEqual(['A-02']);
  });

  it('is posted to each pile, each with its own outcome, after the first pile accepted the body', async () => {
    const seen: Array<[string, boolean]> = [];
    const out = await postToEach(screenTargets(piles).screens, { message: 'x' }, async (id, _b, first) => {
      seen.push([id, first]);
      if (id === 'p3') throw new Error('pile A-03 was deleted');
      return command(`c-${id}`);
    });
    expect(seen).toEqual([['p1', true], ['p3', false], ['p4', false]]);
    expect(out).toEqual([
      { pileId: 'p1', code: 'A-01', command: command('c-p1') },
      { pileId: 'p3', code: 'A-03', problem: 'pile A-03 was deleted' },
      { pileId: 'p4', code: 'A-04', command: command('c-p4') },
    ]);
  });

  it('throws the first refusal, so the form shows it, and sends no more', async () => {
    let calls = 0;
    const refused = postToEach(piles.slice(0, 1).concat(piles.slice(2)), { message: '' }, async () => {
      calls += 1;
      throw new Error('message: is required');
    });
    await expect(refused).rejects.toThrow('message: is required');
    expect(calls).toBe(1);
  });
});
