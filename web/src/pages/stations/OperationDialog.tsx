import { Button, Caption1, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Dropdown, Field, Input, Option, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Pile } from '@/api/assets';
import { sendCommand, useCardChoices } from '@/api/chargers';
import { confirm } from '@/components/Confirm';
import { useFieldErrors } from '@/components/forms/useFieldErrors';
import type { FieldSpec, Rule } from '@/utils/formRules';
import { clearErrorToasts, notify } from '@/utils/notify';
import { bodyOf, type Operation, type OperationField } from './operations';
import { actionName, connectorWords } from './commandWords';

/** The dialog's field a server's field path names (`periods[1].limit` is `periods`), if it has one. */
export function operationFieldOf(op: Operation, serverField: string): string | undefined {
  const name = serverField.split(/[[.]/)[0];
  return op.fields.some((f) => f.name === name) ? name : undefined;
}

/**
 * Any remote operation's form (declared in `operations.ts`): fill, check
 * what the form can check (beside each field, before the confirm step),
 * confirm where it interrupts charging, send. A refusal naming a field is
 * shown beside that field, in the reader's language.
 */
export function OperationDialog({ pile, op, onClose, onSent }: { pile: Pile; op: Operation; onClose: () => void; onSent: () => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, string>>({});
  const [cardQuery, setCardQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const cards = useCardChoices(cardQuery, op.fields.some((f) => f.kind === 'card'));
  const label = (f: OperationField) => t(`chg.op.field.${f.name}`);
  const specs = (): Array<[string, FieldSpec]> =>
    op.fields.map((f) => {
      const rules: Rule[] = [{ required: f.required, whitespace: true }];
      if (f.maxLength) rules.push({ max: f.maxLength });
      if (f.rule) rules.push({ ...f.rule, ...(f.ruleMessage ? { message: t(f.ruleMessage) } : {}) });
      return [f.name, { label: label(f), rules }];
    });
  const fe = useFieldErrors<string>(specs);
  const value = (f: OperationField) => values[f.name] ?? f.initial ?? '';
  // The OCPP values of a choice in words (the messages a charger can be asked for are actions).
  const optionWords = (f: OperationField, o: string) => (f.name === 'requestedMessage' ? actionName(t, o) : t(`chg.opt.${o}`, { defaultValue: o }));
  const set = (name: string, v: string) => {
    setValues((x) => ({ ...x, [name]: v }));
    if (fe.errors[name]) fe.check(name, v);
  };
  const send = async () => {
    if (!fe.checkAll(Object.fromEntries(op.fields.map((f) => [f.name, value(f).trim()])))) return;
    const r = bodyOf(op, values);
    if ('problem' in r) {
      const f = op.fields.find((x) => x.name === r.problem)!;
      fe.setError(r.problem, t('chg.op.fieldProblem', { field: label(f) }));
      fe.focus(r.problem);
      return;
    }
    if (op.confirm && !(await confirm(t(`chg.op.${op.key}.confirm`, { code: pile.code })))) return;
    setBusy(true);
    try {
      const c = await sendCommand(op.path, { pileId: pile.id, ...r.body }, { fieldErrors: true });
      clearErrorToasts();
      notify(t(`chg.cmd.status.${c.status}`), c.status === 'offline' ? 'warning' : 'info');
      onSent();
      onClose();
    } catch (err) {
      // A refusal naming fields goes beside them; anything else was toasted by the request layer.
      fe.fromServer(err, (field) => operationFieldOf(op, field));
    } finally {
      setBusy(false);
    }
  };
  const input = (f: OperationField) => {
    const fieldProps = { label: label(f), required: f.required, validationMessage: fe.errors[f.name], 'data-field': f.name };
    switch (f.kind) {
      case 'connector':
      case 'connector0': {
        const numbers = [...(f.kind === 'connector0' ? [0] : []), ...pile.connectors.map((c) => c.number)];
        const v = values[f.name] ?? '';
        return (
          <Field key={f.name} {...fieldProps}>
            <Dropdown value={v === '' ? '' : connectorWords(t, Number(v))} selectedOptions={[v]} onOptionSelect={(_, d) => set(f.name, d.optionValue ?? '')} data-testid={`op-${f.name}`}>
              {numbers.map((n) => (
                <Option key={n} value={String(n)} text={connectorWords(t, n)}>
                  {connectorWords(t, n)}
                </Option>
              ))}
            </Dropdown>
          </Field>
        );
      }
      case 'card':
        return (
          <Field key={f.name} {...fieldProps} hint={t('chg.op.cardHint')}>
            <Dropdown
              value={values[f.name] ?? ''}
              selectedOptions={[values[f.name] ?? '']}
              onOptionSelect={(_, d) => set(f.name, d.optionValue ?? '')}
              onInput={(e) => setCardQuery((e.target as HTMLInputElement).value ?? '')}
              data-testid={`op-${f.name}`}
            >
              {(cards.data?.list ?? []).map((c) => (
                <Option key={c.idTag} value={c.idTag} text={c.idTag}>
                  {c.idTag} {c.holder} {c.plate}
                </Option>
              ))}
            </Dropdown>
          </Field>
        );
      case 'select':
        return (
          <Field key={f.name} {...fieldProps}>
            <Dropdown value={value(f) ? optionWords(f, value(f)) : ''} selectedOptions={[value(f)]} onOptionSelect={(_, d) => set(f.name, d.optionValue ?? '')} data-testid={`op-${f.name}`}>
              {(f.options ?? []).map((o) => (
                <Option key={o} value={o} text={optionWords(f, o)} title={o}>
                  {optionWords(f, o)}
                </Option>
              ))}
            </Dropdown>
          </Field>
        );
      default:
        return (
          <Field key={f.name} {...fieldProps} hint={t(`chg.op.hint.${f.name}`, { defaultValue: '' })}>
            <Input
              type={f.kind === 'datetime' ? 'datetime-local' : f.kind === 'number' ? 'number' : 'text'}
              value={value(f)}
              maxLength={f.maxLength}
              onChange={(_, d) => set(f.name, d.value)}
              onBlur={fe.onLeave(f.name, () => value(f).trim())}
              data-testid={`op-${f.name}`}
            />
          </Field>
        );
    }
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="operation-dialog">
        <DialogBody>
          <DialogTitle>
            {t(`chg.op.${op.key}.title`)} · {pile.code}
          </DialogTitle>
          <DialogContent>
            <div ref={fe.container} style={{ display: 'grid', gap: '10px' }}>
              {op.fields.length === 0 && <Caption1 style={{ color: tokens.colorNeutralForeground3 }}>{t('chg.op.noFields')}</Caption1>}
              {op.fields.map(input)}
            </div>
          </DialogContent>
          <DialogActions data-no-blur-check>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button appearance="primary" disabled={busy} onClick={() => void send()} data-testid="op-send">
              {t('chg.op.send')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
