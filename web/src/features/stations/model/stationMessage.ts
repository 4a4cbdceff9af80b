/**
 * A message for every screen of a station: 2.0.1 stations take
 * SetDisplayMessage (a 1.6 charger has no such call), each pile on its own,
 * so each pile's command shows whether that charger took it.
 */
import type { Command } from '../api/chargers';

export interface PileMessage {
  pileId: string;
  code: string;
  /** The pile's SetDisplayMessage, followed until the station answers. */
  command?: Command;
  /** Why it could not be queued for this pile. */
  problem?: string;
}

type Target = { id: string; code: string; ocppVersion?: string | null };

/** The piles whose screens take a message, and those that cannot. */
export function screenTargets<P extends Target>(piles: P[]): { screens: P[]; without: P[] } {
  return { screens: piles.filter((p) => p.ocppVersion === '2.0.1'), without: piles.filter((p) => p.ocppVersion !== '2.0.1') };
}

/**
 * Posts `body` to each pile. The first pile's refusal is thrown (the body
 * is checked the same way for every pile, so the form shows it beside its
 * field); after that, each pile's outcome is its own.
 */
export async function postToEach(piles: Target[], body: Record<string, unknown>, send: (pileId: string, body: Record<string, unknown>, first: boolean) => Promise<Command>): Promise<PileMessage[]> {
  const [first, ...rest] = piles;
  if (!first) return [];
  const command = await send(first.id, body, true);
  const others = await Promise.allSettled(rest.map((p) => send(p.id, body, false)));
  return [
    { pileId: first.id, code: first.code, command },
    ...others.map((r, i): PileMessage => (r.status === 'fulfilled' ? { pileId: rest[i].id, code: rest[i].code, command: r.value } : { pileId: rest[i].id, code: rest[i].code, problem: r.reason instanceof Error ? r.reason.message : String(r.reason) })),
  ];
}
