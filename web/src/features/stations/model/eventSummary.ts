/** What a 2.0.1 station's NotifyEvent says, for the message log's row. */
type EventData = { component?: { name?: string; evse?: { id?: number } }; variable?: { name?: string }; actualValue?: string; cleared?: boolean };
/** A NotifyEvent's events in a line: `Component[#EVSE].Variable = value` each (a cleared one marked ✓). */
export const eventSummary = (request: unknown): string =>
  (((request as { eventData?: EventData[] } | null)?.eventData ?? []) as EventData[])
    .map((d) => `${d.component?.name ?? '?'}${d.component?.evse?.id ? `#${d.component.evse.id}` : ''}.${d.variable?.name ?? '?'} = ${d.actualValue ?? ''}${d.cleared ? ' ✓' : ''}`)
    .join('; ');
