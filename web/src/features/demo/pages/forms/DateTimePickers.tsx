import { Field } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimePicker } from '../../components/Pickers';
import { DemoGrid, Section } from '../../components/Section';

/** Date-time picker gallery (own component: calendar + time columns). */
export default function DateTimePickerDemo() {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const bad = !!from && !!to && from > to;
  return (
    <DemoGrid>
      <Section title={t('dm.form.dateTime.basic')} note={t('dm.form.selected', { value: value || '—' })} column>
        <Field label={t('dm.picker.dateTime')}>
          <DateTimePicker value={value} onChange={setValue} />
        </Field>
      </Section>
      <Section title={t('dm.form.dateTime.range')} column>
        <Field label={t('dm.form.time.start')}>
          <DateTimePicker value={from} onChange={setFrom} />
        </Field>
        <Field label={t('dm.form.time.end')} validationMessage={bad ? t('dm.form.time.order') : undefined}>
          <DateTimePicker value={to} onChange={setTo} />
        </Field>
      </Section>
    </DemoGrid>
  );
}
