import {
  Badge,
  Button,
  Caption1,
  Card as FluentCard,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Input,
  makeStyles,
  Option,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataText } from '@/components/data/DataText';
import { addCard, CARD_STATUSES, deleteCard, editCard, getCards, TOKEN_TYPES, topUpCard, useCardLedger, useCards, useLowBalance, type Card, type CardFilter, type CardInput, type CardPayment, type CardStatus, type TokenType } from '../api/chargers';
import { CARD_HEADERS, CARD_STATUS_WORDS, expiryOf } from '../model/cardSheet';
import { importWorkbook } from '../model/cardImport';
import { confirm } from '@/components/Confirm';
import { chinaDay, parseYuan, yuan, zonedDateTime, zonedDay, zoneLabel } from '@/components/data/format';
import { exportExcel } from '@/components/data/excel';
import type { ListColumn } from '@/components/list/columns';
import { ListTable } from '@/components/list/ListTable';
import { ListView } from '@/components/list/ListView';
import { useListPage } from '@/components/list/useListPage';
import { usePermission } from '@/components/Permission';
import { fieldProblems, RequestError } from '@/api/request';
import { clearErrorToasts, notify } from '@/utils/notify';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  filters: { display: 'flex', flexWrap: 'wrap', gap: '8px 12px', alignItems: 'end' },
  grow: { flexGrow: 1 },
  muted: { color: tokens.colorNeutralForeground3 },
  form: { display: 'grid', gap: '10px' },
});

const STATUS_COLOR: Record<CardStatus, 'success' | 'danger' | 'warning' | 'subtle'> = { Accepted: 'success', Blocked: 'danger', Expired: 'warning', Invalid: 'subtle' };

const EMPTY: CardInput = { idTag: '', holder: '', plate: '', status: 'Accepted', expiresAt: null, parentIdTag: null, payment: 'postpaid', tokenType: null };
const PAYMENTS: CardPayment[] = ['postpaid', 'prepaid'];

/** The card list's state in the URL: keyword, status, page. */
const LIST_DEFAULTS = { keyword: '', status: '', page: 1, size: 20 };
const ALLOWED = { status: ['', ...CARD_STATUSES] };
const filterOf = (p: typeof LIST_DEFAULTS): CardFilter => (p.keyword || p.status ? { keyword: p.keyword || undefined, status: (p.status || undefined) as CardStatus | undefined } : {});
const useCardList = (p: typeof LIST_DEFAULTS) => useCards(filterOf(p), p.page, p.size);

