import { Body1, Button, Card, Dropdown, Field, Input, makeStyles, Option, Subtitle1, tokens } from '@fluentui/react-components';
import { CheckmarkCircleRegular } from '@fluentui/react-icons/svg/checkmark-circle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Steps } from '../../components/Steps';
import { validateTransfer, type TransferForm } from '../../components/formRules';
import { isPassword } from '@/utils/validate';

const useStyles = makeStyles({
  card: { maxWidth: '720px', padding: '24px', margin: '0 auto' },
  form: { display: 'flex', flexDirection: 'column', rowGap: '14px', maxWidth: '440px', margin: '0 auto', width: '100%' },
  summary: { display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '10px 24px', padding: '16px', borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground2 },
  label: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', columnGap: '8px', justifyContent: 'center' },
  done: { display: 'flex', flexDirection: 'column', alignItems: 'center', rowGap: '12px', padding: '16px 0' },
  icon: { fontSize: '64px', color: tokens.colorPaletteGreenForeground1 },
});

const ACCOUNTS = ['ops@example.com', 'finance@example.com'];
const empty: TransferForm = { payAccount: ACCOUNTS[0], receiverAccount: '', receiverName: '', amount: '' };

/** Step form: fill in → confirm (password ≥ 6) → done. Nothing is sent: a local demo. */
export default function StepForm() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [step, setStep] = useState(0);
  const [form, setForm] = useState<TransferForm>(empty);
  const [checked, setChecked] = useState(false);
  const [password, setPassword] = useState('');
  const [pwError, setPwError] = useState('');
  const errors = checked ? validateTransfer(form) : {};
  const msg = (k: keyof TransferForm) => (errors[k] ? t(`dm.rules.${errors[k]}`) : undefined);
  const set = (k: keyof TransferForm, v: string) => setForm((f) => ({ ...f, [k]: v }));
  const rows: [string, string][] = [
    [t('dm.step.payAccount'), form.payAccount],
    [t('dm.step.receiverAccount'), form.receiverAccount],
    [t('dm.step.receiverName'), form.receiverName],
    [t('dm.step.amount'), `¥ ${Number(form.amount || 0).toFixed(2)}`],
  ];
  return (
    <Card className={styles.card}>
      <Steps steps={[t('dm.step.s1'), t('dm.step.s2'), t('dm.step.s3')]} current={step} />
      {step === 0 && (
        <form
          className={styles.form}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setChecked(true);
            if (!Object.keys(validateTransfer(form)).length) setStep(1);
          }}
        >
          <Field label={t('dm.step.payAccount')} required>
            <Dropdown value={form.payAccount} selectedOptions={[form.payAccount]} onOptionSelect={(_, d) => set('payAccount', d.optionValue ?? '')}>
              {ACCOUNTS.map((a) => (
                <Option key={a}>{a}</Option>
              ))}
            </Dropdown>
          </Field>
          <Field label={t('dm.step.receiverAccount')} required validationMessage={msg('receiverAccount')} hint={t('dm.step.accountHint')}>
            <Input value={form.receiverAccount} onChange={(_, d) => set('receiverAccount', d.value)} data-testid="step-account" />
          </Field>
          <Field label={t('dm.step.receiverName')} required validationMessage={msg('receiverName')}>
            <Input value={form.receiverName} onChange={(_, d) => set('receiverName', d.value)} />
          </Field>
          <Field label={t('dm.step.amount')} required validationMessage={msg('amount')}>
            <Input value={form.amount} onChange={(_, d) => set('amount', d.value)} contentBefore={<span>¥</span>} />
          </Field>
          <div className={styles.actions}>
            <Button appearance="primary" type="submit">
              {t('dm.step.next')}
            </Button>
          </div>
        </form>
      )}
      {step === 1 && (
        <form
          className={styles.form}
          onSubmit={(e) => {
            e.preventDefault();
            if (!isPassword(password)) {
              setPwError(t('dm.rules.password'));
              return;
            }
            setPwError('');
            setStep(2);
          }}
        >
          <div className={styles.summary}>
            {rows.map(([k, v]) => (
              <Body1 key={k} style={{ display: 'contents' }}>
                <span className={styles.label}>{k}</span>
                <span>{v}</span>
              </Body1>
            ))}
          </div>
          <Field label={t('dm.step.password')} required validationMessage={pwError || undefined} hint={t('dm.step.passwordHint')}>
            <Input type="password" value={password} onChange={(_, d) => setPassword(d.value)} autoComplete="off" />
          </Field>
          <div className={styles.actions}>
            <Button onClick={() => setStep(0)}>{t('dm.step.prev')}</Button>
            <Button appearance="primary" type="submit">
              {t('dm.step.submit')}
            </Button>
          </div>
        </form>
      )}
      {step === 2 && (
        <div className={styles.done}>
          <CheckmarkCircleRegular className={styles.icon} />
          <Subtitle1>{t('dm.step.success')}</Subtitle1>
          <Body1>{t('dm.step.successNote')}</Body1>
          <div className={styles.summary}>
            {rows.map(([k, v]) => (
              <Body1 key={k} style={{ display: 'contents' }}>
                <span className={styles.label}>{k}</span>
                <span>{v}</span>
              </Body1>
            ))}
          </div>
          <Button
            appearance="primary"
            onClick={() => {
              setForm(empty);
              setPassword('');
              setChecked(false);
              setStep(0);
            }}
          >
            {t('dm.step.again')}
          </Button>
        </div>
      )}
    </Card>
  );
}
