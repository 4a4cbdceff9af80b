import { Combobox, Dropdown, Field, Option, OptionGroup, Select } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DemoGrid, Section } from '../../components/Section';

const CITIES = ['shanghai', 'beijing', 'guangzhou', 'shenzhen'] as const;

/** Select gallery: native Select, Dropdown (single, multiple, grouped), searchable Combobox. */
export default function SelectDemo() {
  const { t } = useTranslation();
  const [single, setSingle] = useState<string>('shanghai');
  const [multi, setMulti] = useState<string[]>(['beijing']);
  const [query, setQuery] = useState('');
  const name = (c: string) => t(`dm.form.checkbox.${c}`);
  const matches = CITIES.filter((c) => name(c).toLowerCase().includes(query.toLowerCase()));
  return (
    <DemoGrid>
      <Section title={t('dm.form.select.native')} column>
        <Field label={t('dm.form.select.city')}>
          <Select defaultValue="guangzhou">
            {CITIES.map((c) => (
              <option key={c} value={c}>
                {name(c)}
              </option>
            ))}
          </Select>
        </Field>
      </Section>
      <Section title={t('dm.form.select.single')} note={t('dm.form.selected', { value: name(single) })} column>
        <Field label={t('dm.form.select.city')}>
          <Dropdown value={name(single)} selectedOptions={[single]} onOptionSelect={(_, d) => d.optionValue && setSingle(d.optionValue)}>
            {CITIES.map((c) => (
              <Option key={c} value={c}>
                {name(c)}
              </Option>
            ))}
          </Dropdown>
        </Field>
      </Section>
      <Section title={t('dm.form.select.multiple')} note={t('dm.form.selected', { value: multi.map(name).join(', ') || '—' })} column>
        <Field label={t('dm.form.select.city')}>
          <Dropdown multiselect value={multi.map(name).join(', ')} selectedOptions={multi} onOptionSelect={(_, d) => setMulti(d.selectedOptions)}>
            <OptionGroup label={t('dm.form.select.north')}>
              <Option value="beijing">{name('beijing')}</Option>
            </OptionGroup>
            <OptionGroup label={t('dm.form.select.south')}>
              {['shanghai', 'guangzhou', 'shenzhen'].map((c) => (
                <Option key={c} value={c}>
                  {name(c)}
                </Option>
              ))}
            </OptionGroup>
          </Dropdown>
        </Field>
      </Section>
      <Section title={t('dm.form.select.search')} column>
        <Field label={t('dm.form.select.city')}>
          <Combobox freeform={false} placeholder={t('dm.form.select.typeToFilter')} value={query} onChange={(e) => setQuery(e.target.value)} onOptionSelect={(_, d) => setQuery(d.optionText ?? '')}>
            {matches.map((c) => (
              <Option key={c} value={c}>
                {name(c)}
              </Option>
            ))}
            {!matches.length && <Option disabled value="none">{t('dm.common.empty')}</Option>}
          </Combobox>
        </Field>
      </Section>
    </DemoGrid>
  );
}
