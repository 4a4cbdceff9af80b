import { Switch } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DemoGrid, Section } from '../../components/Section';

/** Switch gallery (Fluent UI v9). */
export default function SwitchDemo() {
  const { t } = useTranslation();
  const [on, setOn] = useState(true);
  const [busy, setBusy] = useState(false);
  const [remote, setRemote] = useState(false);
  return (
    <DemoGrid>
      <Section title={t('dm.form.switch.basic')} note={on ? t('dm.form.button.on') : t('dm.form.button.off')}>
        <Switch checked={on} onChange={(_, d) => setOn(d.checked)} label={on ? t('dm.form.switch.enabled') : t('dm.form.switch.disabledText')} />
      </Section>
      <Section title={t('dm.form.switch.labels')} column>
        <Switch label={t('dm.form.switch.after')} defaultChecked />
        <Switch labelPosition="before" label={t('dm.form.switch.before')} />
        <Switch labelPosition="above" label={t('dm.form.switch.above')} />
      </Section>
      <Section title={t('dm.form.switch.states')} note={t('dm.form.switch.asyncNote')}>
        <Switch disabled label={t('demo.input.disabled')} />
        <Switch disabled checked label={t('dm.form.checkbox.disabledChecked')} />
        <Switch
          checked={remote}
          disabled={busy}
          label={busy ? t('dm.form.button.loading') : t('dm.form.switch.async')}
          onChange={(_, d) => {
            setBusy(true);
            setTimeout(() => (setRemote(d.checked), setBusy(false)), 800);
          }}
        />
      </Section>
    </DemoGrid>
  );
}
