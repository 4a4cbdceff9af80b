import { Button, Input, makeStyles, Popover, PopoverSurface, PopoverTrigger, tokens } from '@fluentui/react-components';
import { CalendarRegular } from '@fluentui/react-icons/svg/calendar';
import { ClockRegular } from '@fluentui/react-icons/svg/clock';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Calendar } from './Calendar';
import { formatDate, formatTime, pad, parseDate, parseTime } from './dateUtils';

const useStyles = makeStyles({
  columns: { display: 'flex', columnGap: '4px' },
  column: { height: '216px', overflowY: 'auto', width: '56px', display: 'flex', flexDirection: 'column', scrollbarWidth: 'thin' },
  cell: {
    border: 'none',
    background: 'transparent',
    padding: '6px 0',
    cursor: 'pointer',
    borderRadius: tokens.borderRadiusSmall,
    color: tokens.colorNeutralForeground1,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  on: { backgroundColor: tokens.colorBrandBackground2, color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  foot: { display: 'flex', justifyContent: 'flex-end', columnGap: '6px', marginTop: '8px' },
  both: { display: 'flex', columnGap: '12px', alignItems: 'flex-start' },
});

function TimeColumns({ value, onChange, step = 1 }: { value: [number, number, number]; onChange: (v: [number, number, number]) => void; step?: number }) {
  const styles = useStyles();
  const cols: [number, number][] = [
    [24, 1],
    [60, step],
    [60, step],
  ];
  return (
    <div className={styles.columns}>
      {cols.map(([n, s], c) => (
        <div key={c} className={styles.column} role="listbox">
          {Array.from({ length: Math.ceil(n / s) }, (_, i) => i * s).map((v) => (
            <button
              type="button"
              key={v}
              role="option"
              aria-selected={value[c] === v}
              className={`${styles.cell} ${value[c] === v ? styles.on : ''}`}
              onClick={() => {
                const next = [...value] as [number, number, number];
                next[c] = v;
                onChange(next);
              }}
            >
              {pad(v)}
            </button>
          ))}
        </div>
      ))}
    </div>
  );
}

export interface PickerProps {
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  disabled?: boolean;
  /** Minute/second step of the time columns. */
  step?: number;
  isDateDisabled?: (d: Date) => boolean;
}

/** Time picker: typed 'HH:mm:ss' or chosen from hour/minute/second columns (own component). */
export function TimePicker({ value, onChange, placeholder, disabled, step }: PickerProps) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<[number, number, number]>([0, 0, 0]);
  const [text, setText] = useState<string | null>(null);
  return (
    <Popover open={open} onOpenChange={(_, d) => (setOpen(d.open), d.open && setDraft(parseTime(value) ?? [new Date().getHours(), 0, 0]))} positioning="below-start">
      <PopoverTrigger disableButtonEnhancement>
        <Input
          disabled={disabled}
          contentAfter={<ClockRegular />}
          placeholder={placeholder ?? t('dm.picker.time')}
          value={text ?? value}
          onChange={(_, d) => setText(d.value)}
          onBlur={() => {
            if (text !== null) {
              const p = parseTime(text);
              if (p) onChange(formatTime(...p));
              setText(null);
            }
          }}
        />
      </PopoverTrigger>
      <PopoverSurface>
        <TimeColumns value={draft} onChange={setDraft} step={step} />
        <div className={styles.foot}>
          <Button size="small" onClick={() => (onChange(''), setOpen(false))}>
            {t('dm.picker.clear')}
          </Button>
          <Button size="small" appearance="primary" onClick={() => (onChange(formatTime(...draft)), setOpen(false))}>
            {t('common.confirm')}
          </Button>
        </div>
      </PopoverSurface>
    </Popover>
  );
}

/** Date picker: typed 'YYYY-MM-DD' or chosen on a month calendar (own component). */
export function DatePicker({ value, onChange, placeholder, disabled, isDateDisabled }: PickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState<string | null>(null);
  return (
    <Popover open={open} onOpenChange={(_, d) => setOpen(d.open)} positioning="below-start">
      <PopoverTrigger disableButtonEnhancement>
        <Input
          disabled={disabled}
          contentAfter={<CalendarRegular />}
          placeholder={placeholder ?? t('dm.picker.date')}
          value={text ?? value}
          onChange={(_, d) => setText(d.value)}
          onBlur={() => {
            if (text !== null) {
              const p = parseDate(text);
              if (p && !isDateDisabled?.(p)) onChange(formatDate(p));
              else if (!text.trim()) onChange('');
              setText(null);
            }
          }}
        />
      </PopoverTrigger>
      <PopoverSurface>
        <Calendar value={parseDate(value)} isDisabled={isDateDisabled} onSelect={(d) => (onChange(formatDate(d)), setOpen(false))} />
      </PopoverSurface>
    </Popover>
  );
}

/** Date-time picker: calendar and time columns side by side; value 'YYYY-MM-DD HH:mm:ss'. */
export function DateTimePicker({ value, onChange, placeholder, disabled }: PickerProps) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const [date, setDate] = useState<Date | null>(null);
  const [time, setTime] = useState<[number, number, number]>([0, 0, 0]);
  const init = () => {
    const [d, tm] = value.split(' ');
    setDate(parseDate(d ?? '') ?? new Date());
    setTime(parseTime(tm ?? '') ?? [0, 0, 0]);
  };
  return (
    <Popover open={open} onOpenChange={(_, d) => (setOpen(d.open), d.open && init())} positioning="below-start">
      <PopoverTrigger disableButtonEnhancement>
        <Input readOnly disabled={disabled} contentAfter={<CalendarRegular />} placeholder={placeholder ?? t('dm.picker.dateTime')} value={value} style={{ minWidth: '220px' }} />
      </PopoverTrigger>
      <PopoverSurface>
        <div className={styles.both}>
          <Calendar value={date} onSelect={setDate} />
          <TimeColumns value={time} onChange={setTime} />
        </div>
        <div className={styles.foot}>
          <Button size="small" onClick={() => (onChange(''), setOpen(false))}>
            {t('dm.picker.clear')}
          </Button>
          <Button size="small" onClick={() => (setDate(new Date()), setTime([new Date().getHours(), new Date().getMinutes(), new Date().getSeconds()]))}>
            {t('dm.picker.now')}
          </Button>
          <Button size="small" appearance="primary" disabled={!date} onClick={() => date && (onChange(`${formatDate(date)} ${formatTime(...time)}`), setOpen(false))}>
            {t('common.confirm')}
          </Button>
        </div>
      </PopoverSurface>
    </Popover>
  );
}
