import { Badge, Body1, Button, Card, makeStyles, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components';
import { ArrowDownRegular } from '@fluentui/react-icons/svg/arrow-down';
import { ArrowUpRegular } from '@fluentui/react-icons/svg/arrow-up';
import { ReOrderDotsVerticalRegular } from '@fluentui/react-icons/svg/re-order-dots-vertical';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reorder } from '../../components/reorder';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  handle: { cursor: 'grab', color: tokens.colorNeutralForeground3, verticalAlign: 'middle' },
  over: { backgroundColor: tokens.colorBrandBackground2 },
  bar: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: '8px' },
});

const STEPS = ['apply', 'survey', 'approve', 'install', 'accept', 'online'] as const;

/** Flow sheet drag: reorder the steps of a process table by dragging rows (or with the arrows). */
export default function FlowSheetDragPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [rows, setRows] = useState<string[]>([...STEPS]);
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  return (
    <Card className={styles.card}>
      <div className={styles.bar}>
        <Body1>{t('dm.drag.flowHint')}</Body1>
        <Button onClick={() => setRows([...STEPS])}>{t('dm.common.reset')}</Button>
      </div>
      {/* Its own table, not ListTable: the rows are drag sources and drop targets (and highlight under the pointer). */}
      <Table size="small">
        <TableHeader>
          <TableRow>
            <TableHeaderCell style={{ width: '40px' }} />
            <TableHeaderCell style={{ width: '80px' }}>{t('dm.drag.order')}</TableHeaderCell>
            <TableHeaderCell>{t('dm.drag.step')}</TableHeaderCell>
            <TableHeaderCell>{t('dm.drag.owner')}</TableHeaderCell>
            <TableHeaderCell style={{ width: '100px' }}>{t('dm.table.actions')}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody data-testid="flow-rows">
          {rows.map((key, i) => (
            <TableRow
              key={key}
              draggable
              className={over === i && dragged !== i ? styles.over : undefined}
              onDragStart={() => setDragged(i)}
              onDragOver={(e) => (e.preventDefault(), setOver(i))}
              onDrop={() => {
                if (dragged !== null) setRows(reorder(rows, dragged, i));
                setDragged(null);
                setOver(null);
              }}
              onDragEnd={() => (setDragged(null), setOver(null))}
            >
              <TableCell>
                <ReOrderDotsVerticalRegular className={styles.handle} />
              </TableCell>
              <TableCell>
                <Badge appearance="tint">{i + 1}</Badge>
              </TableCell>
              <TableCell>{t(`dm.drag.steps.${key}`)}</TableCell>
              <TableCell>{t(`dm.drag.owners.${key}`)}</TableCell>
              <TableCell>
                <Button size="small" appearance="subtle" icon={<ArrowUpRegular />} disabled={i === 0} aria-label={t('dm.custom.up')} onClick={() => setRows(reorder(rows, i, i - 1))} />
                <Button size="small" appearance="subtle" icon={<ArrowDownRegular />} disabled={i === rows.length - 1} aria-label={t('dm.custom.down')} onClick={() => setRows(reorder(rows, i, i + 1))} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
