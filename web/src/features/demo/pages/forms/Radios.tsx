import { Field, Radio, RadioGroup } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DemoGrid, Section } from '../../components/Section';

const OPTIONS = ['ac', 'dc', 'both'] as const;

/** Radio gallery (Fluent UI v9). */
export default function RadioDemo() {
  const { t } = useTranslation();
  const [value, setValue] = useState('dc');
  const [layout, setLayout] = useState('horizontal');
  return (
    <DemoGrid>
      <Section title={t('dm.form.radio.basic')} note={t('dm.form.selected', { value: t(`dm.form.radio.${value}`) })} column>
        <Field label={t('dm.form.radio.type')}>
          <RadioGroup value={value} onChange={(_, d) => setValue(d.value)}>
            {OPTIONS.map((o) => (
              <Radio key={o} value={o} label={t(`dm.form.radio.${o}`)} />
            ))}
          </RadioGroup>
        </Field>
      </Section>
      <Section title={t('dm.form.radio.layout')} column>
        <RadioGroup layout={layout as 'horizontal'} value={layout} onChange={(_, d) => setLayout(d.value)}>
          <Radio value="horizontal" label={t('dm.form.radio.horizontal')} />
          <Radio value="horizontal-stacked" label={t('dm.form.radio.stacked')} />
        </RadioGroup>
      </Section>
      <Section title={t('dm.form.radio.disabled')} column>
        <RadioGroup disabled defaultValue="ac">
          {OPTIONS.map((o) => (
            <Radio key={o} value={o} label={t(`dm.form.radio.${o}`)} />
          ))}
        </RadioGroup>
        <RadioGroup defaultValue="ac">
          <Radio value="ac" label={t('dm.form.radio.ac')} />
          <Radio value="dc" label={t('dm.form.radio.dcDisabled')} disabled />
        </RadioGroup>
      </Section>
    </DemoGrid>
  );
}
