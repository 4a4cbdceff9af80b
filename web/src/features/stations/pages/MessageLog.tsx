import { Badge, Button, Caption1, Card, Dropdown, Field, makeStyles, Option, Spinner, Switch, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components';
import { Fragment, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { useMessageLog, type MessageLogEntry } from '../api/chargers';
import { zonedDateTimeSecs } from '@/components/data/format';
import { setTabLabel } from '@/store/tabs';
import { actionName, errorName } from '../components/commandWords';
import { eventSummary } from '../model/eventSummary';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  filters: { display: 'flex', flexWrap: 'wrap', gap: '8px 16px', alignItems: 'end' },
  json: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0, maxHeight: '320px', overflow: 'auto' },
  muted: { color: tokens.colorNeutralForeground3 },
  nowrap: { whiteSpace: 'nowrap' },
  // A long message id is cut with an ellipsis (whole in its tooltip) instead of running into the next column.
  idCell: { maxWidth: '180px' },
  id: { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: tokens.colorNeutralForeground3 },
  table: { tableLayout: 'auto' },
  wrap: { overflowX: 'auto', maxWidth: '100%' },
});

const pretty = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/** /connector/messageLog?pileId=&code=[&action=]: every OCPP exchange of one charger, newest first. */
export default function MessageLog() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [params] = useSearchParams();
  const pileId = params.get('pileId') ?? '';
  // One tab per charger (its address is the tab's key), so the filter lives
  // in the page: a new address would open another tab. A link may still
  // preset it with ?action=.
  const [action, setAction] = useState(params.get('action') ?? '');
  const [live, setLive] = useState(false);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const { data, size, setSize, isLoading, mutate } = useMessageLog(pileId, action, live);
  const entries: MessageLogEntry[] = (data ?? []).flatMap((p) => p.list);
  // The server's list of every action sent or received (first page), kept while a filter reloads it.
  const [actions, setActions] = useState<string[]>([]);
  const listed = data?.[0]?.actions;
  useEffect(() => {
    if (listed?.length) setActions(listed);
  }, [listed]);
  // The tab and the title read the pile's code, never its internal id.
  const code = params.get('code') || data?.[0]?.pileCode || '';
  const location = useLocation();
  useEffect(() => setTabLabel(location.pathname + location.search, code), [location.pathname, location.search, code]);
  const more = !!data?.[data.length - 1]?.cursor;
  const toggle = (k: string) => setOpen((s) => {
    const n = new Set(s);
    if (n.has(k)) n.delete(k);
    else n.add(k);
    return n;
  });

  if (!pileId) return <Card className={styles.card}>{t('chg.log.noPile')}</Card>;
  return (
    <Card className={styles.card}>
      <div className={styles.filters}>
        <Caption1 data-testid="log-title">{t('chg.log.title', { code })}</Caption1>
        <Field label={t('chg.log.action')}>
          <Dropdown aria-label={t('chg.log.action')} value={action ? actionName(t, action) : t('chg.any')} selectedOptions={[action]} onOptionSelect={(_, d) => setAction(d.optionValue ?? '')} data-testid="log-action">
            <Option value="">{t('chg.any')}</Option>
            {actions.map((a) => (
              <Option key={a} value={a} text={actionName(t, a)} data-action={a}>
                {actionName(t, a)}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Button onClick={() => void mutate()}>{t('chg.log.refresh')}</Button>
        <Switch checked={live} onChange={(_, d) => setLive(d.checked)} label={t('chg.log.auto')} />
      </div>
      {isLoading ? (
        <Spinner />
      ) : (
        <div className={styles.wrap}>
        <Table size="small" className={styles.table} data-testid="log-table">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('chg.log.time')}</TableHeaderCell>
              <TableHeaderCell>{t('chg.log.direction')}</TableHeaderCell>
              <TableHeaderCell>{t('chg.log.action')}</TableHeaderCell>
              <TableHeaderCell>{t('chg.log.messageId')}</TableHeaderCell>
              <TableHeaderCell>{t('chg.log.result')}</TableHeaderCell>
              <TableHeaderCell />
            </TableRow>
          </TableHeader>
          <TableBody>
            {entries.length === 0 && (
              <TableRow>
                <TableCell colSpan={6} className={styles.muted}>
                  {t('chg.log.empty')}
                </TableCell>
              </TableRow>
            )}
            {entries.map((e, i) => {
              const k = `${e.at}-${e.messageId}-${i}`;
              return (
                <Fragment key={k}>
                  <TableRow data-action={e.action ?? ''}>
                    <TableCell className={styles.nowrap} data-testid="log-time">
                      {zonedDateTimeSecs(e.at)}
                    </TableCell>
                    <TableCell className={styles.nowrap}>{e.direction === 'in' ? t('chg.log.in') : t('chg.log.out')}</TableCell>
                    <TableCell className={styles.nowrap} title={e.action ?? undefined}>
                      {e.action ? actionName(t, e.action) : t('chg.log.unreadable')}
                      {e.action === 'NotifyEvent' && (
                        <Caption1 className={styles.id} translate="no" data-testid="log-event-summary">
                          {' '}
                          {eventSummary(e.request)}
                        </Caption1>
                      )}
                    </TableCell>
                    <TableCell className={styles.idCell}>
                      <Caption1 className={styles.id} title={e.messageId ?? undefined} translate="no" data-testid="log-message-id">
                        {e.messageId ?? ''}
                      </Caption1>
                    </TableCell>
                    <TableCell className={styles.nowrap}>
                      {e.error ? (
                        <Badge color={e.error.code === 'Timeout' || e.error.code === 'Offline' ? 'warning' : 'danger'} appearance="tint" title={e.error.code}>
                          {errorName(t, e.error.code)}
                        </Badge>
                      ) : (
                        <Badge color="success" appearance="tint">
                          {t('chg.log.answered')}
                        </Badge>
                      )}
                    </TableCell>
                    <TableCell>
                      <Button size="small" appearance="subtle" onClick={() => toggle(k)}>
                        {open.has(k) ? t('chg.log.hide') : t('chg.log.show')}
                      </Button>
                    </TableCell>
                  </TableRow>
                  {open.has(k) && (
                    <TableRow>
                      <TableCell colSpan={3}>
                        <pre className={styles.json} translate="no">{pretty(e.request)}</pre>
                      </TableCell>
                      <TableCell colSpan={3}>
                        <pre className={styles.json} translate="no">{e.error ? `${e.error.code}: ${e.error.description}` : pretty(e.response)}</pre>
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              );
            })}
          </TableBody>
        </Table>
        </div>
      )}
      {more && (
        <Button onClick={() => void setSize(size + 1)} data-testid="log-more">
          {t('chg.log.more')}
        </Button>
      )}
    </Card>
  );
}
