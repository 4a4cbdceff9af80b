import { Field } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TimePicker } from '../../components/Pickers';
import { DemoGrid, Section } from '../../components/Section';
import { parseTime } from '../../components/dateUtils';

/** Time picker gallery (own component: Fluent v9 core has none). */
export default function TimePickerDemo() {
  const { t } = useTranslation();
  const [time, setTime] = useState('08:30:00');
  const [start, setStart] = useState('09:00:00');
  const [end, setEnd] = useState('18:00:00');
  const [stepped, setStepped] = useState('');
  const toSec = (v: string) => {
    const p = parseTime(v);
    return p ? p[0] * 3600 + p[1] * 60 + p[2] : 0;
  };
  return (
    <DemoGrid>
      <Section title={t('dm.form.time.basic')} note={t('dm.form.selected', { value: time || '—' })} column>
        <Field label={t('dm.picker.time')}>
          <TimePicker value={time} onChange={setTime} />
        </Field>
      </Section>
      <Section title={t('dm.form.time.range')} column>
        <Field label={t('dm.form.time.start')}>
          <TimePicker value={start} onChange={setStart} />
        </Field>
        <Field label={t('dm.form.time.end')} validationMessage={start && end && toSec(start) > toSec(end) ? t('dm.form.time.order') : undefined}>
          <TimePicker value={end} onChange={setEnd} />
        </Field>
      </Section>
      <Section title={t('dm.form.time.step')} column>
        <Field label={t('dm.form.time.stepLabel')}>
          <TimePicker value={stepped} step={15} onChange={setStepped} />
        </Field>
        <Field label={t('demo.input.disabled')}>
          <TimePicker value="12:00:00" onChange={() => undefined} disabled />
        </Field>
      </Section>
    </DemoGrid>
  );
}
