import { Field, Label, Slider } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DemoGrid, Section } from '../../components/Section';

/** Slider gallery (Fluent UI v9): value, steps, range, vertical, disabled. */
export default function SliderDemo() {
  const { t } = useTranslation();
  const [value, setValue] = useState(40);
  const [power, setPower] = useState(60);
  const [vertical, setVertical] = useState(30);
  return (
    <DemoGrid>
      <Section title={t('dm.form.slider.basic')} column>
        <Field label={t('dm.form.selected', { value })} style={{ width: '100%' }}>
          <Slider value={value} onChange={(_, d) => setValue(d.value)} />
        </Field>
      </Section>
      <Section title={t('dm.form.slider.step')} column>
        <Field label={t('dm.form.slider.power', { value: power })} style={{ width: '100%' }}>
          <Slider min={0} max={240} step={30} value={power} onChange={(_, d) => setPower(d.value)} />
        </Field>
      </Section>
      <Section title={t('dm.form.slider.other')}>
        <Slider vertical value={vertical} onChange={(_, d) => setVertical(d.value)} aria-label={t('dm.form.slider.vertical')} />
        <Label>{vertical}</Label>
        <Slider disabled defaultValue={50} aria-label={t('demo.input.disabled')} />
        <Slider size="small" defaultValue={20} aria-label={t('demo.input.small')} />
      </Section>
    </DemoGrid>
  );
}
