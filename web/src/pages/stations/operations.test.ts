import { describe, expect, it } from 'vitest';
import { bodyOf, OPERATIONS, parsePeriods, schedulePoints } from './operations';

const op = (key: string) => OPERATIONS.find((o) => o.key === key)!;

describe('remote operation forms', () => {
  it('build their request bodies from typed values', () => {
    expect(bodyOf(op('remoteStart'), { connectorId: '2', idTag: 'DEMO0001', limitW: '' })).toEqual({ body: { connectorId: 2, idTag: 'DEMO0001' } });
    expect(bodyOf(op('setChargingProfile'), { connectorId: '0', purpose: 'ChargePointMaxProfile' })).toEqual({
      body: { connectorId: 0, purpose: 'ChargePointMaxProfile', unit: 'W', periods: [{ startPeriod: 0, limit: 22000 }, { startPeriod: 3600, limit: 11000 }] },
    });
    expect(bodyOf(op('reserveNow'), { connectorId: '1', idTag: 'A', expiresAt: '2030-01-01T10:00:00Z' })).toEqual({ body: { connectorId: 1, idTag: 'A', expiresAt: 1893492000 } });
  });

  it('name the field they cannot read', () => {
    expect(bodyOf(op('remoteStart'), { connectorId: '1' })).toEqual({ problem: 'idTag' });
    expect(bodyOf(op('setChargingProfile'), { connectorId: '0', purpose: 'TxDefaultProfile', periods: '0-1' })).toEqual({ problem: 'periods' });
    expect(parsePeriods('0:7000,900:3.5')).toEqual([{ startPeriod: 0, limit: 7000 }, { startPeriod: 900, limit: 3.5 }]);
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
