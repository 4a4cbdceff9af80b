import {
  Button,
  Card,
  Checkbox,
  Image,
  Input,
  makeStyles,
  RatingDisplay,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import useSWR from 'swr';
import { demoImageUrl, doDeleteTable, getTableList, type TableItem } from '@/pages/demo/api';
import { confirm } from '@/components/Confirm';
import { EditItemDialog } from '@/pages/demo/components/EditItemDialog';
import { Pager } from '@/components/data/Pager';
import { StatusBadge } from '@/pages/demo/components/StatusBadge';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  toolbar: { display: 'flex', columnGap: '8px', rowGap: '8px', flexWrap: 'wrap', justifyContent: 'space-between' },
  group: { display: 'flex', columnGap: '8px', flexWrap: 'wrap' },
  scroll: { overflowX: 'auto' },
  table: { minWidth: '1100px' },
  img: { width: '64px', height: '36px', borderRadius: '4px', objectFit: 'cover' },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', columnGap: '4px' },
});

/** The template's comprehensive table: search, paging, selection, add/edit/delete (simulated), detail in a new tab. */
export default function ComprehensiveTable() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const [query, setQuery] = useState({ pageNo: 1, pageSize: 20, title: '' });
  const [typed, setTyped] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<{ open: boolean; item: TableItem | null }>({ open: false, item: null });
  const { data, isLoading, mutate } = useSWR(['table/getList', query.pageNo, query.pageSize, query.title], () => getTableList(query), {
    keepPreviousData: true,
  });
  const list = data?.list ?? [];
  const allChecked = list.length > 0 && list.every((r) => selected.has(r.id));

  const remove = async (ids: string[]) => {
    if (!ids.length) {
      notify(t('dm.table.selectFirst'), 'warning');
      return;
    }
    if (!(await confirm(t('dm.table.confirmDelete', { n: ids.length })))) return;
    try {
      notify(await doDeleteTable(ids), 'success');
      setSelected(new Set());
      void mutate();
    } catch {
      /* shown by the request layer */
    }
  };

  return (
    <Card className={styles.card}>
      <div className={styles.toolbar}>
        <div className={styles.group}>
          <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing({ open: true, item: null })}>
            {t('dm.table.add')}
          </Button>
          <Button icon={<DeleteRegular />} onClick={() => void remove([...selected])}>
            {t('dm.table.batchDelete')}
          </Button>
        </div>
        <form
          className={styles.group}
          onSubmit={(e) => {
            e.preventDefault();
            setQuery({ ...query, pageNo: 1, title: typed.trim() });
          }}
        >
          <Input value={typed} onChange={(_, d) => setTyped(d.value)} placeholder={t('dm.table.title')} contentBefore={<SearchRegular />} data-testid="table-filter" />
          <Button type="submit" appearance="primary">
            {t('dm.common.search')}
          </Button>
        </form>
      </div>
      <div className={styles.scroll}>
        <Table className={styles.table} size="small" aria-label={t('dm.table.name')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell style={{ width: '44px' }}>
                <Checkbox
                  aria-label={t('dm.table.selectAll')}
                  checked={allChecked ? true : selected.size ? 'mixed' : false}
                  onChange={() => setSelected(allChecked ? new Set() : new Set(list.map((r) => r.id)))}
                />
              </TableHeaderCell>
              <TableHeaderCell style={{ width: '56px' }}>{t('dm.table.id')}</TableHeaderCell>
              <TableHeaderCell>{t('dm.table.title')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '84px' }}>{t('dm.table.img')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '96px' }}>{t('dm.table.author')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '120px' }}>{t('dm.table.rate')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '84px' }}>{t('dm.table.pageViews')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '90px' }}>{t('dm.table.status')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '160px' }}>{t('dm.table.datetime')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '200px' }}>{t('dm.table.actions')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.map((row) => (
              <TableRow key={row.uuid}>
                <TableCell>
                  <Checkbox
                    aria-label={row.title}
                    checked={selected.has(row.id)}
                    onChange={(_, d) => {
                      const next = new Set(selected);
                      if (d.checked) next.add(row.id);
                      else next.delete(row.id);
                      setSelected(next);
                    }}
                  />
                </TableCell>
                <TableCell>{row.id}</TableCell>
                <TableCell>{row.title}</TableCell>
                <TableCell>
                  <Image className={styles.img} src={demoImageUrl(row.img)} alt="" />
                </TableCell>
                <TableCell>{row.author}</TableCell>
                <TableCell>
                  <RatingDisplay value={row.rate} size="small" compact={false} />
                </TableCell>
                <TableCell>{row.pageViews}</TableCell>
                <TableCell>
                  <StatusBadge status={row.status} />
                </TableCell>
                <TableCell className={styles.muted}>{row.datetime}</TableCell>
                <TableCell>
                  <div className={styles.actions}>
                    <Button size="small" appearance="transparent" onClick={() => navigate(`/vab/table/detail?id=${encodeURIComponent(row.id)}`)}>
                      {t('dm.table.detail')}
                    </Button>
                    <Button size="small" appearance="transparent" onClick={() => setEditing({ open: true, item: row })}>
                      {t('dm.table.edit')}
                    </Button>
                    <Button size="small" appearance="transparent" onClick={() => void remove([row.id])}>
                      {t('dm.table.delete')}
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {isLoading && !data && <Spinner size="small" />}
      </div>
      <Pager page={query.pageNo} pageSize={query.pageSize} total={data?.total ?? 0} onChange={(pageNo, pageSize) => setQuery({ ...query, pageNo, pageSize })} />
      <EditItemDialog
        open={editing.open}
        item={editing.item}
        onClose={(saved) => {
          setEditing({ open: false, item: null });
          if (saved) void mutate();
        }}
      />
    </Card>
  );
}
