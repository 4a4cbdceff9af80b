import { makeStyles, tokens } from '@fluentui/react-components';
import { CheckmarkRegular } from '@fluentui/react-icons/svg/checkmark';

const useStyles = makeStyles({
  row: { display: 'flex', alignItems: 'center', columnGap: '8px', margin: '8px 0 24px' },
  step: { display: 'flex', alignItems: 'center', columnGap: '8px', whiteSpace: 'nowrap' },
  dot: {
    width: '28px',
    height: '28px',
    borderRadius: '50%',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground3,
    fontWeight: tokens.fontWeightSemibold,
  },
  active: { backgroundColor: tokens.colorBrandBackground, color: tokens.colorNeutralForegroundOnBrand },
  done: { backgroundColor: tokens.colorBrandBackground2, color: tokens.colorBrandForeground1 },
  line: { flex: 1, height: '2px', minWidth: '24px', backgroundColor: tokens.colorNeutralStroke2 },
  lineDone: { backgroundColor: tokens.colorBrandStroke1 },
});

/** A horizontal steps indicator (own component). */
export function Steps({ steps, current }: { steps: string[]; current: number }) {
  const styles = useStyles();
  return (
    <ol className={styles.row} style={{ listStyle: 'none', padding: 0 }}>
      {steps.map((s, i) => (
        <li key={s} style={{ display: 'contents' }}>
          {i > 0 && <span className={`${styles.line} ${i <= current ? styles.lineDone : ''}`} />}
          <span className={styles.step} aria-current={i === current ? 'step' : undefined}>
            <span className={`${styles.dot} ${i === current ? styles.active : i < current ? styles.done : ''}`}>{i < current ? <CheckmarkRegular /> : i + 1}</span>
            {s}
          </span>
        </li>
      ))}
    </ol>
  );
}
