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
import { addCard, CARD_STATUSES, deleteCard, editCard, getCards, importCards, useCards, type Card, type CardFilter, type CardInput, type CardStatus } from '@/api/chargers';
import { CARD_HEADERS, CARD_STATUS_WORDS, cardsFromSheet, expiryOf } from './cardSheet';
import { confirm } from '@/components/Confirm';
import { chinaDay, chinaDateTime } from '@/components/data/format';
import { exportExcel } from '@/components/data/excel';
import { Pager } from '@/components/data/Pager';
import type { ListColumn } from '@/components/list/columns';
import { useListParams } from '@/components/list/listParams';
import { ListTable } from '@/components/list/ListTable';
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

const EMPTY: CardInput = { idTag: '', holder: '', plate: '', status: 'Accepted', expiresAt: null, parentIdTag: null };

/** The card list's state in the URL: keyword, status, page. */
const LIST_DEFAULTS = { keyword: '', status: '', page: 1, size: 20 };
const ALLOWED = { status: ['', ...CARD_STATUSES] };

/** /connector/cards: the charging cards chargers authorize (OCPP idTags). */
export default function ChargingCards() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const canWrite = usePermission(['write:system']);
  const canDelete = usePermission(['delete:system']);
  // The filter lives in the URL; the header search opens a card as
  // /connector/cards?keyword=… (an open tab follows the address).
  const { params, set: setParams } = useListParams(LIST_DEFAULTS, { allowed: ALLOWED });
  const filter: CardFilter = params.keyword || params.status ? { keyword: params.keyword || undefined, status: (params.status || undefined) as CardStatus | undefined } : {};
  // The keyword being typed; it follows the URL when the URL changes.
  const [keyword, setKeyword] = useState(params.keyword);
  const [shownKeyword, setShownKeyword] = useState(params.keyword);
  if (shownKeyword !== params.keyword) {
    setShownKeyword(params.keyword);
    setKeyword(params.keyword);
  }
  const [editing, setEditing] = useState<{ card: CardInput; version?: number } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { data, isLoading, mutate } = useCards(filter, params.page, params.size);

  const set = (patch: Partial<CardFilter>) => setParams({ ...patch, page: 1 } as Partial<typeof LIST_DEFAULTS>);

  const remove = async (c: Card) => {
    if (!(await confirm(t('chg.card.confirmDelete', { idTag: c.idTag })))) return;
    await deleteCard(c.idTag);
    notify(t('chg.deleted'), 'success');
    await mutate();
  };

  const onImport = async (file: File) => {
    const mod = await import('exceljs');
    const ExcelJS = (mod as unknown as { default?: typeof mod }).default ?? mod;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await file.arrayBuffer());
    const sheet = wb.worksheets[0];
    const rows: unknown[][] = [];
    sheet?.eachRow({ includeEmpty: false }, (row) => rows.push((row.values as unknown[]).slice(1)));
    const read = cardsFromSheet(rows as never);
    if ('problem' in read) {
      notify(t('chg.card.importBad', { problem: read.problem }), 'error');
      return;
    }
    const r = await importCards(read.cards);
    notify(r.msg || t('chg.card.imported'), 'success');
    await mutate();
  };

  const onExport = async () => {
    const zh = !i18n.language.startsWith('en');
    await exportExcel<Card>({
      fileName: `cards-${filter.status || 'all'}-${chinaDay(Date.now() / 1000)}.xlsx`,
      sheetName: 'cards',
      columns: CARD_HEADERS.map((h) => ({
        header: zh ? h.zh : h.en,
        // The status in the reader's words, as the page shows it (an import reads them back).
        value: (c: Card) =>
          h.key === 'expiresAt' ? (c.expiresAt ? chinaDay(c.expiresAt) : '') : h.key === 'status' ? CARD_STATUS_WORDS[c.status][zh ? 'zh' : 'en'] : ((c[h.key] as string | null) ?? ''),
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
    { id: 'expiry', header: t('chg.card.expiry'), cell: (c) => (c.expiresAt ? chinaDay(c.expiresAt) : t('chg.card.never')) },
    { id: 'parent', header: t('chg.card.parent'), data: true, cell: (c) => c.parentIdTag ?? '' },
    {
      id: 'updated',
      header: t('chg.card.updated'),
      cell: (c) => (
        <Caption1 className={styles.muted}>
          {chinaDateTime(c.updatedAt)} · <DataText>{c.updatedBy}</DataText>
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
            <Button onClick={() => fileInput.current?.click()}>{t('chg.card.import')}</Button>
            <input ref={fileInput} type="file" accept=".xlsx" hidden onChange={(e) => e.target.files?.[0] && void onImport(e.target.files[0]).finally(() => (e.target.value = ''))} />
          </>
        )}
        <Button onClick={() => void onExport()}>{t('chg.export')}</Button>
      </div>
      {isLoading ? (
        <Spinner />
      ) : (
        <ListTable data-testid="card-table" columns={columns} rows={data?.list ?? []} rowKey={(c) => c.idTag} />
      )}
      <Pager page={params.page} pageSize={params.size} total={data?.total ?? 0} onChange={(page, size) => setParams({ page, size })} />
      {editing && <CardDialog initial={editing.card} version={editing.version} onClose={() => setEditing(null)} onSaved={() => void mutate()} />}
    </FluentCard>
  );
}

/** Add or edit one card, each field checked as it is left and on save. */
function CardDialog({ initial, version, onClose, onSaved }: { initial: CardInput; version?: number; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [card, setCard] = useState<CardInput>(initial);
  const [expiry, setExpiry] = useState(initial.expiresAt ? chinaDay(initial.expiresAt) : '');
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const editing = version !== undefined;
  const problems: Record<string, string | undefined> = {
    idTag: !/^[\x21-\x7e]{1,20}$/.test(card.idTag.trim()) ? t('chg.card.idTagRule') : undefined,
    expiry: expiry && expiryOf(expiry) === 'bad' ? t('chg.card.expiryRule') : undefined,
  };
  // A 400's fields (server names: idTag, holder, plate, expiresAt, parentIdTag), shown until edited.
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
            <Field label={t('chg.card.expiry')} hint={t('chg.card.expiryHint')} validationMessage={show('expiry')}>
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
