import { Badge, Button, Caption1, Card, Dropdown, Field, Input, Option } from '@fluentui/react-components';
import { ArrowSyncRegular } from '@fluentui/react-icons/svg/arrow-sync';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataText } from '@/components/data/DataText';
import { actionName } from '@/features/stations';
import { getSystemLog, useSystemLog, type LogEntry, type LogType } from '../api/settings';
import type { ListColumn } from '@/components/list/columns';
import { ListView } from '@/components/list/ListView';
import { pageQuery, useListPage } from '@/components/list/useListPage';
import { zonedDateTimeSecs } from '@/components/data/format';
import { numberedPageCount, offersLoadMore } from '../model/logic';
import { SearchBox, useSettingStyles } from '@/components/forms/ui';

/** The log's filters and page in the URL. */
const LIST_DEFAULTS = { account: '', type: '', from: '', to: '', page: 1, size: 20 };
/** The log's page: its types are named in the reader's language, so the language is part of what is read. */
const useLogPage = (p: typeof LIST_DEFAULTS) => useSystemLog(pageQuery(p), useTranslation().i18n.language);

/**
 * The system log, newest first: filtered by the start of the account (any
 * case), the type of action and a range of days. Counted lists (no type or
 * day filter) have numbered pages back to 2000 entries, then "load more"
 * with the server's cursor; type and day filters page with the cursor only
 * (the server reads a bounded number of entries a page, so a page may be
 * short while more follow).
 */
