import { get, post } from './request';

/**
 * The charger link (OCPP 1.6J): charger passwords, the message log,
 * remote operations and charging cards (shared/backoffice handlers
 * chargers.rs, commands.rs, cards.rs; docs/charger-link.md).
 */

export const setPilePassword = (id: string, password?: string) =>
  post<{ password: string; passwordSetAt: number }>('/pile/setPassword', password ? { id, password } : { id });

/** A charger password: 16-40 printable ASCII characters without spaces (as the server checks). */
export function chargerPasswordProblem(p: string): boolean {
  return p.length < 16 || p.length > 40 || !/^[\x21-\x7e]+$/.test(p);
}

/** The URL a charger is configured with (its id is the pile code). */
export function chargerUrl(code: string, location: { protocol: string; host: string } = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ocpp/${encodeURIComponent(code)}`;
}

export interface MessageLogEntry {
  at: number;
  direction: 'in' | 'out';
  messageId: string | null;
  action: string | null;
  request: unknown;
  response: unknown;
  error: { code: string; description: string } | null;
  answeredAt: number | null;
}

/** OCPP 1.6 actions, for the message log's filter. */
export const OCPP_ACTIONS = [
  'Authorize',
  'BootNotification',
  'DataTransfer',
  'DiagnosticsStatusNotification',
  'FirmwareStatusNotification',
  'Heartbeat',
  'MeterValues',
  'StartTransaction',
  'StatusNotification',
  'StopTransaction',
  'ChangeAvailability',
  'ChangeConfiguration',
  'ClearCache',
  'GetConfiguration',
  'RemoteStartTransaction',
  'RemoteStopTransaction',
  'Reset',
  'TriggerMessage',
  'UnlockConnector',
] as const;

export async function getMessageLog(pileId: string, action: string | undefined, cursor: string | null, pageSize = 50) {
  const { data } = await get<{ list: MessageLogEntry[]; cursor: string | null }>('/pile/messageLog', {
    pileId,
    pageSize,
    ...(action ? { action } : {}),
    ...(cursor ? { cursor } : {}),
  });
  return data;
}

export type CommandStatus = 'queued' | 'sent' | 'answered' | 'callError' | 'timeout' | 'offline';

export interface Command {
  id: string;
  pileId: string;
  action: string;
  payload: unknown;
  requestedBy: string;
  status: CommandStatus;
  response: Record<string, unknown> | null;
  error: { code: string; description: string } | null;
  createdAt: number;
  sentAt: number | null;
  answeredAt: number | null;
}

/** A command is over once it left queued / sent. */
export const commandDone = (c: Command) => c.status !== 'queued' && c.status !== 'sent';

export const getCommand = async (id: string) => (await get<Command>('/charger/command', { id })).data;
export const getCommands = async (pileId: string) => (await get<{ list: Command[]; cursor: string | null }>('/charger/commands', { pileId, pageSize: 20 })).data;
export const sendCommand = async (path: string, body: Record<string, unknown>) => (await post<Command>(`/charger/${path}`, body)).data;

export type CardStatus = 'Accepted' | 'Blocked' | 'Expired' | 'Invalid';
export const CARD_STATUSES: CardStatus[] = ['Accepted', 'Blocked', 'Expired', 'Invalid'];

export interface CardInput {
  idTag: string;
  holder: string;
  plate: string;
  status: CardStatus;
  expiresAt: number | null;
  parentIdTag: string | null;
}

export interface Card extends CardInput {
  createdAt: number;
  updatedAt: number;
  updatedBy: string;
  version: number;
}

export interface CardFilter {
  keyword?: string;
  status?: CardStatus | '';
}

export async function getCards(f: CardFilter, pageNo: number, pageSize: number) {
  const params: Record<string, string | number> = { pageNo, pageSize };
  if (f.keyword?.trim()) params.keyword = f.keyword.trim();
  if (f.status) params.status = f.status;
  return (await get<{ list: Card[]; total: number }>('/card/getList', params)).data;
}

/** `extra.fieldErrors`: the caller marks a 400's fields on its form (no toast for those). */
export const addCard = (c: CardInput, extra?: { fieldErrors?: boolean }) => post<Card>('/card/doAdd', c, extra);
export const editCard = (c: CardInput & { version: number }, extra?: { fieldErrors?: boolean }) => post<Card>('/card/doEdit', c, extra);
export const deleteCard = (idTag: string) => post('/card/doDelete', { idTag });
export const importCards = (rows: CardInput[]) => post<{ created: number; updated: number }>('/card/import', { rows });

export interface Reservation {
  id: number;
  pileId: string;
  connector: number;
  idTag: string;
  expiresAt: number;
  status: 'requested' | 'reserved' | 'refused' | 'cancelled' | 'used';
  answer: string | null;
  createdAt: number;
  createdBy: string;
}

export const getReservations = async (pileId: string) => (await get<{ list: Reservation[] }>('/charger/reservations', { pileId })).data.list;
