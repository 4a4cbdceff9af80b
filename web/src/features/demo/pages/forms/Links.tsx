import { Body1, Link } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DemoGrid, Section } from '../../components/Section';

/** Link gallery (Fluent UI v9). */
export default function LinkDemo() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <DemoGrid>
      <Section title={t('dm.form.link.basic')}>
        <Link onClick={() => navigate('/vab/form/button')}>{t('dm.form.link.internal')}</Link>
        <Link appearance="subtle" onClick={() => navigate('/vab/form/input')}>
          {t('dm.form.link.subtle')}
        </Link>
        <Link disabled>{t('demo.input.disabled')}</Link>
        <Link disabledFocusable>{t('dm.form.link.disabledFocusable')}</Link>
      </Section>
      <Section title={t('dm.form.link.inline')}>
        <Body1>
          {t('dm.form.link.before')} <Link inline onClick={() => navigate('/vab/table/comprehensiveTable')}>{t('dm.form.link.tableLink')}</Link> {t('dm.form.link.after')}
        </Body1>
      </Section>
      <Section title={t('dm.form.link.anchor')} note={t('dm.form.link.anchorNote')}>
        <Link href="#/index">{t('dm.form.link.home')}</Link>
        <Link href="#/other/iframe/search">{t('dm.form.link.iframe')}</Link>
      </Section>
    </DemoGrid>
  );
}
