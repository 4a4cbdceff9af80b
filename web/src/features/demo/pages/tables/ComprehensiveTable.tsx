import { Button, Card, Checkbox, Image, makeStyles, RatingDisplay, tokens } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { demoImageUrl, doDeleteTable, useTableList, type TableItem } from '../../api/demo';
import { confirm } from '@/components/Confirm';
import { EditItemDialog } from '../../components/EditItemDialog';
import type { ListColumn } from '@/components/list/columns';
import { ListView } from '@/components/list/ListView';
import { pageQuery, useListPage } from '@/components/list/useListPage';
import { TitleSearch } from '../../components/TitleSearch';
import { StatusBadge } from '../../components/StatusBadge';
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

/** The list's state in the URL: title filter, page, page size (one the pager offers). */
const LIST_DEFAULTS = { title: '', page: 1, size: 20 };
const LIST_OPTIONS = { allowed: { size: [10, 20, 50] } };
const useItems = (p: typeof LIST_DEFAULTS) => useTableList(pageQuery(p));

/** The template's comprehensive table: search, paging, selection, add/edit/delete (simulated), detail in a new tab. */
export default function ComprehensiveTable() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const items = useListPage(LIST_DEFAULTS, useItems, LIST_OPTIONS);
  const { params, set, mutate } = items;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<{ open: boolean; item: TableItem | null }>({ open: false, item: null });
  const list = items.rows;
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

  const columns: ListColumn<TableItem>[] = [
    {
      id: 'select',
      header: t('dm.table.selectAll'),
      headerContent: (
        <Checkbox
          aria-label={t('dm.table.selectAll')}
          checked={allChecked ? true : selected.size ? 'mixed' : false}
          onChange={() => setSelected(allChecked ? new Set() : new Set(list.map((r) => r.id)))}
        />
      ),
      width: '44px',
      cell: (row) => (
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
      ),
    },
    { id: 'id', header: t('dm.table.id'), width: '56px', cell: (row) => row.id },
    { id: 'title', header: t('dm.table.title'), data: true, cell: (row) => row.title },
    { id: 'img', header: t('dm.table.img'), width: '84px', cell: (row) => <Image className={styles.img} src={demoImageUrl(row.img)} alt="" /> },
    { id: 'author', header: t('dm.table.author'), width: '96px', data: true, cell: (row) => row.author },
    { id: 'rate', header: t('dm.table.rate'), width: '120px', cell: (row) => <RatingDisplay value={row.rate} size="small" compact={false} /> },
    { id: 'pageViews', header: t('dm.table.pageViews'), width: '84px', cell: (row) => row.pageViews },
    { id: 'status', header: t('dm.table.status'), width: '90px', cell: (row) => <StatusBadge status={row.status} /> },
    { id: 'datetime', header: t('dm.table.datetime'), width: '160px', className: styles.muted, cell: (row) => row.datetime },
    {
      id: 'actions',
      header: t('dm.table.actions'),
      width: '200px',
      cell: (row) => (
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
      ),
    },
  ];

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
        <TitleSearch className={styles.group} title={params.title} onSearch={(title) => set({ title, page: 1 })} placeholder={t('dm.table.title')} testId="table-filter" />
      </div>
      <ListView list={items} scrollClassName={styles.scroll} className={styles.table} aria-label={t('dm.table.name')} columns={columns} rowKey={(r) => r.uuid} />
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
