import useSWR from 'swr';
import { get, post } from '@/api/request';
import type { Answer, Query, Schema } from '@/api/types';

/** Stations, tariffs, piles and connectors (shared/backoffice handlers/assets.rs). */

type StationPage = Answer<'/partnerapi/station/getList', 'get'>;
type ConnectorPage = Answer<'/partnerapi/connector/getList', 'get'>;

export type StationStatus = Schema<'StationInput'>['status'];
export type PileType = Schema<'PileInput'>['pileType'];
export type Standard = Schema<'ConnectorInput'>['standard'];
export type ConnectorStatus = Connector['status'];
export type OperatorAction = Schema<'OperatorAction'>;
export type Tier = Schema<'Tier'>;

export const STATION_STATUSES: StationStatus[] = ['planning', 'operating', 'suspended', 'closed'];
export const CONNECTOR_STATUSES: ConnectorStatus[] = ['available', 'preparing', 'charging', 'suspended', 'finishing', 'reserved', 'unavailable', 'faulted', 'offline'];
export const STANDARDS: Standard[] = ['gbt2015', 'ccs2', 'chademo', 'type2'];
/** The statuses an operator sets by hand (the rest is remote operations: `./chargers`). */
export const ACTIONS: OperatorAction[] = ['disable', 'enable'];
export const TIERS: Tier[] = ['sharp', 'peak', 'flat', 'valley'];

export type StationInput = Schema<'StationInput'>;
/** A station as the detail, add and edit answers give it; a list row adds its tariff template's name. */
export type Station = StationDetail['station'] & Partial<Pick<StationPage['list'][number], 'tariffName'>>;
/** A connector as its pile lists it; a row of the connector list adds its station and the pile's last heartbeat. */
export type Connector = Pile['connectors'][number] & Partial<Pick<ConnectorPage['list'][number], 'stationName' | 'lastHeartbeat' | 'ocppVersion'>>;
export type Pile = StationDetail['piles'][number];

export type RegistrationStatus = Schema<'RegistrationStatus'>;
export const REGISTRATION_STATUSES: RegistrationStatus[] = ['Accepted', 'Pending', 'Rejected'];

/** The protocol a pile speaks: an OCPP version or a YKC one (`../model/ykc`'s `PROTOCOLS` lists them). */
export type OcppVersion = Schema<'OcppVersion'>;

/** The charger link; null until the charger first connects. */
export type ChargerLink = NonNullable<Pile['link']>;
export type BootInfo = NonNullable<ChargerLink['boot']>;

export type Segment = Schema<'Segment'>;
/** Prices in 1/10000 yuan per kWh (integers). */
export type TierPrice = Schema<'TierPrice'>;
export type TariffEntry = Answer<'/partnerapi/tariff/getList', 'get'>['list'][number];
/** A template as the server answers it and the editor submits it (segments, not slots). */
export type TariffForm = TariffEntry['template'];

type StationQuery = Query<'/partnerapi/station/getList'>;
/** The station list's filters as a form holds them ('' = any). */
export type StationFilter = { [K in 'name' | 'regionCode' | 'status']?: StationQuery[K] | '' };

export async function getStations(f: StationFilter, pageNo: number, pageSize: number): Promise<StationPage> {
  const { data } = await get<StationPage>('/station/getList', { ...f, pageNo, pageSize });
  return { list: data?.list ?? [], total: data?.total ?? 0 };
}

/** A page of the station list. */
export function useStations(f: StationFilter, pageNo: number, pageSize: number) {
  return useSWR(['station/getList', f, pageNo, pageSize], () => getStations(f, pageNo, pageSize));
}

/** Stations a picker offers per search: the first page of names containing what was typed. */
export const STATION_CHOICES = 20;

/** The station picker's choices: the first page of stations whose name contains `name` (all when empty); the previous choices stay shown while the next load. */
export function useStationChoices(name: string) {
  return useSWR(['station/getList/picker', name], () => getStations(name ? { name } : {}, 1, STATION_CHOICES), {
    keepPreviousData: true,
  });
}

/** The stations using a template (this one included), by name. */
export type TariffUsage = NonNullable<StationDetail['tariffUsage']>;

export type StationDetail = Answer<'/partnerapi/station/getDetail', 'get'>;

export async function getStationDetail(id: string): Promise<StationDetail> {
  const { data } = await get<StationDetail>('/station/getDetail', { id });
  return data;
}

/** One station's detail: its settings, piles and connectors (no id: not asked). */
export function useStationDetail(id: string) {
  return useSWR(id ? ['station/getDetail', id] : null, () => getStationDetail(id));
}

/** How often a station page reads its piles again (charger links and connector states move on their own). */
export const PILES_LIVE_MS = 5000;

type PileList = Answer<'/partnerapi/pile/getList', 'get'>;

export async function getPileList(stationId: string): Promise<PileList> {
  const { data } = await get<PileList>('/pile/getList', { stationId });
  return { list: data?.list ?? [], total: data?.total ?? 0, ykcPort: data?.ykcPort ?? null };
}

export async function getPiles(stationId: string): Promise<Pile[]> {
  return (await getPileList(stationId)).list;
}

/**
 * The TCP port YKC piles connect to on this site's host (null: the gateway
 * has no YKC listener), as the station's pile list names it; read once
 * (null station: not asked).
 */
export function useYkcPort(stationId: string | null) {
  return useSWR(stationId ? ['pile/getList/ykcPort', stationId] : null, async () => (await getPileList(stationId!)).ykcPort, { revalidateOnFocus: false });
}