export default function SystemLog() {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  const list = useListPage(LIST_DEFAULTS, useLogPage);
  const { params, data, mutate } = list;
  const query = pageQuery(params);
  const [more, setMore] = useState<{ rows: LogEntry[]; cursor: string | null; loading: boolean }>({ rows: [], cursor: null, loading: false });
  // Entries loaded with "load more" belong to the query they followed.
  const queryKey = JSON.stringify(query);
  const [moreFor, setMoreFor] = useState(queryKey);
  if (moreFor !== queryKey) {
    setMoreFor(queryKey);
    setMore({ rows: [], cursor: null, loading: false });
  }
  // The types come with every first page, in the reader's language; later
  // pages keep the last list. Taken in the render that brings them, so the
  // dropdown never shows a page's rows with the previous (or no) type list.
  const [types, setTypes] = useState<LogType[]>([]);
  if (data?.types && data.types !== types) setTypes(data.types);
  const counted = data?.totalKnown ?? true;
  const total = data?.total ?? 0;
  const rows = [...(data?.list ?? []), ...more.rows];
  const cursor = more.rows.length ? more.cursor : (data?.cursor ?? null);
  const canLoadMore = counted ? offersLoadMore(query.pageNo, query.pageSize, total, rows.length, cursor) : !!cursor;
  const reachable = Math.min(total, numberedPageCount(total, query.pageSize) * query.pageSize);

  const filterBy = list.filterBy;
  const loadMore = async () => {
    if (!cursor) return;
    setMore((m) => ({ ...m, loading: true }));
    try {
      const next = await getSystemLog({ ...query, pageNo: 1, cursor });
      setMore((m) => ({ rows: [...m.rows, ...next.list], cursor: next.cursor, loading: false }));
    } catch {
      setMore((m) => ({ ...m, loading: false }));
    }
  };
  const typeLabel = types.find((x) => x.value === query.type)?.label;

  const columns: ListColumn<LogEntry>[] = [
    { id: 'time', header: t('set.log.datetime'), width: '160px', className: styles.muted, cell: (r) => <span title={r.datetime}>{zonedDateTimeSecs(r.time)}</span> },
    {
      id: 'account',
      header: t('set.log.account'),
      width: '110px',
      cell: (r) => (
        <>
          <DataText>{r.account || '—'}</DataText>
          {r.claimedAccount && (
            <Caption1 className={styles.muted} title={t('set.log.claimedHint')}>
              <br />
              {t('set.log.claimed', { name: r.claimedAccount })}
            </Caption1>
          )}
        </>
      ),
    },
    {
      id: 'type',
      header: t('set.log.type'),
      testId: 'log-type',
      // A charger's answer is typed by its OCPP action: named in words, the action in the tooltip.
      cell: (r) => (r.path.startsWith('/ocpp/') ? <span title={r.type}>{t('chg.words.answerTo', { action: actionName(t, r.path.slice('/ocpp/'.length)) })}</span> : r.type),
    },
    { id: 'path', header: t('set.log.path'), width: '230px', className: styles.breakAll, cell: (r) => <code>{r.path}</code> },
    { id: 'target', header: t('set.log.target'), width: '150px', className: styles.breakAll, data: true, cell: (r) => r.target || '—' },
    {
      id: 'result',
      header: t('set.log.result'),
      width: '110px',
      cell: (r) =>
        r.path.startsWith('/ocpp/') ? (
          // A charger's answer: what the charger said, as it said it.
          <Badge appearance="tint" color="informative" title={r.executeResult} data-testid="log-result" translate="no">
            {r.executeResult}
          </Badge>
        ) : (
          <Badge appearance="tint" color={r.code === 200 ? 'success' : 'danger'} title={r.executeResult} data-testid="log-result">
            {r.code === 200 ? t('set.log.success') : `${t('set.log.failure')} ${r.code}`}
          </Badge>
        ),
    },
    { id: 'ip', header: t('set.log.ip'), width: '120px', data: true, cell: (r) => r.ip || '—' },
  ];

  return (
    <Card className={styles.card}>
      <div className={styles.toolbar}>
        <SearchBox placeholder={t('set.log.accountPlaceholder')} onSearch={(text) => filterBy({ account: text })} testId="log-account" key={params.account} initial={params.account} />
        <Dropdown
          aria-label={t('set.log.typeLabel')}
          style={{ minWidth: '260px' }}
          value={typeLabel ?? t('set.log.typeAny')}
          selectedOptions={[query.type]}
          onOptionSelect={(_, d) => filterBy({ type: d.optionValue ?? '' })}
          data-testid="log-type-filter"
        >
          <Option value="">{t('set.log.typeAny')}</Option>
          {types.map((x) => (
            <Option key={x.value} value={x.value}>
              {x.label}
            </Option>
          ))}
        </Dropdown>
        <Field label={{ children: t('set.log.from'), style: { whiteSpace: 'nowrap' } }} orientation="horizontal">
          <Input type="date" value={query.from} max={query.to || undefined} onChange={(_, d) => filterBy({ from: d.value })} data-testid="log-from" />
        </Field>
        <Field label={{ children: t('set.log.to'), style: { whiteSpace: 'nowrap' } }} orientation="horizontal">
          <Input type="date" value={query.to} min={query.from || undefined} onChange={(_, d) => filterBy({ to: d.value })} data-testid="log-to" />
        </Field>
        <Button
          icon={<ArrowSyncRegular />}
          onClick={() => {
            setMore({ rows: [], cursor: null, loading: false });
            void mutate();
          }}
        >
          {t('set.common.reload')}
        </Button>
      </div>
      <ListView
        list={{ ...list, rows, pager: counted ? { ...list.pager, total: reachable } : undefined }}
        scrollClassName={styles.scroll}
        aria-label={t('set.log.title')}
        style={{ minWidth: '1200px' }}
        columns={columns}
        rowKey={(r) => r.id}
        rowAttrs={(r) => ({ 'data-log-path': r.path })}
        empty={<span className={styles.muted}>{t('common.noData')}</span>}
      >
        {canLoadMore && (
          <div className={styles.group}>
            <Button onClick={() => void loadMore()} disabled={more.loading} data-testid="log-more">
              {t('set.log.loadMore')}
            </Button>
            {counted && <Caption1 className={styles.muted}>{t('set.log.numberedLimit')}</Caption1>}
          </div>
        )}
        {!counted && (
          <Caption1 className={styles.muted} data-testid="log-filtered-note">
            {t('set.log.filteredNote')}
          </Caption1>
        )}
        {counted && total > reachable && <Caption1 className={styles.muted}>{t('set.log.totalNote', { total, reachable })}</Caption1>}
        {!!data?.refusedAnonymous24h && (
          <Caption1 className={styles.muted} data-testid="log-refused">
            {t('set.log.refusedAnonymous', { count: data.refusedAnonymous24h })}
          </Caption1>
        )}
      </ListView>
    </Card>
  );
}
