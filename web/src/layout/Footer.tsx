import { makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { COPYRIGHT, VERSION } from '@/config';
import { DATA_SLOT, WithData } from '@/components/data/DataText';

const useStyles = makeStyles({
  footer: {
    padding: '14px 16px',
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
  },
});

/** Footer with copyright and the current year. */
export function Footer() {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <footer className={styles.footer} data-testid="footer">
      {/* The owner is a name, shown as written in either language. */}
      <WithData sentence={t('footer.copyright', { year: new Date().getFullYear(), owner: DATA_SLOT })} data={COPYRIGHT} /> · v{VERSION}
    </footer>
  );
}
