/**
 * The remote operations' forms, declared once: each is the route it posts
 * to and its fields; who may use it and the OCPP values a choice offers
 * come from the server's route table and OCPP types
 * (`@/api/chargerOperations`, generated); `OperationDialog` renders any of
 * them and `bodyOf` turns the typed values into the request (tested).
 */
import { CHARGER_OPERATIONS, OCPP_VALUES } from '@/api/chargerOperations';
import type { Command } from '../api/chargers';
import type { Schema } from '@/api/types';
import { fromZoned } from '@/components/data/format';
import type { Rule } from '@/utils/formRules';
import { isYkc } from './ykc';

/** `connectorAny`: a connector, or none (the charger chooses). */
/** `pem`: a certificate, several lines. */
/** `wholePile`: connector 0, shown and sent without a choice (a YKC pile's service state is the whole pile's). */
export type FieldKind = 'connector' | 'connector0' | 'wholePile' | 'connectorAny' | 'card' | 'text' | 'pem' | 'secret' | 'number' | 'datetime' | 'select' | 'periods';

export interface OperationField {
  name: string;
  kind: FieldKind;
  required?: boolean;
  options?: string[];
  /** What a 2.0.1 station is offered instead of `options`. */
  optionsV201?: string[];
  /** Shown before the user types. */
  initial?: string;
  maxLength?: number;
  /**
   * What the server checks that the form can check first (before the
   * confirm step), in the form rules' terms; `ruleMessage` is the i18n key
   * of the words shown when it fails (else the rules' default words).
   */
  rule?: Rule;
  ruleMessage?: string;
  /** The route takes a list: the one value goes as `[value]`. */
  asList?: boolean;
  /** Sent inside this object of the body (`connectionData: {...}`); the server names it `group.name`. */
  group?: string;
  /** Only a 2.0.1 station has it (an EVSE to reset, a connector type to reserve): left out of any other pile's form. */
  onlyV201?: boolean;
  /** What differs for a YKC pile (merged over the field), or false: not sent to one. */
  ykc?: false | Partial<Pick<OperationField, 'kind' | 'required' | 'rule' | 'ruleMessage' | 'maxLength' | 'initial' | 'options'>>;
}

