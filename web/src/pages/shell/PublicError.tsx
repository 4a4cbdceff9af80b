import { makeStyles, tokens } from '@fluentui/react-components';
import { ErrorPage } from './ErrorPage';

const useStyles = makeStyles({ page: { minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', backgroundColor: tokens.colorNeutralBackground2 } });

/** /403 and /404 outside the layout (reachable without a session). */
export default function PublicError({ kind }: { kind: 403 | 404 }) {
  const styles = useStyles();
  return (
    <div className={styles.page}>
      <ErrorPage kind={kind} />
    </div>
  );
}
