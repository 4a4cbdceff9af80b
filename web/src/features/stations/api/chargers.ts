import { useState } from 'react';
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import { get, post } from '@/api/request';
import type { Answer, Query, Schema } from '@/api/types';

/**
 * The charger link (OCPP 1.6J): charger passwords, the message log,
 * remote operations and charging cards (shared/backoffice handlers
 * chargers.rs, commands.rs, cards.rs; docs/charger-link.md).
 */

export const setPilePassword = (id: string, password?: string) =>
  post<Answer<'/partnerapi/pile/setPassword', 'post'>>('/pile/setPassword', password ? { id, password } : { id });

/** A charger password: 16-40 printable ASCII characters without spaces (the server also refuses one that is easy to guess, saying why). */
export function chargerPasswordProblem(p: string): boolean {
  return p.length < 16 || p.length > 40 || !/^[\x21-\x7e]+$/.test(p);
}

/** The URL a charger is configured with (its id is the pile code). */
export function chargerUrl(code: string, location: { protocol: string; host: string } = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ocpp/${encodeURIComponent(code)}`;
}

type MessageLog = Answer<'/partnerapi/pile/messageLog', 'get'>;
export type MessageLogEntry = MessageLog['list'][number];

/**
 * A charger's message log, newest first, page after page with the server's
 * cursor (`setSize` asks for more); `live` reloads it every 5 s.
 */
export function useMessageLog(pileId: string, action: string, live: boolean) {
  return useSWRInfinite(
    (i, prev: { cursor: string | null } | null) => (!pileId || (prev && !prev.cursor) ? null : ['pile/messageLog', pileId, action, i === 0 ? null : prev!.cursor]),
    ([, id, a, cursor]) => getMessageLog(id as string, (a as string) || undefined, cursor as string | null),
    { refreshInterval: live ? 5000 : 0 },
  );
}

export async function getMessageLog(pileId: string, action: string | undefined, cursor: string | null, pageSize = 50) {
  const { data } = await get<MessageLog>('/pile/messageLog', {
    pileId,
    pageSize,
    ...(action ? { action } : {}),
    ...(cursor ? { cursor } : {}),
  });
  return data;
}

export type Command = Answer<'/partnerapi/charger/command', 'get'>;
export type CommandStatus = Command['status'];

/** A command is over once it left queued / sent. */
export const commandDone = (c: Command) => c.status !== 'queued' && c.status !== 'sent';

export const getCommand = async (id: string) => (await get<Command>('/charger/command', { id })).data;
export const getCommands = async (pileId: string) => (await get<Answer<'/partnerapi/charger/commands', 'get'>>('/charger/commands', { pileId, pageSize: 20 })).data;
/** `extra.fieldErrors`: the caller shows a 400's fields on its form (no toast for those). */
export const sendCommand = async (path: string, body: Record<string, unknown>, extra?: { fieldErrors?: boolean }) => (await post<Command>(`/charger/${path}`, body, extra)).data;

/** How often to read one command again: every `pollMs` until it is over. */
export const commandRefreshInterval = (c: Pick<Command, 'status'> | undefined, pollMs = 1000): number => (c && !commandDone(c as Command) ? pollMs : 0);

/**
 * One command followed until it ends: read again every `pollMs` while it
 * is queued or sent, then no more (null id: nothing followed). The end is
 * kept per command (SWR restarts its timer only when the interval
 * changes), so a new id is polled again.
 */
export function useCommand(id: string | null, pollMs = 1000) {
  const [ended, setEnded] = useState<string | null>(null);
  return useSWR(id ? ['charger/command', id] : null, () => getCommand(id!), {
    refreshInterval: ended === id ? 0 : pollMs,
    onSuccess: (c) => setEnded(commandRefreshInterval(c, pollMs) === 0 ? c.id : null),
  });
}

type CommandPage = Answer<'/partnerapi/charger/commands', 'get'>;
/** How often to reload a pile's commands: every second while one waits for the charger's answer, else not. */
export const commandsRefreshInterval = (page: CommandPage | undefined): number => (page?.list.some((c) => !commandDone(c)) ? 1000 : 0);

/**
 * A pile's latest commands, polled while one waits for the charger's answer (`enabled` false: not asked).
 * The interval is state set from each answer: SWR starts its timer again only when the interval
 * (or the key) changes, so a command sent after everything was answered (the page's `mutate`)
 * must change it, or the page would never see the charger's answer.
 */
export function useCommands(pileId: string, enabled = true) {
  const [interval, setPollInterval] = useState(0);
  return useSWR(enabled ? ['charger/commands', pileId] : null, () => getCommands(pileId), {
    refreshInterval: interval,
    onSuccess: (page) => setPollInterval(commandsRefreshInterval(page)),
  });
}

export type CardStatus = Schema<'CardStatus'>;
export const CARD_STATUSES: CardStatus[] = ['Accepted', 'Blocked', 'Expired', 'Invalid'];

type CardPage = Answer<'/partnerapi/card/getList', 'get'>;
export type Card = CardPage['list'][number];
/** A card's own fields as a form or an import holds them (add, edit and import send these). */
export type CardInput = Pick<Card, 'idTag' | 'holder' | 'plate' | 'status' | 'expiresAt' | 'parentIdTag' | 'payment' | 'tokenType'>;
export type CardPayment = Schema<'CardPayment'>;
/** What kind of identifier a card is for OCPP 2.0.1 stations (null: any). */
export type TokenType = Schema<'TokenType'>;
// A record, so that a kind the server adds is a type error here until listed.
const TOKEN_TYPE_SET: Record<TokenType, true> = { ISO14443: true, ISO15693: true, eMAID: true, KeyCode: true, MacAddress: true, Central: true, Local: true };
export const TOKEN_TYPES = Object.keys(TOKEN_TYPE_SET) as TokenType[];

type CardQuery = Query<'/partnerapi/card/getList'>;
/** The card list's filters as a form holds them ('' = any). */
export type CardFilter = { [K in 'keyword' | 'status']?: CardQuery[K] | '' };

export async function getCards(f: CardFilter, pageNo: number, pageSize: number) {
  const params: Record<string, string | number> = { pageNo, pageSize };
  if (f.keyword?.trim()) params.keyword = f.keyword.trim();
  if (f.status) params.status = f.status;
  return (await get<CardPage>('/card/getList', params)).data;
}

/** A page of the card list. */
export function useCards(f: CardFilter, pageNo: number, pageSize: number) {
  return useSWR(['card/getList', f, pageNo, pageSize], () => getCards(f, pageNo, pageSize));
}

/** Cards a picker offers per search. */
export const CARD_CHOICES = 20;

type CardSearch = Answer<'/partnerapi/card/search', 'get'>;
export async function searchCards(text: string, status?: CardStatus): Promise<CardSearch> {
  const params: Record<string, string | number> = { limit: CARD_CHOICES };
  if (text.trim()) params.text = text.trim();
  if (status) params.status = status;
  return (await get<CardSearch>('/card/search', params)).data;
}

/** Cards whose number, holder or plate starts with `text` (of `status` when given), for a picker (`enabled` false: not asked). */
export function useCardSearch(text: string, status?: CardStatus, enabled = true) {
  return useSWR(enabled ? ['card/search', text, status] : null, () => searchCards(text, status));
}

/** `extra.fieldErrors`: the caller marks a 400's fields on its form (no toast for those). */
export const addCard = (c: Schema<'CardInput'>, extra?: { fieldErrors?: boolean }) => post<Answer<'/partnerapi/card/doAdd', 'post'>>('/card/doAdd', c, extra);
export const editCard = (c: Schema<'CardEdit'>, extra?: { fieldErrors?: boolean }) => post<Answer<'/partnerapi/card/doEdit', 'post'>>('/card/doEdit', c, extra);
export const deleteCard = (idTag: string) => post('/card/doDelete', { idTag });
/** `checkOnly`: the server checks every row and writes nothing. A 400 names each bad row in `data.fields` (no toast: the caller lists them). */
export const importCards = (rows: Schema<'CardImport'>['rows'], checkOnly = false) =>
  post<Answer<'/partnerapi/card/import', 'post'>>('/card/import', checkOnly ? { rows, checkOnly } : { rows }, { fieldErrors: true });

/** Adds money to a prepaid card (finance); answers the card with its new balance. */
export const topUpCard = (idTag: string, amountFen: number, note: string) => post<Answer<'/partnerapi/card/topUp', 'post'>>('/card/topUp', { idTag, amountFen, note }, { fieldErrors: true });

type CardLedger = Answer<'/partnerapi/card/ledger', 'get'>;
export type CardLedgerEntry = CardLedger['list'][number];
/** A card's top-ups and sessions paid from its balance, newest first (null: not asked). */
export function useCardLedger(idTag: string | null) {
  return useSWR(idTag ? ['card/ledger', idTag] : null, async () => (await get<CardLedger>('/card/ledger', { idTag: idTag! })).data);
}

/** Prepaid cards below the minimum balance to start a session, lowest first (`enabled` false: not asked). */
export function useLowBalance(enabled: boolean) {
  return useSWR(enabled ? ['card/lowBalance'] : null, async () => (await get<Answer<'/partnerapi/card/lowBalance', 'get'>>('/card/lowBalance')).data);
}

type Reservations = Answer<'/partnerapi/charger/reservations', 'get'>;
export type Reservation = Reservations['list'][number];

export const getReservations = async (pileId: string) => (await get<Reservations>('/charger/reservations', { pileId })).data.list;

/**
 * A pile's reservations, asked again whenever its latest command (`latest`,
 * from `useCommands`) changes or moves on (`enabled` false: not asked).
 */
export function useReservations(pileId: string, latest: Pick<Command, 'id' | 'status'> | undefined, enabled = true) {
  return useSWR(enabled ? ['charger/reservations', pileId, latest?.id, latest?.status] : null, () => getReservations(pileId));
}

/** A 2.0.1 station's device model as it last reported it (handlers/device_model.rs). */
export type DeviceModel = Answer<'/partnerapi/charger/deviceModel', 'get'>;
export type ReportedVariable = DeviceModel['list'][number];
export type KeptMonitor = DeviceModel['monitors'][number];
export type KeptProfile = DeviceModel['chargingProfiles'][number];
export type DeviceEvent = DeviceModel['events'][number];

export const getDeviceModel = async (pileId: string, q: string) => (await get<DeviceModel>('/charger/deviceModel', q ? { pileId, q } : { pileId })).data;

/** The device model, filtered by name (`q`, on the server). */
export function useDeviceModel(pileId: string, q: string) {
  return useSWR(['charger/deviceModel', pileId, q], () => getDeviceModel(pileId, q), { keepPreviousData: true });
}

/** The security extension: a pile's certificates and the security events (handlers/certificates.rs). */
export type PileCertificates = Answer<'/partnerapi/charger/certificates', 'get'>;
export type ChargerCertificate = PileCertificates['list'][number];
export type SecurityEventPage = Answer<'/partnerapi/charger/securityEvents', 'get'>;
export type SecurityEvent = SecurityEventPage['list'][number];

export const getCertificates = async (pileId: string) => (await get<PileCertificates>('/charger/certificates', { pileId })).data;

/** A pile's certificates, read again when `latest` (its newest command) changes state. */
export function useCertificates(pileId: string, latest: Pick<Command, 'id' | 'status'> | undefined) {
  return useSWR(['charger/certificates', pileId, latest?.id, latest?.status], () => getCertificates(pileId));
}

export const revokeCertificate = (pileId: string, serial: string, version: number, reason?: string) =>
  post<Answer<'/partnerapi/charger/certificateRevoke', 'post'>>('/charger/certificateRevoke', reason ? { pileId, serial, version, reason } : { pileId, serial, version });
export const signCertificate = (pileId: string, csr: string) => post<Answer<'/partnerapi/charger/certificateSign', 'post'>>('/charger/certificateSign', { pileId, csr }, { fieldErrors: true });

export interface SecurityEventFilter {
  pileId?: string;
  type?: string;
  from?: string;
  to?: string;
}

export async function getSecurityEvents(f: SecurityEventFilter, cursor: string | null, pageSize = 50) {
  const q: Record<string, string | number> = { pageSize };
  for (const [k, v] of Object.entries(f)) if (v) q[k] = v;
  if (cursor) q.cursor = cursor;
  return (await get<SecurityEventPage>('/charger/securityEvents', q)).data;
}

/** Security events, newest first, page after page with the store's cursor. */
export function useSecurityEvents(f: SecurityEventFilter, pageSize = 50) {
  return useSWRInfinite(
    (i, prev: SecurityEventPage | null) => (prev && !prev.cursor ? null : ['charger/securityEvents', f.pileId ?? '', f.type ?? '', f.from ?? '', f.to ?? '', pageSize, i === 0 ? null : prev!.cursor]),
    ([, pileId, type, from, to, size, cursor]) => getSecurityEvents({ pileId: pileId as string, type: type as string, from: from as string, to: to as string }, cursor as string | null, size as number),
  );
}