/** A location the charger fetches from or uploads to, as the server accepts it. */
const LOCATION: Rule = { pattern: /^(https?|ftps?):\/\/[^\s/?#]+\S*$/i };

export interface Operation {
  key: string;
  path: string;
  /** Everyday (write:system) or changing how the charger works (configure:charger). */
  admin: boolean;
  /** Interrupts charging: asks first. */
  confirm?: boolean;
  fields: OperationField[];
  /** Whether it is sent to a charger of each protocol (the pile's `ocppVersion`): OCPP 1.6, 2.0.1, YKC. */
  v16: boolean;
  v201: boolean;
  ykc: boolean;
  /** The fields go as the one item of this list (`variables: [{...}]`). */
  list?: string;
}

type OperationKey = keyof typeof CHARGER_OPERATIONS;

/** An operation of the route `/charger/{key}`, as permissioned there. */
const op = (key: OperationKey, rest: Pick<Operation, 'fields'> & Partial<Pick<Operation, 'confirm' | 'list'>>): Operation => ({
  key,
  path: key,
  admin: CHARGER_OPERATIONS[key].permission === 'configure:charger',
  v16: CHARGER_OPERATIONS[key].action !== null,
  v201: CHARGER_OPERATIONS[key].v201 !== null,
  ykc: CHARGER_OPERATIONS[key].ykc !== null,
  ...rest,
});

/** The choices a select offers a pile of `version`. */
export const optionsOf = (f: Pick<OperationField, 'options' | 'optionsV201'>, version: string | null | undefined): string[] =>
  (version === '2.0.1' ? f.optionsV201 : undefined) ?? f.options ?? [];

/** Whether a pile of `version` (an OCPP or a YKC one) takes the operation. */
export const spokenBy = (o: Pick<Operation, 'v16' | 'v201' | 'ykc'>, version: string | null | undefined) => (isYkc(version) ? o.ykc : version === '2.0.1' ? o.v201 : o.v16);

/**
 * The operation as a pile of `version` is sent it: for a YKC pile each
 * field's `ykc` differences (a remote start names its gun and takes no
 * power limit), the fields it has no room for left out.
 */
export function forProtocol(o: Operation, version: string | null | undefined): Operation {
  const v201 = version === '2.0.1';
  if (!isYkc(version) && (v201 || !o.fields.some((f) => f.onlyV201))) return o;
  const fields = o.fields.filter((f) => v201 || !f.onlyV201);
  if (!isYkc(version)) return { ...o, fields };
  return { ...o, fields: fields.flatMap((f) => (f.ykc === false ? [] : [{ ...f, ...f.ykc }])) };
}

/** A card number a YKC pile takes: the physical card's 1-16 hex digits. */
const YKC_CARD: Rule = { pattern: /^\s*[0-9A-Fa-f]{1,16}\s*$/ };
/** Where a YKC pile fetches firmware: FTP now (its fixed fields hold the host, user and password, the path). */
const YKC_FIRMWARE: Rule = { pattern: /^\s*ftp:\/\/\S+$/i };

const ATTRIBUTES = ['Actual', 'Target', 'MinSet', 'MaxSet'];
const VARIABLE: OperationField[] = [
  { name: 'component', kind: 'text', required: true, maxLength: 50 },
  { name: 'variable', kind: 'text', required: true, maxLength: 50 },
  { name: 'evseId', kind: 'connector' },
  { name: 'attributeType', kind: 'select', options: ATTRIBUTES },
];

const PURPOSES = [...OCPP_VALUES.ChargingProfilePurposeType];

export const OPERATIONS: Operation[] = [
  // A YKC pile starts on the gun it is told, for a physical card, without a power limit.
  op('remoteStart', { fields: [
    { name: 'connectorId', kind: 'connectorAny', ykc: { kind: 'connector', required: true } },
    { name: 'idTag', kind: 'card', required: true, ykc: { rule: YKC_CARD, ruleMessage: 'ykc.rule.card' } },
    { name: 'limitW', kind: 'number', rule: { type: 'number', min: 1, max: 1_000_000 }, ykc: false },
  ] }),
  // A YKC pile goes in or out of service as a whole (0x52), never one gun.
  op('availability', { confirm: true, fields: [{ name: 'connectorId', kind: 'connector0', required: true, ykc: { kind: 'wholePile', initial: '0' } }, { name: 'type', kind: 'select', options: [...OCPP_VALUES.AvailabilityType], required: true }] }),
  // A YKC pile sends on request only a gun's real-time data (its status and meter at once).
  op('trigger', { fields: [
    { name: 'requestedMessage', kind: 'select', options: [...OCPP_VALUES.MessageTrigger], required: true, ykc: { options: ['MeterValues', 'StatusNotification'], initial: 'MeterValues' } },
    { name: 'connectorId', kind: 'connector', ykc: { required: true } },
  ] }),
  // A 2.0.1 station may be asked for a connector of a type (on the EVSE chosen, or any: connector 0).
  op('reserveNow', { fields: [
    { name: 'connectorId', kind: 'connector0', required: true },
    { name: 'connectorType', kind: 'select', options: [...OCPP_VALUES.ConnectorEnum], onlyV201: true },
    { name: 'idTag', kind: 'card', required: true },
    { name: 'expiresAt', kind: 'datetime', required: true },
  ] }),
  // The whole charger is reset from the panel's own menu; this form resets one EVSE of a
  // 2.0.1 station (or the whole station when none is chosen), so only 2.0.1 piles are offered it.
  { ...op('reset', { confirm: true, fields: [{ name: 'type', kind: 'select', options: [...OCPP_VALUES.ResetType], required: true, initial: 'Soft' }, { name: 'evseId', kind: 'connector', onlyV201: true }] }), v16: false, ykc: false },
  op('changeConfiguration', { fields: [{ name: 'key', kind: 'text', required: true, maxLength: 50 }, { name: 'value', kind: 'text', maxLength: 500 }] }),
  // The charger's password over OCPP (AuthorizationKey): never through changeConfiguration.
  // Empty: the server generates one; typed: 16-40 characters (the server also judges how guessable).
  op('rotateAuthorizationKey', { confirm: true, fields: [{ name: 'newKey', kind: 'secret', maxLength: 40, rule: { type: 'string', min: 16, max: 40 } }] }),
  // A YKC pile fetches at once, over FTP.
  op('updateFirmware', { confirm: true, fields: [{ name: 'location', kind: 'text', required: true, maxLength: 512, rule: LOCATION, ruleMessage: 'chg.rule.url', ykc: { rule: YKC_FIRMWARE, ruleMessage: 'ykc.rule.ftp' } }, { name: 'retrieveAt', kind: 'datetime', ykc: false }] }),
  op('getDiagnostics', { fields: [{ name: 'location', kind: 'text', required: true, maxLength: 512, rule: LOCATION, ruleMessage: 'chg.rule.url' }] }),
  op('sendLocalList', { fields: [{ name: 'updateType', kind: 'select', options: [...OCPP_VALUES.UpdateType], required: true }] }),
  op('getLocalListVersion', { fields: [] }),
  op('setChargingProfile', { fields: [
    { name: 'connectorId', kind: 'connector0', required: true },
    { name: 'purpose', kind: 'select', options: PURPOSES, required: true },
    { name: 'chargingProfileId', kind: 'number', rule: { type: 'integer', min: 1, max: 2_147_483_647 } },
    { name: 'stackLevel', kind: 'number', rule: { type: 'integer', min: 0, max: 99 } },
    { name: 'kind', kind: 'select', options: [...OCPP_VALUES.ChargingProfileKindType], initial: 'Absolute' },
    { name: 'recurrencyKind', kind: 'select', options: [...OCPP_VALUES.RecurrencyKindType] },
    { name: 'validFrom', kind: 'datetime' },
    { name: 'validTo', kind: 'datetime' },
    { name: 'duration', kind: 'number', rule: { type: 'integer', min: 1, max: 31_536_000 } },
    { name: 'unit', kind: 'select', options: [...OCPP_VALUES.ChargingRateUnitType], initial: 'W' },
    { name: 'minChargingRate', kind: 'number', rule: { type: 'number', min: 0 } },
    { name: 'periods', kind: 'periods', required: true, initial: '0:22000, 3600:11000' },
  ] }),
  op('clearChargingProfile', { fields: [
    { name: 'id', kind: 'number', rule: { type: 'integer', min: 1, max: 2_147_483_647 } },
    { name: 'connectorId', kind: 'connector0' },
    { name: 'purpose', kind: 'select', options: PURPOSES },
    { name: 'stackLevel', kind: 'number', rule: { type: 'integer', min: 0, max: 99 } },
  ] }),
  op('getCompositeSchedule', { fields: [{ name: 'connectorId', kind: 'connector0', required: true }, { name: 'durationSecs', kind: 'number', initial: '86400', rule: { type: 'integer', min: 60, max: 604_800 }, ruleMessage: 'chg.rule.duration' }] }),
  // The security extension (OCPP 1.6 security whitepaper).
  op('extendedTrigger', { fields: [{ name: 'requestedMessage', kind: 'select', options: [...OCPP_VALUES.MessageTriggerEnum], required: true }, { name: 'connectorId', kind: 'connector' }] }),
  op('getLog', { fields: [{ name: 'logType', kind: 'select', options: [...OCPP_VALUES.LogEnum], required: true }, { name: 'location', kind: 'text', required: true, maxLength: 512, rule: LOCATION, ruleMessage: 'chg.rule.url' }, { name: 'oldestAt', kind: 'datetime' }, { name: 'latestAt', kind: 'datetime' }] }),
  op('signedUpdateFirmware', { confirm: true, fields: [
    { name: 'location', kind: 'text', required: true, maxLength: 512, rule: LOCATION, ruleMessage: 'chg.rule.url' },
    { name: 'retrieveAt', kind: 'datetime' },
    { name: 'installAt', kind: 'datetime' },
    { name: 'signingCertificate', kind: 'pem', required: true, maxLength: 5500 },
    { name: 'signature', kind: 'text', required: true, maxLength: 800 },
  ] }),
  op('installCertificate', { fields: [{ name: 'certificateType', kind: 'select', options: [...OCPP_VALUES.CertificateUseEnum], optionsV201: [...OCPP_VALUES.CertificateUseEnumV201], required: true }, { name: 'certificate', kind: 'pem', required: true, maxLength: 5500 }] }),
  op('getInstalledCertificateIds', { fields: [{ name: 'certificateType', kind: 'select', options: [...OCPP_VALUES.CertificateUseEnum], optionsV201: [...OCPP_VALUES.CertificateUseEnumV201], required: true }] }),
  op('dataTransfer', { fields: [{ name: 'vendorId', kind: 'text', required: true, maxLength: 255 }, { name: 'messageId', kind: 'text', maxLength: 50 }, { name: 'data', kind: 'text' }] }),
  // The device model (OCPP 2.0.1): one variable a dialog; the route takes a list.
  op('getVariables', { list: 'variables', fields: VARIABLE }),
  op('setVariables', { list: 'variables', fields: [...VARIABLE, { name: 'value', kind: 'text', maxLength: 1000 }] }),
  op('setDisplayMessage', { fields: [
    { name: 'message', kind: 'text', required: true, maxLength: 512 },
    { name: 'priority', kind: 'select', options: ['NormalCycle', 'InFront', 'AlwaysFront'], initial: 'NormalCycle' },
    { name: 'startAt', kind: 'datetime' },
    { name: 'endAt', kind: 'datetime' },
  ] }),
  op('clearDisplayMessage', { fields: [{ name: 'messageId', kind: 'number', required: true, rule: { type: 'integer', min: 0 } }] }),
  op('getDisplayMessages', { fields: [
    { name: 'messageId', kind: 'number', rule: { type: 'integer', min: 0 } },
    { name: 'priority', kind: 'select', options: ['NormalCycle', 'InFront', 'AlwaysFront'] },
    { name: 'state', kind: 'select', options: ['Charging', 'Faulted', 'Idle', 'Unavailable'] },
  ] }),
  // Monitoring (OCPP 2.0.1): one monitor a dialog; the route takes a list.
  op('setVariableMonitoring', { list: 'monitors', fields: [
    { name: 'component', kind: 'text', required: true, maxLength: 50 },
    { name: 'variable', kind: 'text', required: true, maxLength: 50 },
    { name: 'evseId', kind: 'connector' },
    { name: 'type', kind: 'select', options: [...OCPP_VALUES.MonitorEnum], required: true, initial: 'UpperThreshold' },
    { name: 'value', kind: 'number', required: true },
    { name: 'severity', kind: 'number', initial: '5', rule: { type: 'integer', min: 0, max: 9 } },
  ] }),
  op('clearVariableMonitoring', { fields: [{ name: 'monitorIds', kind: 'number', required: true, asList: true, rule: { type: 'integer', min: 0 } }] }),
  op('getMonitoringReport', { fields: [
    { name: 'criteria', kind: 'select', options: [...OCPP_VALUES.MonitoringCriterionEnum], asList: true },
    { name: 'component', kind: 'text', maxLength: 50 },
    { name: 'evseId', kind: 'connector' },
    { name: 'variable', kind: 'text', maxLength: 50 },
  ] }),
  op('getChargingProfiles', { fields: [
    { name: 'evseId', kind: 'connector0' },
    { name: 'purpose', kind: 'select', options: [...OCPP_VALUES.ChargingProfilePurposeEnum] },
    { name: 'stackLevel', kind: 'number', rule: { type: 'integer', min: 0, max: 99 } },
    { name: 'chargingProfileIds', kind: 'number', asList: true, rule: { type: 'integer', min: 1, max: 2_147_483_647 } },
  ] }),
  op('customerInformation', { confirm: true, fields: [
    { name: 'action', kind: 'select', options: ['Report', 'Clear', 'ReportAndClear'], required: true, initial: 'Report' },
    { name: 'idTag', kind: 'card' },
    { name: 'idTokenType', kind: 'select', options: [...OCPP_VALUES.IdTokenEnum], initial: 'ISO14443' },
    { name: 'customerIdentifier', kind: 'text', maxLength: 64 },
  ] }),
  op('publishFirmware', { confirm: true, fields: [
    { name: 'location', kind: 'text', required: true, maxLength: 512, rule: LOCATION, ruleMessage: 'chg.rule.url' },
    { name: 'checksum', kind: 'text', required: true, maxLength: 32, rule: { pattern: /^[0-9a-f]{32}$/i }, ruleMessage: 'chg.rule.md5' },
    { name: 'retries', kind: 'number', rule: { type: 'integer', min: 0, max: 10 } },
  ] }),
  // A connection profile in a slot of a 2.0.1 station (VPN and APN: through the API only).
  // Security profiles 2 and 3 are TLS: the server refuses a ws:// address for them.
  op('setNetworkProfile', { confirm: true, fields: [
    { name: 'configurationSlot', kind: 'number', required: true, initial: '1', rule: { type: 'integer', min: 0, max: 2_147_483_647 } },
    { name: 'ocppCsmsUrl', group: 'connectionData', kind: 'text', required: true, maxLength: 512, rule: { pattern: /^wss?:\/\/[^\s/?#]+\S*$/i }, ruleMessage: 'chg.rule.wsUrl' },
    { name: 'securityProfile', group: 'connectionData', kind: 'select', options: ['1', '2', '3'], required: true, initial: '2' },
    { name: 'ocppInterface', group: 'connectionData', kind: 'select', options: [...OCPP_VALUES.OCPPInterfaceEnum], required: true, initial: 'Wired0' },
    { name: 'ocppVersion', group: 'connectionData', kind: 'select', options: [...OCPP_VALUES.OCPPVersionEnum], required: true, initial: 'OCPP20' },
    { name: 'ocppTransport', group: 'connectionData', kind: 'select', options: [...OCPP_VALUES.OCPPTransportEnum], required: true, initial: 'JSON' },
    { name: 'messageTimeout', group: 'connectionData', kind: 'number', required: true, initial: '30', rule: { type: 'integer', min: 1, max: 3600 } },
  ] }),
  op('getBaseReport', { fields: [{ name: 'reportBase', kind: 'select', options: ['FullInventory', 'ConfigurationInventory', 'SummaryInventory'], required: true, initial: 'FullInventory' }] }),
  // Only a YKC pile: its parking lock (0x62), and the balance of the card charging on a gun (0x42).
  op('parkingLock', { fields: [{ name: 'connectorId', kind: 'connector', required: true }, { name: 'action', kind: 'select', options: [...OCPP_VALUES.ParkingLockMove], required: true }] }),
  op('balanceUpdate', { fields: [{ name: 'connectorId', kind: 'connector', required: true }] }),
  // Whether the pile holds a card for starts while offline (0x48).
  op('offlineCardQuery', { fields: [{ name: 'idTags', kind: 'card', required: true, asList: true, rule: YKC_CARD, ruleMessage: 'ykc.rule.card' }] }),
];

type SchedulePeriod = { startPeriod: number; limit: number; numberPhases?: number };

/** "0:22000, 3600:11000:1" -> schedule periods (start s : limit [: phases]); null when unreadable. */
export function parsePeriods(s: string): SchedulePeriod[] | null {
  const parts = s.split(',').map((p) => p.trim()).filter(Boolean);
  const out = parts.map((p): SchedulePeriod | null => {
    const m = /^(\d+)\s*:\s*(-?\d+(?:\.\d+)?)(?:\s*:\s*(\d+))?$/.exec(p);
    if (!m) return null;
    return m[3] === undefined ? { startPeriod: Number(m[1]), limit: Number(m[2]) } : { startPeriod: Number(m[1]), limit: Number(m[2]), numberPhases: Number(m[3]) };
  });
  return out.length && out.every(Boolean) ? (out as SchedulePeriod[]) : null;
}

/** The request body of an operation from the typed values (strings); the first problem when a field cannot be read. */
export function bodyOf(op: Operation, values: Record<string, string>): { body: Record<string, unknown> } | { problem: string } {
  const body: Record<string, unknown> = {};
  for (const f of op.fields) {
    const v = (values[f.name] ?? f.initial ?? '').trim();
    if (!v) {
      if (f.required) return { problem: f.name };
      continue;
    }
    switch (f.kind) {
      case 'connector':
      case 'connector0':
      case 'wholePile':
      case 'connectorAny':
      case 'number': {
        const n = Number(v);
        if (!Number.isFinite(n)) return { problem: f.name };
        body[f.name] = n;
        break;
      }
      case 'datetime': {
        // Typed in the operator's time zone, whatever the browser's.
        const t = fromZoned(v);
        if (t === null) return { problem: f.name };
        body[f.name] = t;
        break;
      }
      case 'periods': {
        const p = parsePeriods(v);
        if (!p) return { problem: f.name };
        body[f.name] = p;
        break;
      }
      default:
        body[f.name] = v;
    }
    if (f.asList) body[f.name] = [body[f.name]];
    // A security profile is a number, though chosen from a list.
    if (f.name === 'securityProfile') body[f.name] = Number(v);
    if (f.group) {
      const inner = (body[f.group] ?? {}) as Record<string, unknown>;
      inner[f.name] = body[f.name];
      body[f.group] = inner;
      delete body[f.name];
    }
  }
  // A recurrence belongs to a Recurring profile only: a choice left from an
  // earlier kind is not sent.
  if ('recurrencyKind' in body && body.kind !== 'Recurring') delete body.recurrencyKind;
  return { body: op.list ? { [op.list]: [body] } : body };
}

/**
 * A composite schedule's periods as step points for a clock-time chart:
 * [unix ms, limit], each period's start counted from `startSecs` (unix
 * seconds), and the last limit held to the schedule's end.
 */
export function schedulePoints(schedule: Pick<Schema<'Ocpp16ChargingSchedule'>, 'duration' | 'chargingSchedulePeriod'> | undefined, startSecs: number): [number, number][] {
  const periods = schedule?.chargingSchedulePeriod ?? [];
  const at = (offset: number) => (startSecs + offset) * 1000;
  const pts: [number, number][] = periods.map((p) => [at(p.startPeriod), p.limit]);
  if (pts.length && schedule?.duration) pts.push([at(schedule.duration), pts[pts.length - 1][1]]);
  return pts;
}

/** The badge colour of a command's state, wherever a command is shown. */
export const COMMAND_COLOUR: Record<Command['status'], 'informative' | 'success' | 'danger' | 'warning' | 'subtle'> = {
  queued: 'subtle',
  sent: 'informative',
  answered: 'success',
  callError: 'danger',
  timeout: 'warning',
  offline: 'warning',
  connectionClosed: 'warning',
};
