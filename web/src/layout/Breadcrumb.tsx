import { makeStyles, tokens } from '@fluentui/react-components';
import { Link } from 'react-router';
import { RouteIcon } from '@/components/RouteIcon';
import { RouteTitle } from './RouteTitle';
import type { AppRoute } from '@/router/types';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', minWidth: 0, overflow: 'hidden', whiteSpace: 'nowrap', fontSize: tokens.fontSizeBase300 },
  item: { display: 'inline-flex', alignItems: 'center', columnGap: '4px', color: tokens.colorNeutralForeground3, textDecorationLine: 'none' },
  last: { color: tokens.colorNeutralForeground1 },
  sep: { margin: '0 8px', color: tokens.colorNeutralForeground4 },
  icon: { fontSize: '16px' },
});

/** Matched routes separated by '>', skipping breadcrumbHidden ones. */
export function Breadcrumb({ chain }: { chain: AppRoute[] }) {
  const styles = useStyles();
  const items = chain.filter((r) => !r.meta.breadcrumbHidden);
  return (
    <nav className={styles.root} aria-label="breadcrumb" data-testid="breadcrumb">
      {items.map((route, i) => {
        const last = i === items.length - 1;
        const label = (
          <>
            {route.meta.icon && <RouteIcon name={route.meta.icon} className={styles.icon} />}
            <RouteTitle title={route.meta.title} />
          </>
        );
        return (
          <span key={route.path} style={{ display: 'inline-flex', alignItems: 'center' }}>
            {last || !route.redirect ? (
              <span className={`${styles.item} ${last ? styles.last : ''}`}>{label}</span>
            ) : (
              <Link className={styles.item} to={route.redirect}>
                {label}
              </Link>
            )}
            {!last && <span className={styles.sep}>&gt;</span>}
          </span>
        );
      })}
    </nav>
  );
}
