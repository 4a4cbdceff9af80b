import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, makeStyles, Textarea } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({ form: { display: 'flex', flexDirection: 'column', rowGap: '12px' } });

export interface PromptField {
  label: string;
  /** Error text for a value, or '' when acceptable. */
  check?: (value: string) => string;
  initial?: string;
  multiline?: boolean;
  /** Not marked required (a decision's note). */
  optional?: boolean;
}

/**
 * A small form dialog (reason for a close, amount + reason for a refund):
 * validates on the client for instant feedback; the server checks again and
 * its message is shown by the request layer.
 */
export function PromptDialog(props: PromptDialogProps) {
  // Not rendered while closed: a dialog closed just before its keep-alive
  // tab is hidden (effects cleaned up) would never finish its exit motion
  // and stay on screen over the next page. Mounted afresh at each opening,
  // so its first frame already shows the fields' initial values (never
  // what was typed at the last opening).
  return props.open ? <PromptForm {...props} /> : null;
}

interface PromptDialogProps {
  open: boolean;
  title: string;
  hint?: React.ReactNode;
  fields: PromptField[];
  onSubmit: (values: string[]) => Promise<void>;
  onClose: () => void;
}

function PromptForm({ open, title, hint, fields, onSubmit, onClose }: PromptDialogProps) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [values, setValues] = useState<string[]>(() => fields.map((f) => f.initial ?? ''));
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const errs = fields.map((f, i) => f.check?.(values[i] ?? '') ?? '');
    setErrors(errs);
    if (errs.some(Boolean)) return;
    setBusy(true);
    try {
      await onSubmit(values);
      onClose();
    } catch {
      /* the request layer showed the server's message */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent className={styles.form}>
            {hint && <span data-testid="prompt-hint">{hint}</span>}
            {fields.map((f, i) => (
              <Field key={f.label} label={f.label} required={!f.optional} validationMessage={errors[i] || undefined}>
                {f.multiline ? (
                  <Textarea value={values[i] ?? ''} onChange={(_, d) => setValues((v) => v.map((x, j) => (j === i ? d.value : x)))} maxLength={200} />
                ) : (
                  <Input value={values[i] ?? ''} onChange={(_, d) => setValues((v) => v.map((x, j) => (j === i ? d.value : x)))} />
                )}
              </Field>
            ))}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('ord.cancel')}</Button>
            <Button appearance="primary" disabled={busy} onClick={() => void submit()} data-testid="prompt-submit">
              {t('ord.confirm')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
