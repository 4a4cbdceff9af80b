import { get, post } from './request';

/** Stations, tariffs, piles and connectors (shared/backoffice handlers/assets.rs). */

export type StationStatus = 'planning' | 'operating' | 'suspended' | 'closed';
export type PileType = 'ac' | 'dc';
export type Standard = 'gbt2015' | 'ccs2' | 'chademo' | 'type2';
export type ConnectorStatus =
  | 'available'
  | 'preparing'
  | 'charging'
  | 'suspended'
  | 'finishing'
  | 'reserved'
  | 'unavailable'
  | 'faulted'
  | 'offline';
export type OperatorAction = 'enable' | 'disable' | 'reset' | 'unlock' | 'remoteStart' | 'remoteStop';
export type Tier = 'sharp' | 'peak' | 'flat' | 'valley';

export const STATION_STATUSES: StationStatus[] = ['planning', 'operating', 'suspended', 'closed'];
export const CONNECTOR_STATUSES: ConnectorStatus[] = ['available', 'preparing', 'charging', 'suspended', 'finishing', 'reserved', 'unavailable', 'faulted', 'offline'];
export const STANDARDS: Standard[] = ['gbt2015', 'ccs2', 'chademo', 'type2'];
export const ACTIONS: OperatorAction[] = ['enable', 'disable', 'reset', 'unlock', 'remoteStart', 'remoteStop'];
export const TIERS: Tier[] = ['sharp', 'peak', 'flat', 'valley'];

export interface StationInput {
  code: string;
  name: string;
  operator: string;
  provinceCode: string;
  cityCode: string;
  districtCode: string | null;
  address: string;
  lat: number | null;
  lng: number | null;
  openingHours: string;
  status: StationStatus;
  servicePhone: string;
  parkingInfo: string;
  tariffId: string;
}

export interface Station extends StationInput {
  id: string;
  regionName: string;
  tariffName?: string | null;
  pileCount: number;
  connectorCount: number;
  createdAt: number;
  createdBy: string;
  updatedAt: number;
  updatedBy: string;
  version: number;
}

export interface Connector {
  id: string;
  pileId: string;
  pileCode: string;
  stationId: string;
  stationName?: string | null;
  number: number;
  pileType: PileType;
  standard: Standard;
  maxPowerKw: number;
  /** Typed by the operator; empty = the derived `qrPayload`. */
  qrCode: string;
  /** What the QR label encodes: the pile code and the connector number ("INFYAC001606-01"), or the text typed. */
  qrPayload: string;
  status: ConnectorStatus;
  effectiveStatus: ConnectorStatus;
  online: boolean;
  allowedActions: OperatorAction[];
  faultCode: string | null;
  statusSince: number;
  lastHeartbeat?: number | null;
  version: number;
}

export interface Pile {
  id: string;
  code: string;
  stationId: string;
  vendor: string;
  model: string;
  firmwareVersion: string;
  pileType: PileType;
  ratedPowerKw: number;
  connectorCount: number;
  heartbeatIntervalSecs: number;
  offlineAfterSecs: number;
  lastHeartbeat: number | null;
  online: boolean;
  version: number;
  connectors: Connector[];
  /** What the charger is told at boot (an operator may hold it back). */
  registrationStatus?: RegistrationStatus;
  /** 0 none (trusted network), 1 Basic auth, 2 Basic auth over TLS. */
  securityProfile?: number;
  /** When the charger password was last set; null = none. */
  passwordSetAt?: number | null;
  /** The charger link; null until the charger first connects. */
  link?: ChargerLink | null;
}

export type RegistrationStatus = 'Accepted' | 'Pending' | 'Rejected';
export const REGISTRATION_STATUSES: RegistrationStatus[] = ['Accepted', 'Pending', 'Rejected'];

export interface BootInfo {
  vendor: string;
  model: string;
  serialNumber: string | null;
  firmwareVersion: string | null;
  at: number;
}

export interface ChargerLink {
  connected: boolean;
  connectedAt: number | null;
  disconnectedAt: number | null;
  protocol: string | null;
  lastMessageAt: number | null;
  remoteAddress: string | null;
  boot: BootInfo | null;
  chargerStatus: string | null;
  chargerErrorCode: string | null;
  firmwareStatus: string | null;
  diagnosticsStatus: string | null;
}