/**
 * A station's piles as they are now, read every `pollMs`: each charger's
 * link (connected or not), online state and connector states follow the
 * chargers without a reload. Until the first read, `initial` (the station
 * detail's piles) stands in; the detail itself is not polled, so forms
 * opened from it are never reset under the user.
 */
export function useLivePiles(stationId: string, initial: Pile[] | undefined, pollMs = PILES_LIVE_MS) {
  return useSWR(stationId ? ['pile/getList/live', stationId] : null, () => getPiles(stationId), {
    refreshInterval: pollMs,
    fallbackData: initial,
    revalidateOnMount: false,
  });
}

/** A station's detail under the picker's own key, to name a station chosen before the picker knew it (null: not asked). */
export function useStationNameLookup(id: string | null) {
  return useSWR(id ? ['station/getDetail/name', id] : null, () => getStationDetail(id!));
}

/** `extra.fieldErrors`: the caller marks a 400's fields on its form (no toast for those). */
export const addStation = (s: StationInput, extra?: { fieldErrors?: boolean }) => post<Answer<'/partnerapi/station/doAdd', 'post'>>('/station/doAdd', s, extra);
export const editStation = (s: Schema<'StationInputEdit'>, extra?: { fieldErrors?: boolean }) => post<Answer<'/partnerapi/station/doEdit', 'post'>>('/station/doEdit', s, extra);
export const deleteStation = (id: string, version: number) => post('/station/doDelete', { id, version });

export async function getTariffs(): Promise<TariffEntry[]> {
  const { data } = await get<Answer<'/partnerapi/tariff/getList', 'get'>>('/tariff/getList');
  return data?.list ?? [];
}
/** Every tariff template (`enabled` false: not asked, e.g. while a dialog is closed). */
export function useTariffs(enabled = true) {
  return useSWR(enabled ? 'tariff/getList' : null, getTariffs);
}
type TariffVersions = Answer<'/partnerapi/tariff/getVersions', 'get'>;
export async function getTariffVersions(id: string): Promise<TariffVersions['list']> {
  const { data } = await get<TariffVersions>('/tariff/getVersions', { id });
  return data?.list ?? [];
}
/** A template's versions, asked again when the template's version changes (no template: not asked). */
export function useTariffVersions(base: Pick<TariffForm, 'id' | 'version'> | null | undefined) {
  return useSWR(base ? ['tariff/getVersions', base.id, base.version] : null, () => getTariffVersions(base!.id));
}
export async function getTariffVersion(id: string, version: number): Promise<TariffEntry> {
  const { data } = await get<Answer<'/partnerapi/tariff/getDetail', 'get'>>('/tariff/getDetail', { id, version });
  return data;
}
export const addTariff = (t: Omit<TariffForm, 'id' | 'version'>) => post<Answer<'/partnerapi/tariff/doAdd', 'post'>>('/tariff/doAdd', t);
/**
 * Saves a template change. `allStations`: a new version, in force at every
 * station using it; `thisStation`: a copy as a new template assigned to
 * `stationId` only. The server refuses an edit without `apply`.
 */
export const editTariff = (t: TariffForm, apply: 'allStations' | 'thisStation', stationId?: string) =>
  post<Answer<'/partnerapi/tariff/doEdit', 'post'>>('/tariff/doEdit', { ...t, apply, stationId });

export type PileInput = Schema<'PileInput'>;
export const addPile = (p: PileInput, extra?: { fieldErrors?: boolean }) => post<Answer<'/partnerapi/pile/doAdd', 'post'>>('/pile/doAdd', p, extra);
export const editPile = (p: Schema<'PileInputEdit'>, extra?: { fieldErrors?: boolean }) => post<Answer<'/partnerapi/pile/doEdit', 'post'>>('/pile/doEdit', p, extra);
export const deletePile = (id: string) => post('/pile/doDelete', { id });

type ConnectorQuery = Query<'/partnerapi/connector/getList'>;
/** The connector list's filters as a form holds them ('' = any). */
export type ConnectorFilter = { [K in 'stationId' | 'status' | 'pileType']?: ConnectorQuery[K] | '' };
export async function getConnectors(f: ConnectorFilter, pageNo: number, pageSize: number): Promise<ConnectorPage> {
  const { data } = await get<ConnectorPage>('/connector/getList', { ...f, pageNo, pageSize });
  return { list: data?.list ?? [], total: data?.total ?? 0 };
}
/** A page of the connector list. */
export function useConnectors(f: ConnectorFilter, pageNo: number, pageSize: number) {
  return useSWR(['connector/getList', f, pageNo, pageSize], () => getConnectors(f, pageNo, pageSize));
}
type ConnectorHistory = Answer<'/partnerapi/connector/getHistory', 'get'>;
export type HistoryEntry = ConnectorHistory['list'][number];
export async function getConnectorHistory(id: string): Promise<HistoryEntry[]> {
  const { data } = await get<ConnectorHistory>('/connector/getHistory', { id });
  return data?.list ?? [];
}
/** A connector's status history (null: not asked). */
export function useConnectorHistory(connectorId: string | null) {
  return useSWR(connectorId ? ['connector/getHistory', connectorId] : null, () => getConnectorHistory(connectorId!));
}
/** Out of service by hand (and back): stored, and sent to a connected charger as ChangeAvailability (`command`, null when not connected). */
export const actOnConnector = (id: string, action: OperatorAction) => post<Answer<'/partnerapi/connector/doAction', 'post'>>('/connector/doAction', { id, action });
