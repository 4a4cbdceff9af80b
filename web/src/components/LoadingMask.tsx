import { makeStyles, Spinner, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  mask: {
    position: 'fixed',
    inset: 0,
    zIndex: 99999,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    backgroundColor: 'rgba(255,255,255,0.6)',
    color: tokens.colorNeutralForeground1,
  },
});

/** Full-page blocking mask (debounce-loading requests, random theme). */
export function LoadingMask({ label }: { label?: string }) {
  const styles = useStyles();
  return (
    <div className={styles.mask} data-testid="loading-mask" aria-busy="true">
      <Spinner label={label} labelPosition="below" />
    </div>
  );
}