/** /connector/cards: the charging cards chargers authorize (OCPP idTags). */
export default function ChargingCards() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const canWrite = usePermission(['write:system']);
  const canDelete = usePermission(['delete:system']);
  // Taking money in is finance's (approve:refund), like settling an order.
  const canTopUp = usePermission(['approve:refund']);
  const [topUp, setTopUp] = useState<Card | null>(null);
  const [ledgerOf, setLedgerOf] = useState<Card | null>(null);
  const [lowOpen, setLowOpen] = useState(false);
  // The filter lives in the URL; the header search opens a card as
  // /connector/cards?keyword=… (an open tab follows the address).
  const list = useListPage(LIST_DEFAULTS, useCardList, { allowed: ALLOWED });
  const { params, mutate } = list;
  const filter = filterOf(params);
  // The keyword being typed; it follows the URL when the URL changes.
  const [keyword, setKeyword] = useState(params.keyword);
  const [shownKeyword, setShownKeyword] = useState(params.keyword);
  if (shownKeyword !== params.keyword) {
    setShownKeyword(params.keyword);
    setKeyword(params.keyword);
  }
  const [editing, setEditing] = useState<{ card: CardInput; version?: number } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const set = (patch: Partial<CardFilter>) => list.filterBy(patch as Partial<typeof LIST_DEFAULTS>);

  const remove = async (c: Card) => {
    if (!(await confirm(t('chg.card.confirmDelete', { idTag: c.idTag })))) return;
    await deleteCard(c.idTag);
    notify(t('chg.deleted'), 'success');
    await mutate();
  };

  // Every problem of an import, in the reader's language; null when none is shown.
  const [importProblems, setImportProblems] = useState<string[] | null>(null);
  const onImport = async (file: File) => {
    const lines = await importWorkbook(file, t, i18n.language.startsWith('zh'));
    if (lines === null) {
      await mutate();
      return;
    }
    setImportProblems(lines);
  };

  const onExport = async () => {
    const zh = !i18n.language.startsWith('en');
    await exportExcel<Card>({
      fileName: `cards-${filter.status || 'all'}-${chinaDay(Date.now() / 1000)}.xlsx`,
      sheetName: 'cards',
      columns: CARD_HEADERS.map((h) => ({
        header: zh ? h.zh : h.en,
        // The status and payment in the reader's words, as the page shows them (an import reads them back).
        value: (c: Card) =>
          h.key === 'expiresAt'
            ? c.expiresAt
              ? zonedDay(c.expiresAt)
              : ''
            : h.key === 'status'
              ? CARD_STATUS_WORDS[c.status][zh ? 'zh' : 'en']
              : h.key === 'payment'
                ? t(`chg.card.payment.${c.payment}`)
                : ((c[h.key] as string | null) ?? ''),
        width: 16,
      })),
      fetchPage: async (cursor) => {
        const no = cursor ? Number(cursor) : 1;
        const p = await getCards(filter, no, 200);
        return { rows: p.list, cursor: no * 200 < p.total ? String(no + 1) : null };
      },
    });
  };

  const columns: ListColumn<Card>[] = [
    { id: 'idTag', header: t('chg.card.idTag'), data: true, cell: (c) => c.idTag },
    { id: 'holder', header: t('chg.card.holder'), data: true, cell: (c) => c.holder },
    { id: 'plate', header: t('chg.card.plate'), data: true, cell: (c) => c.plate },
    {
      id: 'status',
      header: t('chg.card.status'),
      cell: (c) => (
        <Badge appearance="tint" color={STATUS_COLOR[c.status]}>
          {t(`chg.cardStatus.${c.status}`)}
        </Badge>
      ),
    },
    { id: 'expiry', header: t('chg.card.expiry'), cell: (c) => (c.expiresAt ? zonedDay(c.expiresAt) : t('chg.card.never')) },
    { id: 'parent', header: t('chg.card.parent'), data: true, cell: (c) => c.parentIdTag ?? '' },
    { id: 'payment', header: t('chg.card.paymentTitle'), testId: 'card-payment', cell: (c) => <PaymentCell c={c} /> },
    { id: 'tokenType', header: t('chg.card.tokenType'), cell: (c) => (c.tokenType ? t(`chg.card.tokenTypes.${c.tokenType}`) : t('chg.card.anyToken')) },
    {
      id: 'updated',
      header: t('chg.card.updated'),
      cell: (c) => (
        <Caption1 className={styles.muted}>
          {zonedDateTime(c.updatedAt)} · <DataText>{c.updatedBy}</DataText>
        </Caption1>
      ),
    },
    {
      id: 'actions',
      header: t('chg.actions'),
      cell: (c) => (
        <>
          {canWrite && (
            <Button size="small" appearance="subtle" onClick={() => setEditing({ card: { ...c }, version: c.version })}>
              {t('chg.edit')}
            </Button>
          )}
          {canDelete && (
            <Button size="small" appearance="subtle" onClick={() => void remove(c)} data-testid={`card-delete-${c.idTag}`}>
              {t('chg.delete')}
            </Button>
          )}
          {c.payment === 'prepaid' && canTopUp && (
            <Button size="small" appearance="subtle" onClick={() => setTopUp(c)} data-testid={`card-top-up-${c.idTag}`}>
              {t('chg.card.topUp')}
            </Button>
          )}
          {c.payment === 'prepaid' && (
            <Button size="small" appearance="subtle" onClick={() => setLedgerOf(c)} data-testid={`card-ledger-${c.idTag}`}>
              {t('chg.card.ledger')}
            </Button>
          )}
        </>
      ),
    },
  ];

  return (
    <FluentCard className={styles.card}>
      <div className={styles.filters}>
        <Field label={t('chg.card.keyword')} hint={t('chg.card.keywordHint')}>
          <Input value={keyword} maxLength={20} onChange={(_, d) => setKeyword(d.value)} onKeyDown={(e) => e.key === 'Enter' && set({ keyword })} data-testid="card-keyword" />
        </Field>
        <Button onClick={() => set({ keyword })} data-testid="card-search">
          {t('chg.search')}
        </Button>
        <Field label={t('chg.card.status')}>
          <Dropdown aria-label={t('chg.card.status')} value={filter.status ? t(`chg.cardStatus.${filter.status}`) : t('chg.any')} selectedOptions={[filter.status ?? '']} onOptionSelect={(_, d) => set({ status: (d.optionValue ?? '') as CardStatus | '' })}>
            <Option value="">{t('chg.any')}</Option>
            {CARD_STATUSES.map((s) => (
              <Option key={s} value={s}>
                {t(`chg.cardStatus.${s}`)}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <span className={styles.grow} />
        {canWrite && (
          <>
            <Button appearance="primary" onClick={() => setEditing({ card: { ...EMPTY } })} data-testid="card-add">
              {t('chg.card.add')}
            </Button>
            <Button onClick={() => fileInput.current?.click()} data-testid="card-import">
              {t('chg.card.import')}
            </Button>
            <input ref={fileInput} type="file" accept=".xlsx" hidden data-testid="card-import-file" onChange={(e) => e.target.files?.[0] && void onImport(e.target.files[0]).finally(() => (e.target.value = ''))} />
          </>
        )}
        <Button onClick={() => setLowOpen(true)} data-testid="card-low-balance">
          {t('chg.card.lowBalance')}
        </Button>
        <Button onClick={() => void onExport()}>{t('chg.export')}</Button>
      </div>
      <ListView list={list} spinner="medium" data-testid="card-table" columns={columns} rowKey={(c) => c.idTag} />
      {editing && <CardDialog initial={editing.card} version={editing.version} onClose={() => setEditing(null)} onSaved={() => void mutate()} />}
      {importProblems && <ImportProblemsDialog lines={importProblems} onClose={() => setImportProblems(null)} />}
      {topUp && <TopUpDialog card={topUp} onClose={() => setTopUp(null)} onDone={() => void mutate()} />}
      {ledgerOf && <LedgerDialog card={ledgerOf} onClose={() => setLedgerOf(null)} />}
      {lowOpen && <LowBalanceDialog canTopUp={canTopUp} onTopUp={(c) => setTopUp(c)} onClose={() => setLowOpen(false)} />}
    </FluentCard>
  );
}

/** Add or edit one card, each field checked as it is left and on save. */
function CardDialog({ initial, version, onClose, onSaved }: { initial: CardInput; version?: number; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [card, setCard] = useState<CardInput>(initial);
  const [expiry, setExpiry] = useState(initial.expiresAt ? zonedDay(initial.expiresAt) : '');
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const editing = version !== undefined;
  const problems: Record<string, string | undefined> = {
    idTag: !/^[\x21-\x7e]{1,20}$/.test(card.idTag.trim()) ? t('chg.card.idTagRule') : undefined,
    expiry: expiry && expiryOf(expiry) === 'bad' ? t('chg.card.expiryRule') : undefined,
  };
  // A 400's fields (server names: idTag, holder, plate, expiresAt, parentIdTag, payment), shown until edited.
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const show = (k: string) => serverFields[k] ?? (touched[k] ? problems[k] : undefined);
  const edited = (k: string) => setServerFields(({ [k]: _, ...rest }) => rest);
  const save = async () => {
    setTouched({ idTag: true, expiry: true });
    if (Object.values(problems).some(Boolean)) return;
    const exp = expiryOf(expiry);
    const body = { ...card, idTag: card.idTag.trim(), expiresAt: exp === 'bad' ? null : exp, parentIdTag: card.parentIdTag?.trim() || null };
    try {
      if (editing) await editCard({ ...body, version: version! }, { fieldErrors: true });
      else await addCard(body, { fieldErrors: true });
      // The earlier attempts' error toasts are stale now.
      clearErrorToasts();
      notify(t('chg.saved'), 'success');
      onSaved();
      onClose();
    } catch (e) {
      const named = e instanceof RequestError && Number(e.code) === 400 ? fieldProblems(e.body) : [];
      if (named.length) {
        const zh = i18n.language.startsWith('zh');
        const onForm: Record<string, string> = {};
        for (const p of named) onForm[p.field === 'expiresAt' ? 'expiry' : p.field] ??= zh ? p.zh : p.en;
        setServerFields(onForm);
        setServerError(null);
      } else setServerError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="card-dialog">
        <DialogBody>
          <DialogTitle>{editing ? t('chg.card.edit') : t('chg.card.add')}</DialogTitle>
          <DialogContent className={styles.form}>
            <Field label={t('chg.card.idTag')} required validationMessage={show('idTag')}>
              <Input value={card.idTag} maxLength={20} disabled={editing} onChange={(_, d) => {
                  setCard({ ...card, idTag: d.value });
                  edited('idTag');
                }} onBlur={() => setTouched({ ...touched, idTag: true })} data-testid="card-idtag" />
            </Field>
            <Field label={t('chg.card.holder')} validationMessage={show('holder')}>
              <Input
                value={card.holder}
                maxLength={50}
                onChange={(_, d) => {
                  setCard({ ...card, holder: d.value });
                  edited('holder');
                }}
                data-testid="card-holder"
              />
            </Field>
            <Field label={t('chg.card.plate')} validationMessage={show('plate')}>
              <Input
                value={card.plate}
                maxLength={16}
                onChange={(_, d) => {
                  setCard({ ...card, plate: d.value });
                  edited('plate');
                }}
              />
            </Field>
            <Field label={t('chg.card.status')} required>
              <Dropdown value={t(`chg.cardStatus.${card.status}`)} selectedOptions={[card.status]} onOptionSelect={(_, d) => setCard({ ...card, status: d.optionValue as CardStatus })} data-testid="card-status">
                {CARD_STATUSES.map((s) => (
                  <Option key={s} value={s}>
                    {t(`chg.cardStatus.${s}`)}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Field label={t('chg.card.paymentTitle')} hint={t('chg.card.paymentHint')} validationMessage={show('payment')}>
              <Dropdown
                value={t(`chg.card.payment.${card.payment}`)}
                selectedOptions={[card.payment]}
                onOptionSelect={(_, d) => {
                  setCard({ ...card, payment: d.optionValue as CardPayment });
                  edited('payment');
                }}
                data-testid="card-payment-select"
              >
                {PAYMENTS.map((p) => (
                  <Option key={p} value={p}>
                    {t(`chg.card.payment.${p}`)}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Field label={t('chg.card.tokenType')} hint={t('chg.card.tokenTypeHint')} validationMessage={show('tokenType')}>
              <Dropdown
                value={card.tokenType ? t(`chg.card.tokenTypes.${card.tokenType}`) : t('chg.card.anyToken')}
                selectedOptions={[card.tokenType ?? '']}
                onOptionSelect={(_, d) => {
                  setCard({ ...card, tokenType: (d.optionValue || null) as TokenType | null });
                  edited('tokenType');
                }}
                data-testid="card-token-type"
              >
                <Option value="">{t('chg.card.anyToken')}</Option>
                {TOKEN_TYPES.map((k) => (
                  <Option key={k} value={k}>
                    {t(`chg.card.tokenTypes.${k}`)}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Field label={t('chg.card.expiry')} hint={`${t('chg.card.expiryHint')} · ${t('chg.op.zoneHint', { zone: zoneLabel() })}`} validationMessage={show('expiry')}>
              <Input type="date" value={expiry} onChange={(_, d) => {
                  setExpiry(d.value);
                  edited('expiry');
                }} onBlur={() => setTouched({ ...touched, expiry: true })} />
            </Field>
            <Field label={t('chg.card.parent')} hint={t('chg.card.parentHint')} validationMessage={show('parentIdTag')}>
              <Input
                value={card.parentIdTag ?? ''}
                maxLength={20}
                onChange={(_, d) => {
                  setCard({ ...card, parentIdTag: d.value });
                  edited('parentIdTag');
                }}
              />
            </Field>
            {serverError && <Caption1 style={{ color: tokens.colorPaletteRedForeground1 }}>{serverError}</Caption1>}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button appearance="primary" onClick={() => void save()} data-testid="card-save">
              {t('chg.save')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** How a card pays: postpaid, or prepaid with its balance (and what running sessions hold of it). */
function PaymentCell({ c }: { c: Card }) {
  const { t } = useTranslation();
  if (c.payment !== 'prepaid') return <>{t('chg.card.payment.postpaid')}</>;
  return (
    <span style={{ whiteSpace: 'nowrap', color: c.balanceFen - c.heldFen < 0 ? tokens.colorPaletteRedForeground1 : undefined }}>
      {t('chg.card.payment.prepaid')} · {t('chg.card.balanceIs', { amount: yuan(c.balanceFen) })}
      {c.heldFen > 0 ? ` · ${t('chg.card.heldIs', { amount: yuan(c.heldFen) })}` : ''}
    </span>
  );
}

/** Every problem of an import at once; nothing was written. */
function ImportProblemsDialog({ lines, onClose }: { lines: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="import-problems">
        <DialogBody>
          <DialogTitle>{t('chg.card.sheet.title', { count: lines.length })}</DialogTitle>
          <DialogContent>
            <Caption1>{t('chg.card.sheet.hint')}</Caption1>
            <ul data-testid="import-problem-list" style={{ maxHeight: '50vh', overflowY: 'auto', paddingInlineStart: '20px' }}>
              {lines.map((l, i) => (
                <li key={i}>{l}</li>
              ))}
            </ul>
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              {t('common.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** Adds money to a prepaid card (finance): the amount in yuan and a note (how it was paid). */
function TopUpDialog({ card, onClose, onDone }: { card: Card; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const fen = parseYuan(amount);
  const save = async () => {
    if (fen === null || fen <= 0) {
      setProblem(t('chg.card.topUpAmountRule'));
      return;
    }
    try {
      const res = await topUpCard(card.idTag, fen, note.trim());
      notify(res.msg, 'success');
      onDone();
      onClose();
    } catch (e) {
      const named = e instanceof RequestError && Number(e.code) === 400 ? fieldProblems(e.body) : [];
      if (named.length) setProblem(named.map((p) => (i18n.language.startsWith('zh') ? p.zh : p.en)).join('；'));
    }
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="top-up-dialog">
        <DialogBody>
          <DialogTitle>{t('chg.card.topUpTitle', { idTag: card.idTag, holder: card.holder })}</DialogTitle>
          <DialogContent className={styles.form}>
            <Caption1>{t('chg.card.balanceIs', { amount: yuan(card.balanceFen) })}</Caption1>
            <Field label={t('chg.card.topUpAmount')} required validationMessage={problem ?? undefined}>
              <Input
                value={amount}
                inputMode="decimal"
                onChange={(_, d) => {
                  setAmount(d.value);
                  setProblem(null);
                }}
                data-testid="top-up-amount"
              />
            </Field>
            <Field label={t('chg.card.topUpNote')} hint={t('chg.card.topUpNoteHint')}>
              <Input value={note} maxLength={200} onChange={(_, d) => setNote(d.value)} data-testid="top-up-note" />
            </Field>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button appearance="primary" onClick={() => void save()} data-testid="top-up-save">
              {t('chg.card.topUp')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** A prepaid card's top-ups (who, when) and the sessions paid from its balance. */
function LedgerDialog({ card, onClose }: { card: Card; onClose: () => void }) {
  const { t } = useTranslation();
  const { data } = useCardLedger(card.idTag);
  const columns: ListColumn<NonNullable<typeof data>['list'][number]>[] = [
    { id: 'at', header: t('chg.card.ledgerCols.at'), cell: (e) => zonedDateTime(e.at) },
    { id: 'kind', header: t('chg.card.ledgerCols.kind'), cell: (e) => t(`chg.card.ledgerKind.${e.kind}`) },
    { id: 'amount', header: t('chg.card.ledgerCols.amount'), numeric: true, cell: (e) => yuan(e.amountFen) },
    { id: 'balance', header: t('chg.card.ledgerCols.balance'), numeric: true, cell: (e) => yuan(e.balanceFen) },
    { id: 'what', header: t('chg.card.ledgerCols.what'), cell: (e) => <span style={{ wordBreak: 'break-all' }}>{e.orderNo ?? e.note ?? ''}</span> },
    { id: 'by', header: t('chg.card.ledgerCols.by'), cell: (e) => (e.kind === 'session' ? t('chg.card.ledgerKind.charger') : e.by) },
  ];
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="card-ledger-dialog" style={{ maxWidth: '960px' }}>
        <DialogBody>
          <DialogTitle>{t('chg.card.ledgerTitle', { idTag: card.idTag })}</DialogTitle>
          <DialogContent>
            {!data ? <Spinner size="small" /> : <ListTable data-testid="card-ledger" columns={columns} rows={data.list} rowKey={(e) => `${e.at}-${e.kind}-${e.amountFen}-${e.orderNo ?? ''}`} />}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.close')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** Prepaid cards below the minimum to start a session, lowest first, with a top-up for finance. */
function LowBalanceDialog({ canTopUp, onTopUp, onClose }: { canTopUp: boolean; onTopUp: (c: Card) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { data } = useLowBalance(true);
  const columns: ListColumn<Card>[] = [
    { id: 'idTag', header: t('chg.card.idTag'), cell: (c) => c.idTag },
    { id: 'holder', header: t('chg.card.holder'), cell: (c) => c.holder },
    { id: 'balance', header: t('chg.card.ledgerCols.balance'), numeric: true, cell: (c) => yuan(c.balanceFen) },
    { id: 'held', header: t('chg.card.held'), numeric: true, cell: (c) => yuan(c.heldFen) },
    {
      id: 'actions',
      header: '',
      cell: (c) =>
        canTopUp ? (
          <Button size="small" appearance="subtle" onClick={() => onTopUp(c)}>
            {t('chg.card.topUp')}
          </Button>
        ) : null,
    },
  ];
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="low-balance-dialog" style={{ maxWidth: '760px' }}>
        <DialogBody>
          <DialogTitle>{t('chg.card.lowBalanceTitle', { amount: yuan(data?.belowFen ?? 0) })}</DialogTitle>
          <DialogContent>
            {!data ? <Spinner size="small" /> : <ListTable data-testid="low-balance" columns={columns} rows={data.list} rowKey={(c) => c.idTag} />}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.close')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
