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
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { demoImageUrl, getTableList, type TableItem } from '@/pages/demo/api';
import { dropColumn, moveColumn, restoreColumns, toggleColumn, visibleKeys, type ColumnState } from '@/pages/demo/components/columns';
import { Pager } from '@/components/data/Pager';
import { StatusBadge } from '@/pages/demo/components/StatusBadge';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  toolbar: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', columnGap: '8px', flexWrap: 'wrap' },
  scroll: { overflowX: 'auto' },
  img: { width: '56px', height: '32px', borderRadius: '4px' },
  chooser: { display: 'flex', flexDirection: 'column', rowGap: '2px', minWidth: '240px' },
  chooserRow: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', columnGap: '4px', borderRadius: '4px', cursor: 'grab', ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover } },
  header: { cursor: 'grab' },
});

type Col = { key: string; label: string; render: (r: TableItem) => ReactNode };
const STORAGE = 'demo-custom-table-columns';

/** Custom table: choose which columns show and their order (buttons or drag), kept in local storage. */
export default function CustomTable() {
  const { t } = useTranslation();
  const styles = useStyles();
  const columns: Col[] = [
    { key: 'id', label: t('dm.table.id'), render: (r) => r.id },
    { key: 'title', label: t('dm.table.title'), render: (r) => r.title },
    { key: 'img', label: t('dm.table.img'), render: (r) => <Image className={styles.img} src={demoImageUrl(r.img)} alt="" /> },
    { key: 'author', label: t('dm.table.author'), render: (r) => r.author },
    { key: 'status', label: t('dm.table.status'), render: (r) => <StatusBadge status={r.status} /> },
    { key: 'rate', label: t('dm.table.rate'), render: (r) => <RatingDisplay size="small" value={r.rate} /> },
    { key: 'pageViews', label: t('dm.table.pageViews'), render: (r) => r.pageViews },
    { key: 'percent', label: t('dm.table.percent'), render: (r) => `${r.percent}%` },
    { key: 'switch', label: t('dm.table.switch'), render: (r) => <Badge appearance="tint" color={r.switch ? 'brand' : 'informative'}>{r.switch ? t('dm.form.button.on') : t('dm.form.button.off')}</Badge> },
    { key: 'datetime', label: t('dm.table.datetime'), render: (r) => <span style={{ whiteSpace: 'nowrap' }}>{r.datetime}</span> },
  ];
  const keys = columns.map((c) => c.key);
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
  const { data } = useSWR(['table/getList', query.pageNo, query.pageSize, ''], () => getTableList(query), { keepPreviousData: true });
  const byKey = new Map(columns.map((c) => [c.key, c]));
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
                  <Checkbox label={byKey.get(c.key)?.label} checked={c.visible} onChange={() => setCols(toggleColumn(cols, c.key))} />
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
        <Table size="small">
          <TableHeader>
            <TableRow>
              {shown.map((c) => (
                <TableHeaderCell key={c.key} className={styles.header} {...dragProps(c.key)}>
                  {c.label}
                </TableHeaderCell>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {(data?.list ?? []).map((r) => (
              <TableRow key={r.uuid}>
                {shown.map((c) => (
                  <TableCell key={c.key}>{c.render(r)}</TableCell>
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
