import { Button, Card, Dropdown, Field, Input, makeStyles, Option } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { getSecurityEvents, type SecurityEvent, type SecurityEventFilter } from '../api/chargers';
import { zonedDateTimeSecs } from '@/components/data/format';
import { useCursorList } from '@/components/data/useCursorList';
import type { ListColumn } from '@/components/list/columns';
import { ListView } from '@/components/list/ListView';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  filters: { display: 'flex', flexWrap: 'wrap', gap: '8px 16px', alignItems: 'end' },
});

/**
 * /connector/securityEvents[?pileId=]: the fleet's security events (or one
 * pile's), newest first, filtered by type and days, page by page with the
 * store's cursor. Read-only: Admin, Editor and Test see the same.
 */
export default function SecurityEvents() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [params] = useSearchParams();
  const [typed, setTyped] = useState<SecurityEventFilter>({ pileId: params.get('pileId') ?? '', type: '', from: '', to: '' });
  const [filter, setFilter] = useState<SecurityEventFilter>(typed);
  const [types, setTypes] = useState<string[]>([]);
  const list = useCursorList(['charger/securityEvents', filter.pileId, filter.type, filter.from, filter.to], async (cursor, size) => {
    const page = await getSecurityEvents(filter, cursor, size);
    if (page.types?.length) setTypes(page.types);
    return page;
  }, 50);
  const columns: ListColumn<SecurityEvent>[] = [
    { id: 'at', header: t('chg.secEvent.at'), cell: (e) => zonedDateTimeSecs(e.at), width: '170px' },
    { id: 'pile', header: t('chg.secEvent.pile'), cell: (e) => e.pileCode, data: true },
    { id: 'type', header: t('chg.secEvent.type'), cell: (e) => e.type, data: true, testId: 'sec-event-type' },
    { id: 'source', header: '', cell: (e) => t(`chg.secEvent.source.${e.source}`) },
    { id: 'techInfo', header: t('chg.secEvent.techInfo'), cell: (e) => e.techInfo ?? '', data: true },
  ];
  return (
    <Card className={styles.card}>
      <div className={styles.filters}>
        <Field label={t('chg.secEvent.type')}>
          <Dropdown value={typed.type || t('chg.any')} selectedOptions={[typed.type ?? '']} onOptionSelect={(_, d) => setTyped((f) => ({ ...f, type: d.optionValue ?? '' }))} data-testid="sec-filter-type">
            <Option value="">{t('chg.any')}</Option>
            {types.map((ty) => (
              <Option key={ty} value={ty}>
                {ty}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Field label={t('chg.secEvent.from')}>
          <Input type="date" value={typed.from} onChange={(_, d) => setTyped((f) => ({ ...f, from: d.value }))} data-testid="sec-filter-from" />
        </Field>
        <Field label={t('chg.secEvent.to')}>
          <Input type="date" value={typed.to} onChange={(_, d) => setTyped((f) => ({ ...f, to: d.value }))} data-testid="sec-filter-to" />
        </Field>
        <Button appearance="primary" onClick={() => setFilter(typed)} data-testid="sec-filter-apply">
          {t('chg.search')}
        </Button>
      </div>
      <ListView list={list} columns={columns} rowKey={(e) => `${e.pileId}-${e.at}-${e.type}-${e.receivedAt}`} rowTestId={() => 'sec-event-row'} aria-label={t('chg.secEvent.title')} />
    </Card>
  );
}
