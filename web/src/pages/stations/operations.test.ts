import { describe, expect, it } from 'vitest';
import { bodyOf, OPERATIONS, parsePeriods, schedulePoints } from './operations';

const op = (key: string) => OPERATIONS.find((o) => o.key === key)!;

describe('remote operation forms', () => {
  it('build their request bodies from typed values', () => {
    expect(bodyOf(op('remoteStart'), { connectorId: '2', idTag: 'DEMO0001', limitW: '' })).toEqual({ body: { connectorId: 2, idTag: 'DEMO0001' } });
    expect(bodyOf(op('setChargingProfile'), { connectorId: '0', purpose: 'ChargePointMaxProfile' })).toEqual({
      body: { connectorId: 0, purpose: 'ChargePointMaxProfile', unit: 'W', periods: [{ startPeriod: 0, limit: 22000 }, { startPeriod: 3600, limit: 11000 }] },
    });
    // A datetime-local value is the operator's wall clock (Asia/Shanghai here), not the browser's.
    expect(bodyOf(op('reserveNow'), { connectorId: '1', idTag: 'A', expiresAt: '2030-01-01T18:00' })).toEqual({ body: { connectorId: 1, idTag: 'A', expiresAt: 1893492000 } });
  });

  it('name the field they cannot read', () => {
    expect(bodyOf(op('remoteStart'), { connectorId: '1' })).toEqual({ problem: 'idTag' });
    expect(bodyOf(op('setChargingProfile'), { connectorId: '0', purpose: 'TxDefaultProfile', periods: '0-1' })).toEqual({ problem: 'periods' });
    expect(parsePeriods('0:7000,900:3.5')).toEqual([{ startPeriod: 0, limit: 7000 }, { startPeriod: 900, limit: 3.5 }]);
  });

  it('turn a composite schedule into step points', () => {
    expect(schedulePoints({ duration: 7200, chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }, { startPeriod: 3600, limit: 7000 }] })).toEqual([[0, 11000], [3600, 7000], [7200, 7000]]);
  });
});
