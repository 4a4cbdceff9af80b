import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import { RouteTitle } from '@/layout/RouteTitle';
import type { AppRoute } from '@/router/types';

const useStyles = makeStyles({
  title: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  badge: { marginLeft: '6px', flexShrink: 0 },
  dot: {
    marginLeft: '6px',
    width: '6px',
    height: '6px',
    borderRadius: '50%',
    backgroundColor: tokens.colorPaletteRedBackground3,
    flexShrink: 0,
  },
});

/** Translated title + optional badge tag + optional red dot. */
export function MenuLabel({ route, hideTitle }: { route: AppRoute; hideTitle?: boolean }) {
  const styles = useStyles();
  const { badge, dot } = route.meta;
  return (
    <>
      {!hideTitle && <RouteTitle className={styles.title} title={route.meta.title} />}
      {badge !== undefined && badge !== '' && (
        // A badge is the menu's data (e.g. "Hot"), shown as typed.
        <Badge className={styles.badge} size="small" color="danger" appearance="filled" data-testid="menu-badge" translate="no">
          {badge}
        </Badge>
      )}
      {dot && <span className={styles.dot} data-testid="menu-dot" />}
    </>
  );
}
