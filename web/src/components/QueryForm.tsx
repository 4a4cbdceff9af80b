import { makeStyles } from '@fluentui/react-components';
import { useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { MOBILE_BREAKPOINT_PX, QUERY_FORM_LEFT_SPAN } from '@/config';

const useStyles = makeStyles({
  form: { display: 'flex', flexWrap: 'wrap', gap: '8px 0', alignItems: 'end' },
  left: {
    flex: '0 0 var(--query-form-left)',
    maxWidth: 'var(--query-form-left)',
    display: 'flex',
    flexWrap: 'wrap',
    gap: '8px 12px',
    alignItems: 'end',
    minWidth: 0,
    [`@media (max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`]: { flexBasis: '100%', maxWidth: '100%' },
  },
  right: {
    flex: '1 1 0',
    display: 'flex',
    flexWrap: 'wrap',
    gap: '8px 12px',
    justifyContent: 'flex-end',
    alignItems: 'end',
    minWidth: 0,
    [`@media (max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`]: { flexBasis: '100%', justifyContent: 'flex-start' },
  },
});

/** Rows the form's controls take (distinct tops of the panels' children). */
function rowsOf(form: HTMLElement): number {
  const tops = new Set<number>();
  for (const panel of Array.from(form.children)) for (const c of Array.from(panel.children)) tops.add(Math.round((c as HTMLElement).getBoundingClientRect().top));
  return Math.max(1, tops.size);
}

/**
 * A list page's filter bar: filters on the left, actions on the right (the
 * left panel spans 14 of 24 columns by default, full width on small screens). `onRows` hears how many rows it wraps into, for the
 * table-height helper's "60 px per extra row".
 */
export function QueryForm({ children, testId, onRows }: { children: ReactNode; testId?: string; onRows?: (rows: number) => void }) {
  const styles = useStyles();
  const ref = useRef<HTMLDivElement>(null);
  const [rows, setRows] = useState(1);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setRows(rowsOf(el));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useLayoutEffect(() => onRows?.(rows), [rows, onRows]);
  return (
    <div className={styles.form} data-testid={testId} data-rows={rows} ref={ref}>
      {children}
    </div>
  );
}

/** The filters: `span` of 24 columns (default 14), the full width on small screens. */
export function QueryFormLeftPanel({ span = QUERY_FORM_LEFT_SPAN, children }: { span?: number; children: ReactNode }) {
  const styles = useStyles();
  const style = { '--query-form-left': `${(span / 24) * 100}%` } as CSSProperties;
  return (
    <div className={styles.left} style={style} data-testid="query-form-left">
      {children}
    </div>
  );
}

/** The actions (add, export): the rest of the row, under the filters on small screens. */
export function QueryFormRightPanel({ children }: { children: ReactNode }) {
  const styles = useStyles();
  return (
    <div className={styles.right} data-testid="query-form-right">
      {children}
    </div>
  );
}
