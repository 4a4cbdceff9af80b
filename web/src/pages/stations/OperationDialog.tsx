import { Button, Caption1, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Dropdown, Field, Input, Option, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Pile } from '@/api/assets';
import { sendCommand, type Command } from '@/api/chargers';
import { CardPicker } from '@/components/CardPicker';
import { zoneLabel } from '@/components/data/format';
import { confirm } from '@/components/Confirm';
import { notify } from '@/utils/notify';
import { bodyOf, type Operation, type OperationField } from './operations';

/** The charger an operation goes to: its id, code and connector numbers. */
export type PileRef = Pick<Pile, 'id' | 'code'> & { connectors: { number: number }[] };

/**
 * Any remote operation's form (declared in `operations.ts`): fill, confirm
 * where it interrupts charging, send. `preset` fills fields in advance (a
 * connector row's own number); `onSent` gets the command to follow.
 */
export function OperationDialog({ pile, op, preset, onClose, onSent }: { pile: PileRef; op: Operation; preset?: Record<string, string>; onClose: () => void; onSent: (c: Command) => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, string>>(preset ?? {});
  const [problem, setProblem] = useState<string | null>(null);
  const set = (name: string, v: string) => setValues((x) => ({ ...x, [name]: v }));
  const send = async () => {
    const r = bodyOf(op, values);
    if ('problem' in r) {
      setProblem(r.problem);
      return;
    }
    if (op.confirm && !(await confirm(t(`chg.op.${op.key}.confirm`, { code: pile.code })))) return;
    try {
      const c = await sendCommand(op.path, { pileId: pile.id, ...r.body });
      notify(t(`chg.cmd.status.${c.status}`), c.status === 'offline' ? 'warning' : 'info');
      onSent(c);
      onClose();
    } catch {
      // the request layer showed the server's message (it names the field)
    }
  };
  const input = (f: OperationField) => {
    const label = t(`chg.op.field.${f.name}`);
    const message = problem === f.name ? t('chg.op.fieldProblem', { field: label }) : undefined;
    switch (f.kind) {
      case 'connector':
      case 'connector0': {
        const numbers = [...(f.kind === 'connector0' ? [0] : []), ...pile.connectors.map((c) => c.number)];
        const v = values[f.name] ?? '';
        return (
          <Field key={f.name} label={label} required={f.required} validationMessage={message}>
            <Dropdown value={v === '' ? '' : v === '0' ? t('chg.op.wholeCharger') : `#${v}`} selectedOptions={[v]} onOptionSelect={(_, d) => set(f.name, d.optionValue ?? '')} data-testid={`op-${f.name}`}>
              {numbers.map((n) => (
                <Option key={n} value={String(n)} text={n === 0 ? t('chg.op.wholeCharger') : `#${n}`}>
                  {n === 0 ? t('chg.op.wholeCharger') : `#${n}`}
                </Option>
              ))}
            </Dropdown>
          </Field>
        );
      }
      case 'card':
        return (
          <Field key={f.name} label={label} required={f.required} validationMessage={message} hint={t('picker.card.hint')}>
            <CardPicker value={values[f.name] ?? ''} status="Accepted" onChange={(idTag) => set(f.name, idTag)} aria-label={label} data-testid={`op-${f.name}`} />
          </Field>
        );
      case 'select':
        return (
          <Field key={f.name} label={label} required={f.required} validationMessage={message}>
            <Dropdown value={values[f.name] ?? f.initial ?? ''} selectedOptions={[values[f.name] ?? f.initial ?? '']} onOptionSelect={(_, d) => set(f.name, d.optionValue ?? '')} data-testid={`op-${f.name}`}>
              {(f.options ?? []).map((o) => (
                <Option key={o} value={o}>
                  {o}
                </Option>
              ))}
            </Dropdown>
          </Field>
        );
      default:
        return (
          <Field key={f.name} label={label} required={f.required} validationMessage={message} hint={f.kind === 'datetime' ? t('chg.op.zoneHint', { zone: zoneLabel() }) : t(`chg.op.hint.${f.name}`, { defaultValue: '' })}>
            <Input
              type={f.kind === 'datetime' ? 'datetime-local' : f.kind === 'number' ? 'number' : f.kind === 'secret' ? 'password' : 'text'}
              autoComplete={f.kind === 'secret' ? 'new-password' : undefined}
              value={values[f.name] ?? f.initial ?? ''}
              maxLength={f.maxLength}
              onChange={(_, d) => set(f.name, d.value)}
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
          <DialogContent style={{ display: 'grid', gap: '10px' }}>
            {op.fields.length === 0 && <Caption1 style={{ color: tokens.colorNeutralForeground3 }}>{t('chg.op.noFields')}</Caption1>}
            {op.fields.map(input)}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button appearance="primary" onClick={() => void send()} data-testid="op-send">
              {t('chg.op.send')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
