import { Button, Caption1, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Dropdown, Field, Input, Option, Textarea, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Pile } from '../api/assets';
import { sendCommand, type Command } from '../api/chargers';
import { CardPicker } from './CardPicker';
import { zoneLabel } from '@/components/data/format';
import { confirm } from '@/components/Confirm';
import { useFieldErrors } from '@/components/forms/useFieldErrors';
import type { FieldSpec, Rule } from '@/utils/formRules';
import { clearErrorToasts, notify } from '@/utils/notify';
import { bodyOf, optionsOf, type Operation, type OperationField } from '../model/operations';
import { actionName, connectorWords } from './commandWords';

/**
 * The dialog's field a server's field path names (`periods[1].limit` is
 * `periods`; in an operation whose fields are a list's one item,
 * `variables[0].component` is `component`), if it has one.
 */
export function operationFieldOf(op: Operation, serverField: string): string | undefined {
  const grouped = op.fields.find((f) => f.group && serverField.startsWith(`${f.group}.`));
  if (grouped) return operationFieldOf({ ...op, fields: op.fields.filter((f) => f.group === grouped.group) }, serverField.slice(grouped.group!.length + 1));
  const inItem = op.list && serverField.startsWith(`${op.list}[0].`) ? serverField.slice(op.list.length + 4) : serverField;
  const name = inItem.split(/[[.]/)[0];
  return op.fields.some((f) => f.name === name) ? name : undefined;
}

/** The charger an operation goes to: its id, code and connector numbers. */
export type PileRef = Pick<Pile, 'id' | 'code'> & Partial<Pick<Pile, 'ocppVersion'>> & { connectors: { number: number }[] };

/**
 * Any remote operation's form (declared in `operations.ts`): fill, check
 * what the form can check (beside each field, before the confirm step),
 * confirm where it interrupts charging, send. A refusal naming a field is
 * shown beside that field, in the reader's language. `preset` fills fields
 * in advance (a connector row's own number); `onSent` gets the command to
 * follow.
 */
export function OperationDialog({
  pile,
  op,
  preset,
  onClose,
  onSent,
  submit,
}: {
  pile: PileRef;
  op: Operation;
  preset?: Record<string, string>;
  onClose: () => void;
  onSent?: (c: Command) => void;
  /** Sends the checked body some other way (to several piles); a refusal it throws is shown as the server's would be. */
  submit?: (body: Record<string, unknown>) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, string>>(preset ?? {});
  const [busy, setBusy] = useState(false);
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
      if (submit) {
        await submit(r.body);
        clearErrorToasts();
      } else {
        const c = await sendCommand(op.path, { pileId: pile.id, ...r.body }, { fieldErrors: true });
        clearErrorToasts();
        notify(t(`chg.cmd.status.${c.status}`), c.status === 'offline' ? 'warning' : 'info');
        onSent?.(c);
      }
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
      case 'connector0':
      case 'connectorAny': {
        const numbers = [...(f.kind === 'connector0' ? [0] : []), ...pile.connectors.map((c) => c.number)];
        const v = values[f.name] ?? '';
        const any = f.kind === 'connectorAny';
        // "any" stands for no connector at all: the charger chooses one.
        return (
          <Field key={f.name} {...fieldProps}>
            <Dropdown value={v === '' ? (any ? t('chg.op.chargerChooses') : '') : connectorWords(t, Number(v))} selectedOptions={[v === '' && any ? 'any' : v]} onOptionSelect={(_, d) => set(f.name, d.optionValue === 'any' ? '' : (d.optionValue ?? ''))} data-testid={`op-${f.name}`}>
              {any && (
                <Option value="any" text={t('chg.op.chargerChooses')}>
                  {t('chg.op.chargerChooses')}
                </Option>
              )}
              {numbers.map((n) => (
                <Option key={n} value={String(n)} text={connectorWords(t, n)}>
                  {connectorWords(t, n)}
                </Option>
              ))}
            </Dropdown>
          </Field>
        );
      }
      case 'wholePile':
        // Sent as connector 0: the pile as a whole, nothing to choose.
        return (
          <Field key={f.name} {...fieldProps} hint={t('ykc.wholePileHint')}>
            <Input value={connectorWords(t, 0)} disabled data-testid={`op-${f.name}`} />
          </Field>
        );
      case 'card':
        return (
          <Field key={f.name} {...fieldProps} hint={t('picker.card.hint')}>
            <CardPicker value={values[f.name] ?? ''} status="Accepted" onChange={(idTag) => set(f.name, idTag)} aria-label={label(f)} data-testid={`op-${f.name}`} />
          </Field>
        );
      case 'select':
        return (
          <Field key={f.name} {...fieldProps}>
            <Dropdown value={value(f) ? optionWords(f, value(f)) : ''} selectedOptions={[value(f)]} onOptionSelect={(_, d) => set(f.name, d.optionValue ?? '')} data-testid={`op-${f.name}`}>
              {optionsOf(f, pile.ocppVersion).map((o) => (
                <Option key={o} value={o} text={optionWords(f, o)} title={o}>
                  {optionWords(f, o)}
                </Option>
              ))}
            </Dropdown>
          </Field>
        );
      case 'pem':
        return (
          <Field key={f.name} {...fieldProps} hint={t(`chg.op.hint.${f.name}`, { defaultValue: '' })}>
            <Textarea
              resize="vertical"
              rows={6}
              value={value(f)}
              maxLength={f.maxLength}
              onChange={(_, d) => set(f.name, d.value)}
              onBlur={fe.onLeave(f.name, () => value(f).trim())}
              style={{ fontFamily: tokens.fontFamilyMonospace }}
              data-testid={`op-${f.name}`}
            />
          </Field>
        );
      default:
        return (
          <Field key={f.name} {...fieldProps} hint={f.kind === 'datetime' ? t('chg.op.zoneHint', { zone: zoneLabel() }) : t(`chg.op.hint.${f.name}`, { defaultValue: '' })}>
            <Input
              type={f.kind === 'datetime' ? 'datetime-local' : f.kind === 'number' ? 'number' : f.kind === 'secret' ? 'password' : 'text'}
              autoComplete={f.kind === 'secret' ? 'new-password' : undefined}
              value={value(f)}
              maxLength={f.maxLength}
              onChange={(_, d) => set(f.name, d.value)}
              onBlur={fe.onLeave(f.name, () => value(f).trim())}
              data-testid={`op-${f.name}`}
              data-zone={f.kind === 'datetime' ? zoneLabel() : undefined}
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
