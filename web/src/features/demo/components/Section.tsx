import { Caption1, Card, CardHeader, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(360px, 1fr))', gap: '16px', alignItems: 'start' },
  card: { rowGap: '12px', padding: '16px' },
  body: { display: 'flex', flexWrap: 'wrap', gap: '10px', alignItems: 'center' },
  column: { display: 'flex', flexDirection: 'column', rowGap: '10px', alignItems: 'flex-start' },
  note: { color: tokens.colorNeutralForeground3 },
});

export function DemoGrid({ children }: { children: ReactNode }) {
  return <div className={useStyles().grid}>{children}</div>;
}

/** One titled card of a demo gallery. */
export function Section({ title, note, column, children }: { title: string; note?: ReactNode; column?: boolean; children: ReactNode }) {
  const styles = useStyles();
  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2>{title}</Subtitle2>} />
      <div className={column ? styles.column : styles.body}>{children}</div>
      {note !== undefined && <Caption1 className={styles.note}>{note}</Caption1>}
    </Card>
  );
}
