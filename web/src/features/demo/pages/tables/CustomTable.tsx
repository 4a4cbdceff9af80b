import {
  Badge,
  Button,
  Card,
  Checkbox,
  Image,
  makeStyles,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  RatingDisplay,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownRegular } from '@fluentui/react-icons/svg/arrow-down';
import { ArrowUpRegular } from '@fluentui/react-icons/svg/arrow-up';
import { ColumnTripleEditRegular } from '@fluentui/react-icons/svg/column-triple-edit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { demoImageUrl, useTableList, type TableItem } from '../../api/demo';
import { dropColumn, moveColumn, restoreColumns, toggleColumn, visibleKeys, type ColumnState } from '../../components/columns';
import { Pager } from '@/components/data/Pager';
import type { ListColumn } from '@/components/list/columns';
import { StatusBadge } from '../../components/StatusBadge';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  toolbar: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', columnGap: '8px', flexWrap: 'wrap' },
  scroll: { overflowX: 'auto' },
  img: { width: '56px', height: '32px', borderRadius: '4px' },
  chooser: { display: 'flex', flexDirection: 'column', rowGap: '2px', minWidth: '240px' },
  chooserRow: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', columnGap: '4px', borderRadius: '4px', cursor: 'grab', ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover } },
  header: { cursor: 'grab' },
});

const STORAGE = 'demo-custom-table-columns';

/** Custom table: choose which columns show and their order (buttons or drag), kept in local storage. */
export default function CustomTable() {
  const { t } = useTranslation();
  const styles = useStyles();
  const columns: ListColumn<TableItem>[] = [
    { id: 'id', header: t('dm.table.id'), cell: (r) => r.id },
    { id: 'title', header: t('dm.table.title'), data: true, cell: (r) => r.title },
    { id: 'img', header: t('dm.table.img'), cell: (r) => <Image className={styles.img} src={demoImageUrl(r.img)} alt="" /> },
    { id: 'author', header: t('dm.table.author'), data: true, cell: (r) => r.author },
    { id: 'status', header: t('dm.table.status'), cell: (r) => <StatusBadge status={r.status} /> },
    { id: 'rate', header: t('dm.table.rate'), cell: (r) => <RatingDisplay size="small" value={r.rate} /> },
    { id: 'pageViews', header: t('dm.table.pageViews'), cell: (r) => r.pageViews },
    { id: 'percent', header: t('dm.table.percent'), cell: (r) => `${r.percent}%` },
    { id: 'switch', header: t('dm.table.switch'), cell: (r) => <Badge appearance="tint" color={r.switch ? 'brand' : 'informative'}>{r.switch ? t('dm.form.button.on') : t('dm.form.button.off')}</Badge> },
    { id: 'datetime', header: t('dm.table.datetime'), cell: (r) => <span style={{ whiteSpace: 'nowrap' }}>{r.datetime}</span> },
  ];
  const keys = columns.map((c) => c.id);
  const [cols, setColsState] = useState<ColumnState[]>(() => {
    try {
      return restoreColumns(JSON.parse(localStorage.getItem(STORAGE) ?? 'null'), keys);
    } catch {
      return restoreColumns(null, keys);
    }
  });
  const setCols = (next: ColumnState[]) => {
    setColsState(next);
    localStorage.setItem(STORAGE, JSON.stringify(next));
  };
  const [dragging, setDragging] = useState<string | null>(null);
  const [query, setQuery] = useState({ pageNo: 1, pageSize: 10 });
  const { data } = useTableList(query);
  const byKey = new Map(columns.map((c) => [c.id, c]));
  const shown = visibleKeys(cols).map((k) => byKey.get(k)!).filter(Boolean);
  const dragProps = (key: string) => ({
    draggable: true,
    onDragStart: () => setDragging(key),
    onDragOver: (e: React.DragEvent) => e.preventDefault(),
    onDrop: () => {
      if (dragging) setCols(dropColumn(cols, dragging, key));
      setDragging(null);
    },
  });

  return (
    <Card className={styles.card}>
      <div className={styles.toolbar}>
        <span>{t('dm.custom.hint')}</span>
        <Popover positioning="below-end">
          <PopoverTrigger disableButtonEnhancement>
            <Button icon={<ColumnTripleEditRegular />} data-testid="column-chooser">
              {t('dm.custom.columns')}
            </Button>
          </PopoverTrigger>
          <PopoverSurface>
            <div className={styles.chooser}>
              {cols.map((c, i) => (
                <div key={c.key} className={styles.chooserRow} {...dragProps(c.key)}>
                  <Checkbox label={byKey.get(c.key)?.header} checked={c.visible} onChange={() => setCols(toggleColumn(cols, c.key))} />
                  <span>
                    <Button size="small" appearance="subtle" icon={<ArrowUpRegular />} disabled={i === 0} aria-label={t('dm.custom.up')} onClick={() => setCols(moveColumn(cols, c.key, -1))} />
                    <Button size="small" appearance="subtle" icon={<ArrowDownRegular />} disabled={i === cols.length - 1} aria-label={t('dm.custom.down')} onClick={() => setCols(moveColumn(cols, c.key, 1))} />
                  </span>
                </div>
              ))}
              <Button size="small" onClick={() => setCols(restoreColumns(null, keys))}>
                {t('dm.custom.reset')}
              </Button>
            </div>
          </PopoverSurface>
        </Popover>
      </div>
      <div className={styles.scroll}>
        {/* Its own table, not ListTable: the header cells are drag handles that reorder the columns. */}
        <Table size="small">
          <TableHeader>
            <TableRow>
              {shown.map((c) => (
                <TableHeaderCell key={c.id} className={styles.header} {...dragProps(c.id)}>
                  {c.header}
                </TableHeaderCell>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {(data?.list ?? []).map((r) => (
              <TableRow key={r.uuid}>
                {shown.map((c) => (
                  <TableCell key={c.id} translate={c.data ? 'no' : undefined}>
                    {c.cell!(r)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <Pager page={query.pageNo} pageSize={query.pageSize} total={data?.total ?? 0} onChange={(pageNo, pageSize) => setQuery({ pageNo, pageSize })} />
    </Card>
  );
}
