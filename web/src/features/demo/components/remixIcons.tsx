import 'remixicon/fonts/remixicon.css';
import { makeStyles, tokens } from '@fluentui/react-components';

// Imported only by the icon pages (lazy chunks), so the icon font stays out of the initial bundle.
const useStyles = makeStyles({ icon: { fontSize: '24px', lineHeight: '24px', color: tokens.colorNeutralForeground1 } });

/** A remix icon by name ('home-2-line' → class ri-home-2-line). */
export function RemixIcon({ name, size }: { name: string; size?: number }) {
  const styles = useStyles();
  const safe = name.replace(/[^a-z0-9-]/gi, '');
  return <i className={`ri-${safe} ${styles.icon}`} style={size ? { fontSize: size, lineHeight: `${size}px` } : undefined} aria-hidden />;
}
