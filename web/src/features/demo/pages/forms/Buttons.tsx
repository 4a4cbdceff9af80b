import { Button, CompoundButton, SplitButton, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, Spinner, ToggleButton } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { EditRegular } from '@fluentui/react-icons/svg/edit';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DemoGrid, Section } from '../../components/Section';

/** Button gallery (Fluent UI v9). */
export default function ButtonDemo() {
  const { t } = useTranslation();
  const [toggled, setToggled] = useState(false);
  const [loading, setLoading] = useState(false);
  const [clicks, setClicks] = useState(0);
  return (
    <DemoGrid>
      <Section title={t('dm.form.button.appearance')} note={t('dm.form.button.clicked', { n: clicks })}>
        <Button appearance="primary" onClick={() => setClicks(clicks + 1)}>
          {t('dm.form.button.primary')}
        </Button>
        <Button onClick={() => setClicks(clicks + 1)}>{t('dm.form.button.secondary')}</Button>
        <Button appearance="outline" onClick={() => setClicks(clicks + 1)}>
          {t('dm.form.button.outline')}
        </Button>
        <Button appearance="subtle" onClick={() => setClicks(clicks + 1)}>
          {t('dm.form.button.subtle')}
        </Button>
        <Button appearance="transparent" onClick={() => setClicks(clicks + 1)}>
          {t('dm.form.button.transparent')}
        </Button>
      </Section>
      <Section title={t('dm.form.button.icons')}>
        <Button appearance="primary" icon={<AddRegular />}>
          {t('dm.table.add')}
        </Button>
        <Button icon={<EditRegular />}>{t('dm.table.edit')}</Button>
        <Button icon={<DeleteRegular />}>{t('dm.table.delete')}</Button>
        <Button icon={<SearchRegular />} aria-label={t('dm.common.search')} />
        <Button shape="circular" icon={<SearchRegular />} aria-label={t('dm.common.search')} />
      </Section>
      <Section title={t('dm.form.button.sizes')}>
        <Button size="small">{t('demo.input.small')}</Button>
        <Button size="medium">{t('demo.input.medium')}</Button>
        <Button size="large">{t('demo.input.large')}</Button>
        <Button shape="rounded">{t('dm.form.button.rounded')}</Button>
        <Button shape="circular">{t('dm.form.button.circular')}</Button>
        <Button shape="square">{t('dm.form.button.square')}</Button>
      </Section>
      <Section title={t('dm.form.button.states')}>
        <Button disabled>{t('demo.input.disabled')}</Button>
        <ToggleButton checked={toggled} onClick={() => setToggled(!toggled)}>
          {toggled ? t('dm.form.button.on') : t('dm.form.button.off')}
        </ToggleButton>
        <Button
          appearance="primary"
          disabled={loading}
          icon={loading ? <Spinner size="tiny" /> : undefined}
          onClick={() => {
            setLoading(true);
            setTimeout(() => setLoading(false), 1500);
          }}
        >
          {loading ? t('dm.form.button.loading') : t('dm.form.button.clickLoad')}
        </Button>
      </Section>
      <Section title={t('dm.form.button.compound')}>
        <CompoundButton icon={<AddRegular />} secondaryContent={t('dm.form.button.secondaryText')}>
          {t('dm.table.add')}
        </CompoundButton>
        <Menu positioning="below-end">
          <MenuTrigger disableButtonEnhancement>
            {(triggerProps) => (
              <SplitButton menuButton={triggerProps} primaryActionButton={{ onClick: () => setClicks(clicks + 1) }}>
                {t('dm.form.button.split')}
              </SplitButton>
            )}
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              <MenuItem onClick={() => setClicks(clicks + 1)}>{t('dm.table.edit')}</MenuItem>
              <MenuItem onClick={() => setClicks(clicks + 1)}>{t('dm.table.delete')}</MenuItem>
            </MenuList>
          </MenuPopover>
        </Menu>
      </Section>
    </DemoGrid>
  );
}
