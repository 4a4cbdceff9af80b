import { Body1, Button, Card, makeStyles, shorthands, Subtitle1, tokens } from '@fluentui/react-components';
import { PrintRegular } from '@fluentui/react-icons/svg/print';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useTableList, type TableItem } from '../api/demo';
import type { ListColumn } from '@/components/list/columns';
import { ListTable } from '@/components/list/ListTable';
import { StatusBadge } from '../components/StatusBadge';
import { printElement } from '../components/printElement';

const useStyles = makeStyles({
  card: { padding: '20px', rowGap: '12px' },
  paper: { padding: '24px', ...shorthands.border('1px', 'solid', tokens.colorNeutralStroke2), borderRadius: tokens.borderRadiusMedium, backgroundColor: '#fff', color: '#222' },
  head: { display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', marginBottom: '12px' },
});

/** The first ten table items. */
const REPORT = { pageNo: 1, pageSize: 10 };

/** Print demo: prints only the report area (a hidden iframe with a copy of it and the page styles). */
export default function PrintPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const area = useRef<HTMLDivElement>(null);
  const { data } = useTableList(REPORT);
  const columns: ListColumn<TableItem>[] = [
    { id: 'id', header: t('dm.table.id'), cell: (r) => r.id },
    { id: 'title', header: t('dm.table.title'), data: true, cell: (r) => r.title },
    { id: 'author', header: t('dm.table.author'), data: true, cell: (r) => r.author },
    { id: 'pageViews', header: t('dm.table.pageViews'), cell: (r) => r.pageViews },
    { id: 'status', header: t('dm.table.status'), cell: (r) => <StatusBadge status={r.status} /> },
  ];
  return (
    <Card className={styles.card}>
      <div>
        <Button appearance="primary" icon={<PrintRegular />} onClick={() => area.current && printElement(area.current, t('dm.print.title'))} data-testid="print-button">
          {t('dm.print.print')}
        </Button>
      </div>
      <Body1>{t('dm.print.hint')}</Body1>
      <div ref={area} className={styles.paper}>
        <div className={styles.head}>
          <Subtitle1>{t('dm.print.title')}</Subtitle1>
          <Body1>{new Date().toLocaleDateString()}</Body1>
        </div>
        <ListTable columns={columns} rows={data?.list ?? []} rowKey={(r) => r.uuid} />
      </div>
    </Card>
  );
}
