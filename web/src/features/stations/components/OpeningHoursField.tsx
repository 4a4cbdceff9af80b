import { Badge, Button, Checkbox, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ALL_DAY, crossesMidnight, describeHours, joinPeriods, MAX_PERIODS, splitPeriods, type HoursProblem, type Period } from '../model/openingHours';

const useStyles = makeStyles({
  rows: { display: 'flex', flexDirection: 'column', rowGap: '6px' },
  row: { display: 'flex', alignItems: 'center', columnGap: '6px', flexWrap: 'wrap' },
  time: { width: '120px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The form's state of the hours: all day, or a list of periods. */
export interface HoursForm {
  allDay: boolean;
  periods: Period[];
}

export function hoursFormOf(text: string): HoursForm {
  if (text.trim() === ALL_DAY) return { allDay: true, periods: [{ start: '06:00', end: '23:00' }] };
  const periods = splitPeriods(text);
  return { allDay: false, periods: periods.length ? periods : [{ start: '', end: '' }] };
}

/** The text to save, or the message for the field. */
export function hoursText(form: HoursForm, t: TFunction): { text: string } | { error: string } {
  if (form.allDay) return { text: ALL_DAY };
  const r = joinPeriods(form.periods);
  return 'text' in r ? r : { error: hoursMessage(r.problem, t) };
}

export function hoursMessage(p: HoursProblem, t: TFunction): string {
  switch (p.kind) {
    case 'required':
      return t('ast.hours.required');
    case 'format':
      return t('ast.hours.format', { period: p.period });
    case 'same':
      return t('ast.hours.same', { period: p.period });
    case 'overlap':
      return t('ast.hours.overlap', { a: p.a, b: p.b });
    case 'tooMany':
      return t('ast.hours.tooMany', { n: MAX_PERIODS });
  }
}

/** How a station's hours read on the list and the detail. */
export function useHoursText() {
  const { t } = useTranslation();
  return (text: string) => describeHours(text, { allDay: t('ast.hours.allDay'), nextDay: (end) => t('ast.hours.nextDay', { end }) });
}

/** Opening hours in the station form: all day, or up to six periods, each of which may run past midnight. */
export function OpeningHoursField({ value, error, onChange }: { value: HoursForm; error?: string; onChange: (v: HoursForm) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const setPeriod = (i: number, p: Partial<Period>) => onChange({ ...value, periods: value.periods.map((x, j) => (j === i ? { ...x, ...p } : x)) });
  return (
    // The asterisk on the label only: a required Field would mark the all-day checkbox required too.
    <Field label={{ children: t('ast.station.openingHours'), required: true }} hint={t('ast.station.openingHoursHint')} validationMessage={error} data-testid="hours-field">
      <div className={styles.rows}>
        <Checkbox label={t('ast.hours.allDay')} checked={value.allDay} onChange={(_, d) => onChange({ ...value, allDay: !!d.checked })} data-testid="hours-all-day" />
        {!value.allDay &&
          value.periods.map((p, i) => (
            <div key={i} className={styles.row} data-testid="hours-period">
              <Input
                className={styles.time}
                type="time"
                aria-label={t('ast.hours.start')}
                value={p.start}
                onChange={(_, d) => setPeriod(i, { start: d.value })}
                data-testid="hours-start"
              />
              <span>–</span>
              <Input className={styles.time} type="time" aria-label={t('ast.hours.end')} value={p.end} onChange={(_, d) => setPeriod(i, { end: d.value })} data-testid="hours-end" />
              {crossesMidnight(p) && (
                <Badge appearance="tint" color="informative" data-testid="hours-next-day">
                  {t('ast.hours.nextDayBadge')}
                </Badge>
              )}
              {value.periods.length > 1 && (
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<DeleteRegular />}
                  aria-label={t('ast.hours.remove')}
                  onClick={() => onChange({ ...value, periods: value.periods.filter((_, j) => j !== i) })}
                />
              )}
            </div>
          ))}
        {!value.allDay && value.periods.length < MAX_PERIODS && (
          <div>
            <Button size="small" appearance="subtle" icon={<AddRegular />} onClick={() => onChange({ ...value, periods: [...value.periods, { start: '', end: '' }] })} data-testid="hours-add">
              {t('ast.hours.add')}
            </Button>
          </div>
        )}
      </div>
    </Field>
  );
}
