import { Badge, Button, Caption1, Card, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { ArrowSyncRegular } from '@fluentui/react-icons/svg/arrow-sync';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { getSystemLog, type LogEntry } from '@/api/settings';
import { Pager } from '@/components/demo/Pager';
import { logTime, numberedPageCount, offersLoadMore } from '@/components/settings/logic';
import { EmptyRow, SearchBox, useSettingStyles } from '@/components/settings/ui';

/**
 * The system log, newest first: exact-account filter, numbered pages back to
 * 2000 entries, then "load more" with the server's cursor.
 */
export default function SystemLog() {
  const { t, i18n } = useTranslation();
  const styles = useSettingStyles();
  const [query, setQuery] = useState({ pageNo: 1, pageSize: 20, account: '' });
  const [more, setMore] = useState<{ rows: LogEntry[]; cursor: string | null; loading: boolean }>({ rows: [], cursor: null, loading: false });
  // The server writes each entry's type and result in the request's
  // language, so a language switch loads the page again.
  const { data, isLoading, mutate } = useSWR(['setting/systemLog', query.pageNo, query.pageSize, query.account, i18n.language], () => getSystemLog(query), {
    keepPreviousData: true,
  });
  const total = data?.total ?? 0;
  const rows = [...(data?.list ?? []), ...more.rows];
  const cursor = more.rows.length ? more.cursor : (data?.cursor ?? null);
  const canLoadMore = offersLoadMore(query.pageNo, query.pageSize, total, rows.length, cursor);
  const reachable = Math.min(total, numberedPageCount(total, query.pageSize) * query.pageSize);

  const change = (next: typeof query) => {
    setMore({ rows: [], cursor: null, loading: false });
    setQuery(next);
  };
  const loadMore = async () => {
    if (!cursor) return;
    setMore((m) => ({ ...m, loading: true }));
    try {
      const next = await getSystemLog({ account: query.account, pageNo: 1, pageSize: query.pageSize, cursor });
      setMore((m) => ({ rows: [...m.rows, ...next.list], cursor: next.cursor, loading: false }));
    } catch {
      setMore((m) => ({ ...m, loading: false }));
    }
  };

  return (
    <Card className={styles.card}>
      <div className={styles.toolbar}>
        <SearchBox placeholder={t('set.log.accountPlaceholder')} onSearch={(text) => change({ ...query, pageNo: 1, account: text })} testId="log-account" />
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
      <div className={styles.scroll}>
        <Table size="small" aria-label={t('set.log.title')} style={{ minWidth: '1200px' }}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell style={{ width: '160px' }}>{t('set.log.datetime')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '110px' }}>{t('set.log.account')}</TableHeaderCell>
              <TableHeaderCell>{t('set.log.type')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '230px' }}>{t('set.log.path')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '150px' }}>{t('set.log.target')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '110px' }}>{t('set.log.result')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '120px' }}>{t('set.log.ip')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.id} data-log-path={r.path}>
                <TableCell className={styles.muted} title={r.datetime}>
                  {logTime(r.time)}
                </TableCell>
                <TableCell>
                  {r.account || '—'}
                  {r.claimedAccount && (
                    <Caption1 className={styles.muted} title={t('set.log.claimedHint')}>
                      <br />
                      {t('set.log.claimed', { name: r.claimedAccount })}
                    </Caption1>
                  )}
                </TableCell>
                <TableCell data-testid="log-type">{r.type}</TableCell>
                <TableCell className={styles.breakAll}>
                  <code>{r.path}</code>
                </TableCell>
                <TableCell className={styles.breakAll}>{r.target || '—'}</TableCell>
                <TableCell>
                  {r.path.startsWith('/ocpp/') ? (
                    // A charger's answer: what the charger said, as it said it.
                    <Badge appearance="tint" color="informative" title={r.executeResult} data-testid="log-result">
                      {r.executeResult}
                    </Badge>
                  ) : (
                    <Badge appearance="tint" color={r.code === 200 ? 'success' : 'danger'} title={r.executeResult} data-testid="log-result">
                      {r.code === 200 ? t('set.log.success') : `${t('set.log.failure')} ${r.code}`}
                    </Badge>
                  )}
                </TableCell>
                <TableCell>{r.ip || '—'}</TableCell>
              </TableRow>
            ))}
            <EmptyRow show={!isLoading && !rows.length} colSpan={7} />
          </TableBody>
        </Table>
        {isLoading && !data && <Spinner size="small" />}
      </div>
      {canLoadMore && (
        <div className={styles.group}>
          <Button onClick={() => void loadMore()} disabled={more.loading} data-testid="log-more">
            {t('set.log.loadMore')}
          </Button>
          <Caption1 className={styles.muted}>{t('set.log.numberedLimit')}</Caption1>
        </div>
      )}
      {total > reachable && <Caption1 className={styles.muted}>{t('set.log.totalNote', { total, reachable })}</Caption1>}
      {!!data?.refusedAnonymous24h && (
        <Caption1 className={styles.muted} data-testid="log-refused">
          {t('set.log.refusedAnonymous', { count: data.refusedAnonymous24h })}
        </Caption1>
      )}
      <Pager page={query.pageNo} pageSize={query.pageSize} total={reachable} onChange={(pageNo, pageSize) => change({ ...query, pageNo, pageSize })} />
    </Card>
  );
}
