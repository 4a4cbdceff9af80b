import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslateTitle } from '@/i18n';
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
  const translate = useTranslateTitle();
  const styles = useStyles();
  const { badge, dot } = route.meta;
  return (
    <>
      {!hideTitle && <span className={styles.title}>{translate(route.meta.title)}</span>}
      {badge !== undefined && badge !== '' && (
        <Badge className={styles.badge} size="small" color="danger" appearance="filled" data-testid="menu-badge">
          {badge}
        </Badge>
      )}
      {dot && <span className={styles.dot} data-testid="menu-dot" />}
    </>
  );
}
