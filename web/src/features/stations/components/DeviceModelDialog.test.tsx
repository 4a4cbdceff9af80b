import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { render, screen, within } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '@/i18n';
import { DeviceModelDialog } from './DeviceModelDialog';

const SLOW = { timeout: 5000 };
const monitor = (id: number, over: Record<string, unknown>) => ({
  id,
  component: 'EVSE',
  componentInstance: null,
  evseId: 1,
  connectorId: null,
  variable: 'Power',
  variableInstance: null,
  type: 'UpperThreshold',
  value: 22000,
  severity: 3,
  transaction: false,
  source: 'set',
  knownAt: 1_767_225_600,
  ...over,
});

let monitors: unknown[] = [];
let chargingProfiles: unknown[] = [];
let events: unknown[] = [];
beforeEach(() => {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    const data = { pileId: 'p1', pileCode: 'ST201', ocppVersion: '2.0.1', list: [], total: 0, monitors, chargingProfiles, events };
    return new Response(JSON.stringify({ code: 200, msg: 'success', data }), { status: 200 });
  });
});
afterEach(() => vi.restoreAllMocks());

const open = () =>
  render(
    <FluentProvider theme={webLightTheme}>
      <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false }}>
        <DeviceModelDialog pileId="p1" code="ST201" onClose={() => {}} />
      </SWRConfig>
    </FluentProvider>,
  );

describe('DeviceModelDialog', () => {
  it("lists the station's monitors under its variables: what each watches, its kind, value and where it came from", async () => {
    monitors = [monitor(40, {}), monitor(43, { component: 'ChargingStation', evseId: null, variable: 'Temperature', type: 'Periodic', value: 60, severity: 7, transaction: true, source: 'reported' })];
    open();
    const rows = await screen.findAllByTestId('device-model-monitor', {}, SLOW);
    expect(rows).toHaveLength(2);
    const [set, reported] = rows.map((r) => within(r));
    expect(set.getByText('EVSE.Power')).toBeTruthy();
    expect(set.getByText('22000')).toBeTruthy();
    expect(set.getByText('后台设置')).toBeTruthy();
    expect(set.getByText('高于上限').closest('td')?.getAttribute('title')).toBe('UpperThreshold');
    expect(reported.getByText('ChargingStation.Temperature')).toBeTruthy();
    expect(reported.getByText('60 秒')).toBeTruthy();
    expect(reported.getByText('充电桩报告')).toBeTruthy();
    expect(reported.getByText(/仅充电时/)).toBeTruthy();
  });

  it('says so when no monitor is known', async () => {
    monitors = [];
    open();
    expect(await screen.findByTestId('device-model-monitors-none', {}, SLOW)).toBeTruthy();
    expect(await screen.findByTestId('device-model-profiles-none', {}, SLOW)).toBeTruthy();
    expect(await screen.findByTestId('device-model-events-none', {}, SLOW)).toBeTruthy();
  });

  it('lists the charging profiles the station reported: where, purpose, the limit now and who set it', async () => {
    const profile = (evseId: number, id: number, purpose: string, limit: number, unit: string) => ({
      id, evseId, stackLevel: 1, purpose, kind: 'Absolute', recurrencyKind: null, validFrom: null, validTo: null, transactionId: null, limitSource: 'CSO',
      schedules: [{ id: 1, chargingRateUnit: unit, chargingSchedulePeriod: [{ startPeriod: 0, limit }] }], requestId: 9, reportedAt: 1_767_225_600,
    });
    chargingProfiles = [profile(0, 9000, 'ChargingStationMaxProfile', 22000, 'W'), profile(2, 5, 'TxDefaultProfile', 16, 'A')];
    open();
    const rows = await screen.findAllByTestId('device-model-profile', {}, SLOW);
    expect(rows).toHaveLength(2);
    const [station, evse] = rows.map((r) => within(r));
    expect(station.getByText('9000')).toBeTruthy();
    expect(station.getByText('22000 W')).toBeTruthy();
    expect(station.getByText('整站功率上限').closest('td')?.getAttribute('title')).toBe('ChargingStationMaxProfile');
    expect(evse.getByText('16 A')).toBeTruthy();
    expect(evse.getByText('新充电默认限制')).toBeTruthy();
    chargingProfiles = [];
  });

  it('lists the events the station notified: when, what, its value, how it was triggered, by whom, and whether it is back to normal', async () => {
    const event = (eventId: number, over: Record<string, unknown>) => ({
      eventId, at: 1_767_225_600, timeReplaced: false, receivedAt: 1_767_225_601, trigger: 'Alerting', notificationType: 'CustomMonitor',
      component: 'EVSE', componentInstance: null, evseId: 1, connectorId: null, variable: 'Power', variableInstance: null,
      actualValue: '23100', cleared: false, cause: null, techCode: null, techInfo: null, transactionId: null, variableMonitoringId: 40, ...over,
    });
    events = [
      event(2, { trigger: 'Delta', notificationType: 'HardWiredNotification', component: 'ChargingStation', evseId: null, variable: 'Problem', actualValue: 'false', cleared: true, variableMonitoringId: null, techCode: 'E12', timeReplaced: true }),
      event(1, {}),
    ];
    open();
    const rows = await screen.findAllByTestId('device-model-event', {}, SLOW);
    expect(rows).toHaveLength(2);
    const [notified, tripped] = rows.map((r) => within(r));
    expect(notified.getByText('ChargingStation.Problem')).toBeTruthy();
    expect(notified.getByText('固有通知').closest('td')?.getAttribute('title')).toBe('HardWiredNotification');
    expect(notified.getByText('数值变化')).toBeTruthy();
    expect(notified.getByText('已恢复')).toBeTruthy();
    expect(notified.getByText(/E12/)).toBeTruthy();
    expect(notified.getByText(/按到达时间/)).toBeTruthy();
    expect(tripped.getByText('EVSE.Power')).toBeTruthy();
    expect(tripped.getByTestId('device-model-event-value').textContent).toBe('23100');
    expect(tripped.getByText('监视器 40')).toBeTruthy();
    expect(tripped.getByText('越限告警')).toBeTruthy();
    expect(tripped.getByText('发生')).toBeTruthy();
    events = [];
  });
});
