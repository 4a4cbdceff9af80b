import { Button, Card, Checkbox, Field, Input, makeStyles, Radio, RadioGroup, Spinner, Switch, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons/svg/arrow-download';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTableList, type TableItem } from '../api/demo';
import { excelColumns, type ListColumn } from '@/components/list/columns';
import { notify } from '@/utils/notify';
import { exportSheet } from './excel';
import { buildRows, mergedHeader, type ExportColumn } from './excelRows';
import { Pager } from '@/components/data/Pager';
import { StatusBadge } from './StatusBadge';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  bar: { display: 'flex', flexWrap: 'wrap', gap: '12px', alignItems: 'flex-end' },
  scroll: { overflowX: 'auto' },
  nowrap: { whiteSpace: 'nowrap' },
});

/** Consecutive columns sharing a group (a lone column has no group). */
function runs<T>(columns: ExportColumn<T>[]): { group?: string; cols: ExportColumn<T>[] }[] {
  const out: { group?: string; cols: ExportColumn<T>[] }[] = [];
  for (const c of columns) {
    const last = out[out.length - 1];
    if (c.group && last?.group === c.group) last.cols.push(c);
    else out.push({ group: c.group, cols: [c] });
  }
  return out;
}

/** The three Excel demos: export the page, export the selected rows, export with a merged two-level header. */
export function ExcelDemo({ mode }: { mode: 'all' | 'selected' | 'merged' }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [query, setQuery] = useState({ pageNo: 1, pageSize: 20 });
  const { data } = useTableList(query);
  const list = data?.list ?? [];
  const [name, setName] = useState(t('dm.excel.defaultName'));
  const [format, setFormat] = useState<'xlsx' | 'csv'>('xlsx');
  const [autoWidth, setAutoWidth] = useState(true);
  const [selected, setSelected] = useState<Map<string, TableItem>>(new Map());
  const [busy, setBusy] = useState(false);
  const basic = t('dm.excel.groupBasic');
  const stats = t('dm.excel.groupStats');
  // Every column is both in the table and in the sheet.
  const columns: ListColumn<TableItem>[] = [
    { id: 'id', header: t('dm.table.id'), cell: (r) => r.id, excel: { value: (r) => r.id } },
    { id: 'title', header: t('dm.table.title'), data: true, cell: (r) => r.title, excel: { value: (r) => r.title } },
    { id: 'author', header: t('dm.table.author'), data: true, cell: (r) => r.author, excel: { value: (r) => r.author } },
    { id: 'status', header: t('dm.table.status'), cell: (r) => <StatusBadge status={r.status} />, excel: { value: (r) => t(`dm.status.${r.status}`) } },
    { id: 'pageViews', header: t('dm.table.pageViews'), cell: (r) => r.pageViews, excel: { value: (r) => r.pageViews } },
    { id: 'rate', header: t('dm.table.rate'), cell: (r) => r.rate, excel: { value: (r) => r.rate } },
    { id: 'percent', header: t('dm.table.percent'), cell: (r) => r.percent, excel: { value: (r) => r.percent } },
    { id: 'datetime', header: t('dm.table.datetime'), className: styles.nowrap, cell: (r) => r.datetime, excel: { value: (r) => r.datetime } },
  ];
  /** The two-level header's groups (a column without one spans both header rows). */
  const groups: Record<string, string> = { title: basic, author: basic, status: basic, pageViews: stats, rate: stats, percent: stats };
  const sheet: ExportColumn<TableItem>[] = excelColumns(columns).map((c) => ({ key: c.id, header: c.header, value: (r) => c.value(r) ?? '', group: groups[c.id] }));
  const rowsToExport = mode === 'selected' ? [...selected.values()] : list;
  const run = async () => {
    if (!rowsToExport.length) {
      notify(t(mode === 'selected' ? 'dm.excel.selectFirst' : 'dm.common.empty'), 'warning');
      return;
    }
    setBusy(true);
    try {
      if (mode === 'merged') {
        const head = mergedHeader(sheet);
        const body = buildRows(rowsToExport, sheet).slice(1);
        await exportSheet({ name, sheet: 'Sheet1', rows: [...head.rows, ...body], headerRows: 2, merges: format === 'xlsx' ? head.merges : [], autoWidth, format });
      } else {
        await exportSheet({ name, sheet: 'Sheet1', rows: buildRows(rowsToExport, sheet), autoWidth, format });
      }
      notify(t('dm.excel.done', { n: rowsToExport.length }), 'success');
    } catch (e) {
      notify(t('dm.excel.failed', { message: (e as Error).message }), 'error');
    } finally {
      setBusy(false);
    }
  };
  const allChecked = list.length > 0 && list.every((r) => selected.has(r.id));
  const toggle = (r: TableItem, on: boolean) => {
    const next = new Map(selected);
    if (on) next.set(r.id, r);
    else next.delete(r.id);
    setSelected(next);
  };
  return (
    <Card className={styles.card}>
      <div className={styles.bar}>
        <Field label={t('dm.excel.fileName')}>
          <Input value={name} onChange={(_, d) => setName(d.value)} />
        </Field>
        <Field label={t('dm.excel.format')}>
          <RadioGroup layout="horizontal" value={format} onChange={(_, d) => setFormat(d.value as 'xlsx')}>
            <Radio value="xlsx" label="xlsx" />
            <Radio value="csv" label="csv" />
          </RadioGroup>
        </Field>
        <Switch label={t('dm.excel.autoWidth')} checked={autoWidth} onChange={(_, d) => setAutoWidth(d.checked)} disabled={format === 'csv'} />
        <Button appearance="primary" icon={busy ? <Spinner size="tiny" /> : <ArrowDownloadRegular />} disabled={busy} onClick={() => void run()} data-testid="excel-export">
          {mode === 'selected' ? t('dm.excel.exportSelected', { n: selected.size }) : t('dm.excel.export')}
        </Button>
      </div>
      <div className={styles.scroll}>
        {/* Its own table, not ListTable: the merged demo previews the sheet's two-level header (group cells spanning columns). */}
        <Table size="small">
          <TableHeader>
            {mode === 'merged' ? (
              <>
                <TableRow>
                  {runs(sheet).map((run) =>
                    run.group ? (
                      <TableHeaderCell key={run.group} colSpan={run.cols.length} style={{ textAlign: 'center', fontWeight: 600 }}>
                        {run.group}
                      </TableHeaderCell>
                    ) : (
                      <TableHeaderCell key={run.cols[0].key} rowSpan={2}>
                        {run.cols[0].header}
                      </TableHeaderCell>
                    ),
                  )}
                </TableRow>
                <TableRow>
                  {sheet
                    .filter((c) => c.group)
                    .map((c) => (
                      <TableHeaderCell key={c.key}>{c.header}</TableHeaderCell>
                    ))}
                </TableRow>
              </>
            ) : (
              <TableRow>
                {mode === 'selected' && (
                  <TableHeaderCell style={{ width: '44px' }}>
                    <Checkbox
                      aria-label={t('dm.table.selectAll')}
                      checked={allChecked ? true : list.some((r) => selected.has(r.id)) ? 'mixed' : false}
                      onChange={() =>
                        setSelected((s) => {
                          const n = new Map(s);
                          list.forEach((r) => (allChecked ? n.delete(r.id) : n.set(r.id, r)));
                          return n;
                        })
                      }
                    />
                  </TableHeaderCell>
                )}
                {columns.map((c) => (
                  <TableHeaderCell key={c.id}>{c.header}</TableHeaderCell>
                ))}
              </TableRow>
            )}
          </TableHeader>
          <TableBody>
            {list.map((r) => (
              <TableRow key={r.uuid}>
                {mode === 'selected' && (
                  <TableCell>
                    <Checkbox aria-label={r.title} checked={selected.has(r.id)} onChange={(_, d) => toggle(r, !!d.checked)} />
                  </TableCell>
                )}
                {columns.map((c) => (
                  <TableCell key={c.id} className={c.className} translate={c.data ? 'no' : undefined}>
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
