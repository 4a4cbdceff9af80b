import { Field } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DatePicker } from '../../components/Pickers';
import { DemoGrid, Section } from '../../components/Section';
import { daysBetween, formatDate, parseDate } from '../../components/dateUtils';

/** Date picker gallery (own calendar component: Fluent v9 core has no date picker). */
export default function DatePickerDemo() {
  const { t } = useTranslation();
  const [date, setDate] = useState(formatDate(new Date()));
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [future, setFuture] = useState('');
  const a = parseDate(from);
  const b = parseDate(to);
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  return (
    <DemoGrid>
      <Section title={t('dm.form.date.basic')} note={t('dm.form.selected', { value: date || '—' })} column>
        <Field label={t('dm.picker.date')}>
          <DatePicker value={date} onChange={setDate} />
        </Field>
      </Section>
      <Section title={t('dm.form.date.range')} note={a && b ? t('dm.form.date.days', { n: daysBetween(a, b) + 1 }) : t('dm.form.date.rangeHint')} column>
        <Field label={t('dm.form.time.start')}>
          <DatePicker value={from} onChange={setFrom} isDateDisabled={(d) => !!b && d > b} />
        </Field>
        <Field label={t('dm.form.time.end')}>
          <DatePicker value={to} onChange={setTo} isDateDisabled={(d) => !!a && d < a} />
        </Field>
      </Section>
      <Section title={t('dm.form.date.disabledDays')} column>
        <Field label={t('dm.form.date.futureOnly')}>
          <DatePicker value={future} onChange={setFuture} isDateDisabled={(d) => d < today} />
        </Field>
      </Section>
    </DemoGrid>
  );
}
