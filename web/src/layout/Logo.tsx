import { makeStyles, tokens } from '@fluentui/react-components';
import { FlashFilled } from '@fluentui/react-icons/svg/flash';
import { Link } from 'react-router';
import { useTranslateTitle } from '@/i18n';
import { settingsStore } from '@/store/settings';

const useStyles = makeStyles({
  logo: {
    display: 'flex',
    alignItems: 'center',
    columnGap: '10px',
    height: '56px',
    padding: '0 18px',
    textDecorationLine: 'none',
    color: tokens.colorNeutralForeground1,
    overflow: 'hidden',
    whiteSpace: 'nowrap',
    flexShrink: 0,
  },
  mark: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '30px',
    height: '30px',
    borderRadius: '8px',
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    fontSize: '20px',
    flexShrink: 0,
  },
  title: { fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold, overflow: 'hidden', textOverflow: 'ellipsis' },
  centered: { justifyContent: 'center', padding: 0 },
});

/** The logo links to '/'. */
export function Logo({ showTitle = true }: { showTitle?: boolean }) {
  const styles = useStyles();
  const translate = useTranslateTitle();
  const title = settingsStore.use((s) => s.title);
  return (
    <Link to="/" className={`${styles.logo} ${showTitle ? '' : styles.centered}`} data-testid="logo" aria-label={translate(title)}>
      <span className={styles.mark}>
        <FlashFilled />
      </span>
      {showTitle && <span className={styles.title}>{translate(title)}</span>}
    </Link>
  );
}