export interface Segment {
  start: string;
  end: string;
  tier: Tier;
}
/** Prices in 1/10000 yuan per kWh (integers). */
export interface TierPrice {
  electricity: number;
  service: number;
}
export interface TariffForm {
  id: string;
  name: string;
  version: number;
  segments: Segment[];
  prices: Partial<Record<Tier, TierPrice>>;
  parking?: { freeMinutes: number; fenPerMinute: number; capPerSession?: number | null } | null;
}
export interface TariffEntry {
  template: TariffForm;
  updatedAt: number;
  updatedBy: string;
}

interface Page<T> {
  list: T[];
  total: number;
}

export interface StationFilter {
  name?: string;
  regionCode?: string;
  status?: StationStatus | '';
}

export async function getStations(f: StationFilter, pageNo: number, pageSize: number): Promise<Page<Station>> {
  const { data } = await get<Page<Station>>('/station/getList', { ...f, pageNo, pageSize });
  return { list: data?.list ?? [], total: data?.total ?? 0 };
}

/** The stations using a template (this one included), by name. */
export interface TariffUsage {
  stations: { id: string; name: string }[];
  total: number;
}

export interface StationDetail {
  station: Station;
  tariff: TariffEntry | null;
  tariffUsage: TariffUsage | null;
  piles: Pile[];
}

export async function getStationDetail(id: string): Promise<StationDetail> {
  const { data } = await get<StationDetail>('/station/getDetail', { id });
  return data;
}

/** `extra.fieldErrors`: the caller marks a 400's fields on its form (no toast for those). */
export const addStation = (s: StationInput, extra?: { fieldErrors?: boolean }) => post<Station>('/station/doAdd', s, extra);
export const editStation = (s: StationInput & { id: string; version: number }, extra?: { fieldErrors?: boolean }) => post<Station>('/station/doEdit', s, extra);
export const deleteStation = (id: string, version: number) => post('/station/doDelete', { id, version });

export async function getTariffs(): Promise<TariffEntry[]> {
  const { data } = await get<Page<TariffEntry>>('/tariff/getList');
  return data?.list ?? [];
}
export async function getTariffVersions(id: string): Promise<{ version: number; updatedAt: number; updatedBy: string }[]> {
  const { data } = await get<{ list: { version: number; updatedAt: number; updatedBy: string }[] }>('/tariff/getVersions', { id });
  return data?.list ?? [];
}
export async function getTariffVersion(id: string, version: number): Promise<TariffEntry> {
  const { data } = await get<TariffEntry>('/tariff/getDetail', { id, version });
  return data;
}
export const addTariff = (t: Omit<TariffForm, 'id' | 'version'>) => post<{ template: TariffForm }>('/tariff/doAdd', t);
/**
 * Saves a template change. `allStations`: a new version, in force at every
 * station using it; `thisStation`: a copy as a new template assigned to
 * `stationId` only. The server refuses an edit without `apply`.
 */
export const editTariff = (t: TariffForm, apply: 'allStations' | 'thisStation', stationId?: string) =>
  post<{ template: TariffForm }>('/tariff/doEdit', { ...t, apply, stationId });

export interface PileInput {
  stationId: string;
  code: string;
  vendor: string;
  model: string;
  firmwareVersion: string;
  pileType: PileType;
  ratedPowerKw: number;
  heartbeatIntervalSecs: number;
  registrationStatus?: RegistrationStatus;
  securityProfile?: number;
  connectors?: { standard: Standard; maxPowerKw: number; qrCode: string }[];
}
export const addPile = (p: PileInput, extra?: { fieldErrors?: boolean }) => post<Pile>('/pile/doAdd', p, extra);
export const editPile = (p: PileInput & { id: string; version: number }, extra?: { fieldErrors?: boolean }) => post<Pile>('/pile/doEdit', p, extra);
export const deletePile = (id: string) => post('/pile/doDelete', { id });

export interface ConnectorFilter {
  stationId?: string;
  status?: ConnectorStatus | '';
  pileType?: PileType | '';
}
export async function getConnectors(f: ConnectorFilter, pageNo: number, pageSize: number): Promise<Page<Connector>> {
  const { data } = await get<Page<Connector>>('/connector/getList', { ...f, pageNo, pageSize });
  return { list: data?.list ?? [], total: data?.total ?? 0 };
}
export interface HistoryEntry {
  at: number;
  from: ConnectorStatus | null;
  to: ConnectorStatus;
  event: string;
  by: string;
}
export async function getConnectorHistory(id: string): Promise<HistoryEntry[]> {
  const { data } = await get<{ list: HistoryEntry[] }>('/connector/getHistory', { id });
  return data?.list ?? [];
}
export const actOnConnector = (id: string, action: OperatorAction) => post<Connector>('/connector/doAction', { id, action });
