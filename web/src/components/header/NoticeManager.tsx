import {
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Radio,
  RadioGroup,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveNotice, usePublishedNotices, withdrawNotice, type NoticeDraft, type NoticeItem } from '@/api/notice';
import { zonedDateTimeSecs } from '@/components/data/format';
import { confirmDelete, EmptyRow, FormDialog, isConflict } from '@/components/forms/ui';
import { notify } from '@/utils/notify';
import { NOTICE_MAX, validateNoticeDraft } from './noticeLogic';

const useStyles = makeStyles({
  surface: { maxWidth: '860px', width: '92vw' },
  toolbar: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: '8px' },
  scroll: { maxHeight: '55vh', overflow: 'auto' },
  table: { minWidth: '560px' },
  text: { '& a': { color: tokens.colorBrandForeground1 }, wordBreak: 'break-word' },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', columnGap: '4px' },
});

const EMPTY_DRAFT: NoticeDraft = { type: 'notice', notice: '', email: '' };

/**
 * Every published notice with publish, edit and withdraw: the body of the
 * publishers' dialog (from the bell) and of the notice page (from the menu).
 * `active` false: not asked. `publishing` opens the publish form at once.
 */
export function PublishedNotices({ active, onChanged, publishing = false, onPublishingDone }: { active: boolean; onChanged: () => void; publishing?: boolean; onPublishingDone?: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const published = usePublishedNotices(active);
  // The notice being edited (null: publishing a new one); undefined: no form open.
  const [editing, setEditing] = useState<NoticeItem | null | undefined>(undefined);
  // Asked to publish from outside (the bell's button): the publish form, until it closes.
  const form = publishing ? null : editing;
  const changed = () => {
    void published.mutate();
    onChanged();
  };
  const withdraw = async (n: NoticeItem) => {
    const plain = n.notice.replace(/<[^>]*>/g, '').slice(0, 40);
    if ((await confirmDelete(t('notice.withdrawConfirm', { text: plain }), () => withdrawNotice(n.id))) !== 'cancelled') changed();
  };
  const rows = published.data?.list ?? [];
  return (
    <>
      <div className={styles.toolbar}>
        <Caption1 className={styles.muted}>{t('notice.manageHint')}</Caption1>
        <Button appearance="primary" onClick={() => setEditing(null)} data-testid="notice-publish">
          {t('notice.publish')}
        </Button>
      </div>
      <div className={styles.scroll}>
        <Table size="small" aria-label={t('notice.manageTitle')} className={styles.table}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell style={{ width: '80px' }}>{t('notice.form.type')}</TableHeaderCell>
              <TableHeaderCell>{t('notice.form.text')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '110px' }}>{t('notice.author')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '150px' }}>{t('notice.time')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '150px' }} />
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((n) => (
              <TableRow key={n.id} data-testid="managed-notice">
                <TableCell>{n.type === 'email' ? t('notice.email') : t('notice.notice')}</TableCell>
                <TableCell translate="no">
                  {/* Sanitised by the server. */}
                  <div className={styles.text} dangerouslySetInnerHTML={{ __html: n.notice }} />
                </TableCell>
                <TableCell translate="no">{n.author || '—'}</TableCell>
                <TableCell className={styles.muted}>{zonedDateTimeSecs(n.updatedAt ?? n.createdAt)}</TableCell>
                <TableCell>
                  <div className={styles.actions}>
                    <Button size="small" onClick={() => setEditing(n)} data-testid="notice-edit">
                      {t('notice.edit')}
                    </Button>
                    <Button size="small" onClick={() => void withdraw(n)} data-testid="notice-withdraw">
                      {t('notice.withdraw')}
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
            <EmptyRow show={!published.isLoading && !rows.length} colSpan={5} />
          </TableBody>
        </Table>
        {published.isLoading && <Spinner size="small" />}
      </div>
      <NoticeForm
        notice={form}
        onClose={(saved) => {
          setEditing(undefined);
          if (publishing) onPublishingDone?.();
          if (saved) changed();
        }}
      />
    </>
  );
}

/**
 * The publishers' dialog: every published notice, publish, edit, withdraw.
 * `publishing`: the publish form is open on top (`onPublishingDone` when it closes).
 */
export function NoticeManager({ open, onClose, onChanged, publishing = false, onPublishingDone }: { open: boolean; onClose: () => void; onChanged: () => void; publishing?: boolean; onPublishingDone?: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <Dialog open={open} onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface className={styles.surface} data-testid="notice-manager">
        <DialogBody>
          <DialogTitle>{t('notice.manageTitle')}</DialogTitle>
          <DialogContent>
            <PublishedNotices active={open} onChanged={onChanged} publishing={open && publishing} onPublishingDone={onPublishingDone} />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} data-testid="notice-manager-close">
              {t('common.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** Publish (notice null) or edit a notice; undefined: closed. */
function NoticeForm({ notice, onClose }: { notice: NoticeItem | null | undefined; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<NoticeDraft>(EMPTY_DRAFT);
  const [errors, setErrors] = useState<{ notice?: string; email?: string }>({});
  const [busy, setBusy] = useState(false);
  const [shownFor, setShownFor] = useState<NoticeItem | null | undefined>(undefined);
  // A new form starts from the notice it edits (or empty).
  if (shownFor !== notice) {
    setShownFor(notice);
    setDraft(notice ? { type: notice.type, notice: notice.notice, email: notice.email ?? '' } : EMPTY_DRAFT);
    setErrors({});
  }
  const save = async () => {
    const found = validateNoticeDraft(draft);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const { msg } = await saveNotice({ ...draft, email: draft.email.trim() }, notice ? { id: notice.id, version: notice.version } : undefined);
      notify(msg || t('set.common.saved'), 'success');
      onClose(true);
    } catch (err) {
      // Someone else changed or withdrew it: the list is reloaded.
      if (isConflict(err)) onClose(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open={notice !== undefined}
      title={notice ? t('notice.editTitle') : t('notice.publishTitle')}
      busy={busy}
      onCancel={() => onClose(false)}
      onSave={() => void save()}
      testId="notice-form"
    >
      <Field label={t('notice.form.type')}>
        <RadioGroup layout="horizontal" value={draft.type} onChange={(_, d) => setDraft({ ...draft, type: d.value as NoticeDraft['type'] })}>
          <Radio value="notice" label={t('notice.notice')} />
          <Radio value="email" label={t('notice.email')} />
        </RadioGroup>
      </Field>
      <Field label={t('notice.form.text')} required hint={t('notice.form.textHint')} validationMessage={errors.notice ? t(errors.notice, { max: NOTICE_MAX }) : undefined}>
        <Textarea name="notice" rows={5} value={draft.notice} onChange={(_, d) => setDraft({ ...draft, notice: d.value })} />
      </Field>
      <Field label={t('notice.form.sender')} validationMessage={errors.email ? t(errors.email) : undefined}>
        <Input name="sender" value={draft.email} onChange={(_, d) => setDraft({ ...draft, email: d.value })} />
      </Field>
    </FormDialog>
  );
}
