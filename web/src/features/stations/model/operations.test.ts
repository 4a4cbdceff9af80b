import { describe, expect, it } from 'vitest';
import { operationFieldOf } from '../components/OperationDialog';
import { CHARGER_OPERATIONS } from '@/api/chargerOperations';
import { bodyOf, forProtocol, OPERATIONS, optionsOf, parsePeriods, schedulePoints, spokenBy } from './operations';

const op = (key: string) => OPERATIONS.find((o) => o.key === key)!;

describe('remote operation forms', () => {
  it('are offered to the piles whose OCPP version takes them, the device model as a list of one', () => {
    const offered = (version: string) => OPERATIONS.filter((o) => spokenBy(o, version)).map((o) => o.key);
    expect(offered('2.0.1')).toEqual(expect.arrayContaining(['remoteStart', 'availability', 'trigger', 'dataTransfer', 'getVariables', 'setVariables', 'getBaseReport']));
    expect(offered('2.0.1')).not.toContain('changeConfiguration');
    expect(offered('1.6')).not.toContain('setVariables');
    expect(offered('1.6')).toContain('changeConfiguration');
    expect(bodyOf(op('setVariables'), { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '120', evseId: '' })).toEqual({ body: { variables: [{ component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: '120' }] } });
    expect(operationFieldOf(op('setVariables'), 'variables[0].component')).toBe('component');
    expect(operationFieldOf(op('setVariables'), 'variables')).toBeUndefined();
  });

  it('offer a YKC pile only what YKC has: a remote start on a named gun, for a physical card, without a power limit', () => {
    // What the server has a YKC command for (remote stop and reset have their own buttons).
    const withYkc = Object.entries(CHARGER_OPERATIONS).filter(([, o]) => o.ykc !== null).map(([k]) => k);
    for (const version of ['ykc1.5', 'ykc1.6']) {
      const offered = OPERATIONS.filter((o) => spokenBy(o, version)).map((o) => o.key);
      expect(offered).toContain('remoteStart');
      expect(offered.every((k) => withYkc.includes(k))).toBe(true);
      expect(offered).not.toContain('changeConfiguration');
      expect(offered).not.toContain('setVariables');
      expect(offered).not.toContain('installCertificate');
    }
    const start = forProtocol(op('remoteStart'), 'ykc1.6');
    expect(start.fields.map((f) => [f.name, f.kind, !!f.required])).toEqual([
      ['connectorId', 'connector', true],
      ['idTag', 'card', true],
    ]);
    expect(start.fields[1].ruleMessage).toBe('ykc.rule.card');
    expect(bodyOf(start, { idTag: 'D14B0A54' })).toEqual({ problem: 'connectorId' });
    expect(bodyOf(start, { connectorId: '1', idTag: 'D14B0A54', limitW: '7000' })).toEqual({ body: { connectorId: 1, idTag: 'D14B0A54' } });
    // An OCPP pile's form is the declared one.
    expect(forProtocol(op('remoteStart'), '1.6')).toBe(op('remoteStart'));
    expect(forProtocol(op('remoteStart'), undefined).fields.map((f) => f.name)).toEqual(['connectorId', 'idTag', 'limitW']);
    // Its service state is the whole pile's; its firmware comes at once over FTP.
    const availability = forProtocol(op('availability'), 'ykc1.6');
    expect(availability.fields[0]).toMatchObject({ name: 'connectorId', kind: 'wholePile' });
    expect(bodyOf(availability, { type: 'Inoperative' })).toEqual({ body: { connectorId: 0, type: 'Inoperative' } });
    const firmware = forProtocol(op('updateFirmware'), 'ykc1.5');
    expect(firmware.fields.map((f) => f.name)).toEqual(['location']);
    expect(firmware.fields[0].ruleMessage).toBe('ykc.rule.ftp');
    // A trigger asks a gun for its real-time data; an OCPP charger keeps every message.
    const trigger = forProtocol(op('trigger'), 'ykc1.5');
    expect(optionsOf(trigger.fields[0], 'ykc1.5')).toEqual(['MeterValues', 'StatusNotification']);
    expect(trigger.fields[1]).toMatchObject({ name: 'connectorId', required: true });
    expect(bodyOf(trigger, { connectorId: '2' })).toEqual({ body: { requestedMessage: 'MeterValues', connectorId: 2 } });
    expect(optionsOf(forProtocol(op('trigger'), '1.6').fields[0], '1.6')).toContain('Heartbeat');
    // Which cards the pile holds offline: one card, sent as the route's list.
    expect(spokenBy(op('offlineCardQuery'), '1.6') || spokenBy(op('offlineCardQuery'), '2.0.1')).toBe(false);
    expect(bodyOf(forProtocol(op('offlineCardQuery'), 'ykc1.6'), { idTags: 'D14B0A54' })).toEqual({ body: { idTags: ['D14B0A54'] } });
  });

  it('offer a 2.0.1 station the EVSE to reset and the connector type to reserve, no other pile', () => {
    // The EVSE form is 2.0.1's only (every pile resets as a whole from the panel's menu).
    expect(spokenBy(op('reset'), '2.0.1')).toBe(true);
    expect(spokenBy(op('reset'), '1.6') || spokenBy(op('reset'), 'ykc1.6')).toBe(false);
    const reset = forProtocol(op('reset'), '2.0.1');
    expect(reset.fields.map((f) => f.name)).toEqual(['type', 'evseId']);
    expect(bodyOf(reset, { evseId: '2', type: 'Hard' })).toEqual({ body: { type: 'Hard', evseId: 2 } });
    expect(bodyOf(reset, {})).toEqual({ body: { type: 'Soft' } });
    // A reservation by connector type goes to a 2.0.1 station; a 1.6 or YKC form has no such field.
    const types = forProtocol(op('reserveNow'), '2.0.1').fields.find((f) => f.name === 'connectorType')!;
    expect(optionsOf(types, '2.0.1')).toEqual(expect.arrayContaining(['cType2', 'cCCS2', 'cCCS1']));
    for (const version of ['1.6', 'ykc1.6', undefined]) {
      expect(forProtocol(op('reserveNow'), version).fields.map((f) => f.name)).toEqual(['connectorId', 'idTag', 'expiresAt']);
    }
    expect(bodyOf(forProtocol(op('reserveNow'), '2.0.1'), { connectorId: '0', connectorType: 'cCCS2', idTag: 'DEMO0001', expiresAt: '2030-01-01T00:00' })).toEqual({
      body: { connectorId: 0, connectorType: 'cCCS2', idTag: 'DEMO0001', expiresAt: 1893427200 },
    });
  });

  it('send a network profile to a 2.0.1 station only, its connection data as one object', () => {
    expect(spokenBy(op('setNetworkProfile'), '2.0.1')).toBe(true);
    expect(spokenBy(op('setNetworkProfile'), '1.6') || spokenBy(op('setNetworkProfile'), 'ykc1.6')).toBe(false);
    expect(bodyOf(op('setNetworkProfile'), { configurationSlot: '2', ocppCsmsUrl: ' wss://csms.example.com/ocpp ', securityProfile: '3', ocppInterface: 'Wireless0' })).toEqual({
      body: { configurationSlot: 2, connectionData: { ocppCsmsUrl: 'wss://csms.example.com/ocpp', securityProfile: 3, ocppInterface: 'Wireless0', ocppVersion: 'OCPP20', ocppTransport: 'JSON', messageTimeout: 30 } },
    });
    expect(bodyOf(op('setNetworkProfile'), { configurationSlot: '1' })).toEqual({ problem: 'ocppCsmsUrl' });
    // The server names a field of the connection data by its path; the form shows it beside that field.
    expect(operationFieldOf(op('setNetworkProfile'), 'connectionData.ocppCsmsUrl')).toBe('ocppCsmsUrl');
    expect(operationFieldOf(op('setNetworkProfile'), 'configurationSlot')).toBe('configurationSlot');
    expect(operationFieldOf(op('setNetworkProfile'), 'connectionData.vpn.user')).toBeUndefined();
  });

  it('offer a 2.0.1 station the roots only 2.0.1 holds, a 1.6 charger only its own', () => {
    const kinds = (key: string, version: string) => optionsOf(op(key).fields.find((f) => f.name === 'certificateType')!, version);
    for (const key of ['installCertificate', 'getInstalledCertificateIds']) {
      expect(kinds(key, '1.6')).toEqual(['CentralSystemRootCertificate', 'ManufacturerRootCertificate']);
      expect(kinds(key, '2.0.1')).toEqual(['CentralSystemRootCertificate', 'ManufacturerRootCertificate', 'V2GRootCertificate', 'MORootCertificate']);
      expect(spokenBy(op(key), '2.0.1') && spokenBy(op(key), '1.6')).toBe(true);
    }
    // A select without a 2.0.1 list offers both versions the same.
    const trigger = op('trigger').fields[0];
    expect(optionsOf(trigger, '2.0.1')).toEqual(optionsOf(trigger, '1.6'));
  });

  it('build their request bodies from typed values', () => {
    expect(bodyOf(op('remoteStart'), { connectorId: '2', idTag: 'DEMO0001', limitW: '' })).toEqual({ body: { connectorId: 2, idTag: 'DEMO0001' } });
    // No connector chosen: the charger chooses (no connectorId sent).
    expect(bodyOf(op('remoteStart'), { connectorId: '', idTag: 'DEMO0001' })).toEqual({ body: { idTag: 'DEMO0001' } });
    expect(bodyOf(op('setChargingProfile'), { connectorId: '0', purpose: 'ChargePointMaxProfile' })).toEqual({
      body: { connectorId: 0, purpose: 'ChargePointMaxProfile', kind: 'Absolute', unit: 'W', periods: [{ startPeriod: 0, limit: 22000 }, { startPeriod: 3600, limit: 11000 }] },
    });
    // Every smart-charging field the operator fills in is sent; recurrence only with a Recurring kind.
    expect(
      bodyOf(op('setChargingProfile'), { connectorId: '1', purpose: 'TxProfile', chargingProfileId: '7', stackLevel: '2', kind: 'Recurring', recurrencyKind: 'Daily', validFrom: '2030-01-01T00:00', validTo: '2030-01-02T00:00', duration: '86400', unit: 'A', minChargingRate: '6.1', periods: '0:16:3, 3600:7.5:1' }),
    ).toEqual({
      body: { connectorId: 1, purpose: 'TxProfile', chargingProfileId: 7, stackLevel: 2, kind: 'Recurring', recurrencyKind: 'Daily', validFrom: 1893427200, validTo: 1893513600, duration: 86400, unit: 'A', minChargingRate: 6.1, periods: [{ startPeriod: 0, limit: 16, numberPhases: 3 }, { startPeriod: 3600, limit: 7.5, numberPhases: 1 }] },
    });
    expect(bodyOf(op('setChargingProfile'), { connectorId: '0', purpose: 'TxDefaultProfile', kind: 'Relative', recurrencyKind: 'Weekly', periods: '0:1' })).toEqual({
      body: { connectorId: 0, purpose: 'TxDefaultProfile', kind: 'Relative', unit: 'W', periods: [{ startPeriod: 0, limit: 1 }] },
    });
    // Clearing by any of the four criteria, or none (every profile).
    expect(bodyOf(op('clearChargingProfile'), {})).toEqual({ body: {} });
    expect(bodyOf(op('clearChargingProfile'), { id: '11' })).toEqual({ body: { id: 11 } });
    expect(bodyOf(op('clearChargingProfile'), { connectorId: '2', purpose: 'TxDefaultProfile', stackLevel: '3' })).toEqual({ body: { connectorId: 2, purpose: 'TxDefaultProfile', stackLevel: 3 } });
    // A datetime-local value is the operator's wall clock (Asia/Shanghai here), not the browser's.
    expect(bodyOf(op('reserveNow'), { connectorId: '1', idTag: 'A', expiresAt: '2030-01-01T18:00' })).toEqual({ body: { connectorId: 1, idTag: 'A', expiresAt: 1893492000 } });
    // The charger key: generated by the server unless one is typed.
    expect(bodyOf(op('rotateAuthorizationKey'), {})).toEqual({ body: {} });
    expect(bodyOf(op('rotateAuthorizationKey'), { newKey: ' Correct-Horse-Battery-9 ' })).toEqual({ body: { newKey: 'Correct-Horse-Battery-9' } });
    expect(op('rotateAuthorizationKey')).toMatchObject({ admin: true, fields: [{ kind: 'secret' }] });
  });

  it('send a list where the route takes one: monitors as a list of one, ids and kinds as lists of one value', () => {
    expect(spokenBy(op('setVariableMonitoring'), '1.6')).toBe(false);
    expect(bodyOf(op('setVariableMonitoring'), { component: 'EVSE', variable: 'Power', evseId: '1', type: 'UpperThreshold', value: '22000' })).toEqual({
      body: { monitors: [{ component: 'EVSE', variable: 'Power', evseId: 1, type: 'UpperThreshold', value: 22000, severity: 5 }] },
    });
    expect(bodyOf(op('clearVariableMonitoring'), { monitorIds: '7' })).toEqual({ body: { monitorIds: [7] } });
    expect(bodyOf(op('getMonitoringReport'), { criteria: 'DeltaMonitoring' })).toEqual({ body: { criteria: ['DeltaMonitoring'] } });
    expect(bodyOf(op('getMonitoringReport'), {})).toEqual({ body: {} });
    expect(bodyOf(op('getChargingProfiles'), { evseId: '0', chargingProfileIds: '12' })).toEqual({ body: { evseId: 0, chargingProfileIds: [12] } });
    expect(bodyOf(op('customerInformation'), { idTag: 'CARD01' })).toEqual({ body: { action: 'Report', idTag: 'CARD01', idTokenType: 'ISO14443' } });
  });

  it('name the field they cannot read', () => {
    expect(bodyOf(op('remoteStart'), { connectorId: '1' })).toEqual({ problem: 'idTag' });
    expect(bodyOf(op('setChargingProfile'), { connectorId: '0', purpose: 'TxDefaultProfile', periods: '0-1' })).toEqual({ problem: 'periods' });
    expect(parsePeriods('0:7000,900:3.5')).toEqual([{ startPeriod: 0, limit: 7000 }, { startPeriod: 900, limit: 3.5 }]);
    expect(parsePeriods('0:16:3, 60:8:1')).toEqual([{ startPeriod: 0, limit: 16, numberPhases: 3 }, { startPeriod: 60, limit: 8, numberPhases: 1 }]);
    expect(parsePeriods('0:16:x')).toBeNull();
  });

  it('turn a composite schedule into step points in clock time from its start', () => {
    const start = 1_735_700_000;
    expect(schedulePoints({ duration: 7200, chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }, { startPeriod: 3600, limit: 7000 }] }, start)).toEqual([
      [start * 1000, 11000],
      [(start + 3600) * 1000, 7000],
      [(start + 7200) * 1000, 7000],
    ]);
  });
});
