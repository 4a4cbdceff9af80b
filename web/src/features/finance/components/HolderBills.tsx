import { Body1, Button, Caption1, Field, Input, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons/svg/arrow-download';
import { useTranslation } from 'react-i18next';
import { useHolderBills, type HolderBill } from '@/features/orders';
import { kwh, yuan } from '@/components/data/format';
import { exportList, type ListColumn } from '@/components/list/columns';
import { ListTable } from '@/components/list/ListTable';

const useStyles = makeStyles({
  bar: { display: 'flex', flexWrap: 'wrap', gap: '8px 12px', alignItems: 'end' },
  muted: { color: tokens.colorNeutralForeground3 },
  total: { fontWeight: tokens.fontWeightSemibold },
});

/**
 * What each postpaid card holder owes, by month: their card sessions of
 * the month (amount), what finance recorded as paid or wrote off, and
 * the rest, owed; exportable. Payments are recorded on each order.
 */
export function HolderBills({ month, onMonth }: { month: string; onMonth: (month: string) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const bills = useHolderBills(month);
  const columns: ListColumn<HolderBill>[] = [
    { id: 'holder', header: t('fin.bills.holder'), cell: (b) => b.holder, excel: { value: (b) => b.holder, width: 24 } },
    { id: 'orders', header: t('fin.cards.orders'), numeric: true, cell: (b) => b.orders, excel: { value: (b) => b.orders } },
    { id: 'energy', header: t('fin.cards.energy'), numeric: true, cell: (b) => kwh(b.energyWh), excel: { value: (b) => b.energyWh / 1000, numFmt: '0.000' } },
    { id: 'amount', header: t('fin.cards.amount'), numeric: true, cell: (b) => yuan(b.amountFen), excel: { value: (b) => b.amountFen / 100, numFmt: '0.00' } },
    { id: 'paid', header: t('fin.cards.paid'), numeric: true, cell: (b) => yuan(b.paidFen), excel: { value: (b) => b.paidFen / 100, numFmt: '0.00' } },
    { id: 'writtenOff', header: t('fin.cards.writtenOff'), numeric: true, cell: (b) => yuan(b.writtenOffFen), excel: { value: (b) => b.writtenOffFen / 100, numFmt: '0.00' } },
    { id: 'owed', header: t('fin.bills.owed'), numeric: true, cell: (b) => yuan(b.owedFen), excel: { value: (b) => b.owedFen / 100, numFmt: '0.00' } },
  ];
  const list = bills.data?.list ?? [];
  return (
    <>
      <div className={styles.bar}>
        <Field label={t('fin.bills.month')}>
          <Input type="month" value={month} onChange={(_, d) => onMonth(d.value)} data-testid="bills-month" />
        </Field>
        <Button
          icon={<ArrowDownloadRegular />}
          disabled={list.length === 0}
          data-testid="bills-export"
          onClick={() => void exportList(columns, { fileName: `holder-bills-${month}.xlsx`, sheetName: t('fin.tabs.bills'), rows: list })}
        >
          {t('fin.export')}
        </Button>
      </div>
      <Caption1 className={styles.muted}>{t('fin.bills.note')}</Caption1>
      {!bills.data && bills.isLoading && <Spinner size="small" />}
      {bills.data && (
        <>
          <Body1 className={styles.total} data-testid="bills-owed">
            {t('fin.bills.totalOwed', { month, amount: yuan(bills.data.owedFen) })}
          </Body1>
          <ListTable data-testid="fin-bills" columns={columns} rows={list} rowKey={(b) => b.holder} rowTestId="holder-bill" />
        </>
      )}
    </>
  );
}
