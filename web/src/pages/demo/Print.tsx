import { Body1, Button, Card, makeStyles, shorthands, Subtitle1, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components';
import { PrintRegular } from '@fluentui/react-icons/svg/print';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { getTableList } from './api';
import { StatusBadge } from '@/pages/demo/components/StatusBadge';
import { printElement } from '@/pages/demo/components/printElement';

const useStyles = makeStyles({
  card: { padding: '20px', rowGap: '12px' },
  paper: { padding: '24px', ...shorthands.border('1px', 'solid', tokens.colorNeutralStroke2), borderRadius: tokens.borderRadiusMedium, backgroundColor: '#fff', color: '#222' },
  head: { display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', marginBottom: '12px' },
});

/** Print demo: prints only the report area (a hidden iframe with a copy of it and the page styles). */
export default function PrintPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const area = useRef<HTMLDivElement>(null);
  const { data } = useSWR(['table/getList', 1, 10, ''], () => getTableList({ pageNo: 1, pageSize: 10 }));
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
        <Table size="small">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('dm.table.id')}</TableHeaderCell>
              <TableHeaderCell>{t('dm.table.title')}</TableHeaderCell>
              <TableHeaderCell>{t('dm.table.author')}</TableHeaderCell>
              <TableHeaderCell>{t('dm.table.pageViews')}</TableHeaderCell>
              <TableHeaderCell>{t('dm.table.status')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {(data?.list ?? []).map((r) => (
              <TableRow key={r.uuid}>
                <TableCell>{r.id}</TableCell>
                <TableCell>{r.title}</TableCell>
                <TableCell>{r.author}</TableCell>
                <TableCell>{r.pageViews}</TableCell>
                <TableCell>
                  <StatusBadge status={r.status} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </Card>
  );
}
