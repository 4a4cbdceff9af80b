import { Button, Card, Dropdown, Input, makeStyles, Option, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { doEditTable, useTableList, type TableItem } from '../../api/demo';
import { STATUSES } from '../../components/EditItemDialog';
import { Pager } from '@/components/data/Pager';
import { StatusBadge } from '../../components/StatusBadge';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  scroll: { overflowX: 'auto' },
  actions: { display: 'flex', columnGap: '4px' },
});

type Draft = Pick<TableItem, 'title' | 'author' | 'status'>;

/** Inline-edit table (no keep-alive): edit a row in place, save through /table/doEdit (simulated), keep the edit locally. */
export default function InlineEditTable() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [query, setQuery] = useState({ pageNo: 1, pageSize: 10 });
  const { data } = useTableList(query);
  const [rows, setRows] = useState<TableItem[]>([]);
  const [editing, setEditing] = useState<{ id: string; draft: Draft } | null>(null);
  const [error, setError] = useState('');
  useEffect(() => setRows(data?.list ?? []), [data]);

  const save = async () => {
    if (!editing) return;
    if (!editing.draft.title.trim()) {
      setError(t('dm.table.titleRequired'));
      return;
    }
    try {
      notify(await doEditTable({ id: editing.id, ...editing.draft, title: editing.draft.title.trim() }), 'success');
      setRows(rows.map((r) => (r.id === editing.id ? { ...r, ...editing.draft, title: editing.draft.title.trim() } : r)));
      setEditing(null);
      setError('');
    } catch {
      /* shown by the request layer */
    }
  };

  return (
    <Card className={styles.card}>
      <div className={styles.scroll}>
        {/* Its own table, not ListTable: the row being edited swaps its cells for inputs and its actions for save/cancel. */}
        <Table size="small">
          <TableHeader>
            <TableRow>
              <TableHeaderCell style={{ width: '64px' }}>{t('dm.table.id')}</TableHeaderCell>
              <TableHeaderCell>{t('dm.table.title')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '160px' }}>{t('dm.table.author')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '160px' }}>{t('dm.table.status')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '170px' }}>{t('dm.table.datetime')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '150px' }}>{t('dm.table.actions')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => {
              const edit = editing?.id === r.id ? editing : null;
              const set = (patch: Partial<Draft>) => edit && setEditing({ id: edit.id, draft: { ...edit.draft, ...patch } });
              return (
                <TableRow key={r.uuid}>
                  <TableCell>{r.id}</TableCell>
                  <TableCell>
                    {edit ? (
                      <Input
                        size="small"
                        style={{ width: '100%' }}
                        aria-label={t('dm.table.title')}
                        aria-invalid={!!error}
                        placeholder={error || undefined}
                        value={edit.draft.title}
                        onChange={(_, d) => set({ title: d.value })}
                      />
                    ) : (
                      <span translate="no">{r.title}</span>
                    )}
                  </TableCell>
                  <TableCell>{edit ? <Input size="small" aria-label={t('dm.table.author')} value={edit.draft.author} onChange={(_, d) => set({ author: d.value })} /> : <span translate="no">{r.author}</span>}</TableCell>
                  <TableCell>
                    {edit ? (
                      <Dropdown size="small" style={{ minWidth: '120px' }} value={t(`dm.status.${edit.draft.status}`)} selectedOptions={[edit.draft.status]} onOptionSelect={(_, d) => set({ status: d.optionValue as TableItem['status'] })}>
                        {STATUSES.map((s) => (
                          <Option key={s} value={s}>
                            {t(`dm.status.${s}`)}
                          </Option>
                        ))}
                      </Dropdown>
                    ) : (
                      <StatusBadge status={r.status} />
                    )}
                  </TableCell>
                  <TableCell>{r.datetime}</TableCell>
                  <TableCell>
                    <div className={styles.actions}>
                      {edit ? (
                        <>
                          <Button size="small" appearance="primary" onClick={() => void save()}>
                            {t('dm.common.save')}
                          </Button>
                          <Button size="small" onClick={() => (setEditing(null), setError(''))}>
                            {t('common.cancel')}
                          </Button>
                        </>
                      ) : (
                        <Button size="small" onClick={() => (setEditing({ id: r.id, draft: { title: r.title, author: r.author, status: r.status } }), setError(''))}>
                          {t('dm.table.edit')}
                        </Button>
                      )}
                    </div>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
      <Pager page={query.pageNo} pageSize={query.pageSize} total={data?.total ?? 0} onChange={(pageNo, pageSize) => (setEditing(null), setQuery({ pageNo, pageSize }))} />
    </Card>
  );
}
