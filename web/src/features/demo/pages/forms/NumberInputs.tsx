import { Field, SpinButton } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DemoGrid, Section } from '../../components/Section';

/** A SpinButton change: its value, or the typed text when it is a number; else the previous value. */
function spinValue(d: { value?: number | null; displayValue?: string }, previous: number): number {
  const n = d.value ?? Number(d.displayValue);
  return Number.isFinite(n) ? n : previous;
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** Number input gallery (Fluent SpinButton): range, step, precision, disabled. */
export default function InputNumberDemo() {
  const { t } = useTranslation();
  const [count, setCount] = useState(1);
  const [price, setPrice] = useState(1.5);
  const [power, setPower] = useState(60);
  return (
    <DemoGrid>
      <Section title={t('dm.form.number.basic')} note={t('dm.form.selected', { value: count })} column>
        <Field label={t('dm.form.number.range', { min: 1, max: 10 })}>
          <SpinButton value={count} min={1} max={10} onChange={(_, d) => setCount((v) => clamp(spinValue(d, v), 1, 10))} />
        </Field>
      </Section>
      <Section title={t('dm.form.number.precision')} note={t('dm.form.selected', { value: price.toFixed(2) })} column>
        <Field label={t('dm.form.number.price')}>
          <SpinButton
            value={price}
            step={0.1}
            min={0}
            displayValue={price.toFixed(2)}
            onChange={(_, d) => setPrice((v) => Math.max(0, Math.round(spinValue(d, v) * 100) / 100))}
          />
        </Field>
      </Section>
      <Section title={t('dm.form.number.step')} column>
        <Field label={t('dm.form.number.power')}>
          <SpinButton value={power} step={30} min={0} max={480} onChange={(_, d) => setPower((v) => clamp(spinValue(d, v), 0, 480))} />
        </Field>
        <Field label={t('demo.input.disabled')}>
          <SpinButton value={5} disabled />
        </Field>
      </Section>
    </DemoGrid>
  );
}
