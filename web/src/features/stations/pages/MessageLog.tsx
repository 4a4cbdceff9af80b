import { Badge, Button, Caption1, Card, Dropdown, Field, makeStyles, Option, Spinner, Switch, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components';
import { Fragment, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { useMessageLog, type MessageLogEntry } from '../api/chargers';
import { zonedDateTimeSecs } from '@/components/data/format';
import { setTabLabel } from '@/store/tabs';
import { actionName, errorName } from '../components/commandWords';
import { eventSummary } from '../model/eventSummary';
import { frameTypeHex, hexBytes, ykcFrame, ykcFrameName } from '../model/ykc';

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
  // Hex wraps between bytes, never inside one.
  hex: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, whiteSpace: 'pre-wrap', wordBreak: 'normal', overflowWrap: 'normal', margin: 0, maxHeight: '320px', overflow: 'auto' },
  top: { verticalAlign: 'top' },
  raw: { marginTop: '6px', '& > summary': { cursor: 'pointer', color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 } },
  rawLabel: { display: 'block', marginTop: '4px', color: tokens.colorNeutralForeground3 },
  errorText: { display: 'block', maxWidth: '320px', whiteSpace: 'normal', color: tokens.colorNeutralForeground3 },
});

/** A YKC exchange (a binary protocol's frames, with their bytes): named and shown by frame. */
const isYkcEntry = (e: MessageLogEntry) => e.raw != null || ykcFrame(e.action) !== undefined;

/** The bytes of a YKC exchange behind a disclosure: the frame and the answer, in hex. */
function RawFrames({ raw }: { raw: NonNullable<MessageLogEntry['raw']> }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <details className={styles.raw} data-testid="log-raw">
      <summary>{t('ykc.log.raw')}</summary>
      <Caption1 className={styles.rawLabel}>{t('ykc.log.request')}</Caption1>
      <pre className={styles.hex} translate="no" data-testid="log-raw-request">
        {hexBytes(raw.request)}
      </pre>
      <Caption1 className={styles.rawLabel}>{t('ykc.log.answer')}</Caption1>
      <pre className={styles.hex} translate="no" data-testid="log-raw-response">
        {raw.response ? hexBytes(raw.response) : t('ykc.log.noAnswer')}
      </pre>
    </details>
  );
}

const pretty = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/** /connector/messageLog?pileId=&code=[&action=]: every OCPP exchange of one charger, newest first. */
export default function MessageLog() {
  const { t, i18n } = useTranslation();
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
              const ykc = isYkcEntry(e);
              const frame = ykc ? ykcFrame(e.action) : undefined;
              return (
                <Fragment key={k}>
                  <TableRow data-action={e.action ?? ''} data-protocol={ykc ? 'ykc' : 'ocpp'} data-testid="log-row">
                    <TableCell className={styles.nowrap} data-testid="log-time">
                      {zonedDateTimeSecs(e.at)}
                    </TableCell>
                    <TableCell className={styles.nowrap}>{e.direction === 'in' ? t('chg.log.in') : t('chg.log.out')}</TableCell>
                    <TableCell className={styles.nowrap} title={e.action ?? undefined} data-testid="log-action-name">
                      {e.action ? (ykc ? (ykcFrameName(e.action, i18n.resolvedLanguage ?? i18n.language) ?? e.action) : actionName(t, e.action)) : t('chg.log.unreadable')}
                      {frame && (
                        <Caption1 className={styles.id} translate="no" data-testid="log-frame-type">
                          {frameTypeHex(frame.frameType)} · {e.action}
                        </Caption1>
                      )}
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
                        <>
                          <Badge color={e.error.code === 'Timeout' || e.error.code === 'Offline' ? 'warning' : 'danger'} appearance="tint" title={e.error.code}>
                            {errorName(t, e.error.code)}
                          </Badge>
                          {/* A YKC refusal (bytes the decoder refused or skipped) says why beside its code. */}
                          {ykc && (
                            <Caption1 className={styles.errorText} data-testid="log-error">
                              <span translate="no">{e.error.code}</span>: {e.error.description}
                            </Caption1>
                          )}
                        </>
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
                    <TableRow data-testid="log-detail">
                      <TableCell colSpan={3} className={styles.top}>
                        {ykc && <Caption1 className={styles.rawLabel}>{t('ykc.log.fields')}</Caption1>}
                        <pre className={styles.json} translate="no" data-testid="log-request">{pretty(e.request)}</pre>
                        {e.raw && <RawFrames raw={e.raw} />}
                      </TableCell>
                      <TableCell colSpan={3} className={styles.top}>
                        {ykc && <Caption1 className={styles.rawLabel}>{t('ykc.log.answerFields')}</Caption1>}
                        <pre className={styles.json} translate="no" data-testid="log-response">{e.error ? `${e.error.code}: ${e.error.description}` : e.response == null && ykc ? t('ykc.log.noAnswer') : pretty(e.response)}</pre>
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
