import { Checkbox, Divider } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DemoGrid, Section } from '../../components/Section';

const CITIES = ['shanghai', 'beijing', 'guangzhou', 'shenzhen'] as const;

/** Checkbox gallery (Fluent UI v9): basic, indeterminate "check all", disabled, shapes. */
export default function CheckboxDemo() {
  const { t } = useTranslation();
  const [checked, setChecked] = useState(true);
  const [cities, setCities] = useState<string[]>(['shanghai', 'beijing']);
  const all = cities.length === CITIES.length;
  return (
    <DemoGrid>
      <Section title={t('dm.form.checkbox.basic')}>
        <Checkbox checked={checked} onChange={(_, d) => setChecked(!!d.checked)} label={t('dm.form.checkbox.remember')} />
        <Checkbox disabled label={t('demo.input.disabled')} />
        <Checkbox disabled checked label={t('dm.form.checkbox.disabledChecked')} />
      </Section>
      <Section title={t('dm.form.checkbox.group')} note={t('dm.form.selected', { value: cities.map((c) => t(`dm.form.checkbox.${c}`)).join(', ') || '—' })} column>
        <Checkbox
          checked={all ? true : cities.length ? 'mixed' : false}
          onChange={() => setCities(all ? [] : [...CITIES])}
          label={t('dm.form.checkbox.all')}
        />
        <Divider />
        {CITIES.map((c) => (
          <Checkbox
            key={c}
            checked={cities.includes(c)}
            onChange={(_, d) => setCities(d.checked ? [...cities, c] : cities.filter((x) => x !== c))}
            label={t(`dm.form.checkbox.${c}`)}
          />
        ))}
      </Section>
      <Section title={t('dm.form.checkbox.shapes')}>
        <Checkbox shape="circular" defaultChecked label={t('dm.form.button.circular')} />
        <Checkbox size="large" defaultChecked label={t('demo.input.large')} />
        <Checkbox labelPosition="before" label={t('dm.form.checkbox.labelBefore')} />
      </Section>
    </DemoGrid>
  );
}
