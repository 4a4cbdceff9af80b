import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { ChevronLeftRegular } from '@fluentui/react-icons/svg/chevron-left';
import { ChevronRightRegular } from '@fluentui/react-icons/svg/chevron-right';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, monthGrid, sameDay } from './dateUtils';

const useStyles = makeStyles({
  root: { width: '280px' },
  head: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', marginBottom: '6px', fontWeight: tokens.fontWeightSemibold },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(7, 1fr)', gap: '2px', textAlign: 'center' },
  wd: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground3, padding: '4px 0' },
  day: {
    border: 'none',
    background: 'transparent',
    height: '32px',
    borderRadius: tokens.borderRadiusMedium,
    cursor: 'pointer',
    color: tokens.colorNeutralForeground1,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':disabled': { color: tokens.colorNeutralForegroundDisabled, cursor: 'not-allowed' },
  },
  other: { color: tokens.colorNeutralForeground4 },
  today: { outline: `1px solid ${tokens.colorBrandStroke1}` },
  selected: { backgroundColor: tokens.colorBrandBackground, color: tokens.colorNeutralForegroundOnBrand, ':hover': { backgroundColor: tokens.colorBrandBackgroundHover } },
});

/** A small month calendar (own component: Fluent v9 core has no date picker). */
export function Calendar({ value, onSelect, isDisabled }: { value: Date | null; onSelect: (d: Date) => void; isDisabled?: (d: Date) => boolean }) {
  const { i18n, t } = useTranslation();
  const styles = useStyles();
  const [view, setView] = useState(() => {
    const base = value ?? new Date();
    return { y: base.getFullYear(), m: base.getMonth() };
  });
  const locale = i18n.language === 'zh' ? 'zh-CN' : 'en-US';
  const days = monthGrid(view.y, view.m, 1);
  const wd = new Intl.DateTimeFormat(locale, { weekday: 'narrow' });
  const title = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long' }).format(new Date(view.y, view.m, 1));
  const shift = (delta: number) => {
    const d = new Date(view.y, view.m + delta, 1);
    setView({ y: d.getFullYear(), m: d.getMonth() });
  };
  const today = new Date();
  return (
    <div className={styles.root}>
      <div className={styles.head}>
        <Button size="small" appearance="subtle" icon={<ChevronLeftRegular />} aria-label={t('dm.picker.prevMonth')} onClick={() => shift(-1)} />
        <span aria-live="polite">{title}</span>
        <Button size="small" appearance="subtle" icon={<ChevronRightRegular />} aria-label={t('dm.picker.nextMonth')} onClick={() => shift(1)} />
      </div>
      <div className={styles.grid} role="grid">
        {days.slice(0, 7).map((d) => (
          <span key={`h${d.getDay()}`} className={styles.wd}>
            {wd.format(d)}
          </span>
        ))}
        {days.map((d) => {
          const cls = [styles.day, d.getMonth() !== view.m && styles.other, sameDay(d, today) && styles.today, sameDay(d, value) && styles.selected].filter(Boolean).join(' ');
          return (
            <button type="button" key={formatDate(d)} className={cls} disabled={isDisabled?.(d)} aria-pressed={sameDay(d, value)} aria-label={formatDate(d)} onClick={() => onSelect(d)}>
              {d.getDate()}
            </button>
          );
        })}
      </div>
    </div>
  );
}
