import { describe, expect, it } from 'vitest';
import { eventSummary } from './eventSummary';

describe("a station's events in a line", () => {
  it('names each component, EVSE, variable and value, a cleared one marked', () => {
    const request = {
      generatedAt: '2026-12-02T10:00:00Z',
      eventData: [
        { eventId: 1, component: { name: 'ChargingStation' }, variable: { name: 'Temperature' }, actualValue: '71' },
        { eventId: 2, component: { name: 'EVSE', evse: { id: 2 } }, variable: { name: 'Power' }, actualValue: '22000', cleared: true },
      ],
    };
    expect(eventSummary(request)).toBe('ChargingStation.Temperature = 71; EVSE#2.Power = 22000 ✓');
  });

  it('is empty for a body it cannot read', () => {
    expect(eventSummary(null)).toBe('');
    expect(eventSummary('not json')).toBe('');
  });
});
