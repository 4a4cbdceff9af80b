import { Body1, Button, Card, CardHeader, Checkbox, Field, Input, makeStyles, Radio, RadioGroup, Subtitle2, Textarea, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DatePicker, TimePicker } from '../../components/Pickers';
import { RegionPicker } from '@/features/stations';
import { emptyStationForm, validateStationForm, type StationForm } from '../../components/formRules';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) minmax(280px, 1fr)', gap: '16px', alignItems: 'start', '@media (max-width: 992px)': { gridTemplateColumns: '1fr' } },
  card: { padding: '20px', rowGap: '14px' },
  form: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))', gap: '14px 20px' },
  wide: { gridColumn: '1 / -1' },
  row: { display: 'flex', columnGap: '12px', flexWrap: 'wrap' },
  actions: { display: 'flex', columnGap: '8px' },
  pre: { margin: 0, padding: '12px', borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground3, fontSize: tokens.fontSizeBase200, whiteSpace: 'pre-wrap', wordBreak: 'break-all' },
});

const TYPES = ['ac', 'dc', 'superCharge'] as const;

/** Comprehensive form: validated fields (the helper validators), region from /area/getList; submission is checked locally only. */
export default function ComprehensiveForm() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [form, setForm] = useState<StationForm>(emptyStationForm);
  const [regionNames, setRegionNames] = useState<string[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [result, setResult] = useState<string>('');
  const errors = submitted ? validateStationForm(form) : {};
  const set = <K extends keyof StationForm>(k: K, v: StationForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const msg = (k: keyof StationForm) => (errors[k] ? t(`dm.rules.${errors[k]}`) : undefined);
  const submit = () => {
    setSubmitted(true);
    const e = validateStationForm(form);
    if (Object.keys(e).length) {
      notify(t('dm.rules.fix', { n: Object.keys(e).length }), 'warning');
      setResult('');
      return;
    }
    setResult(JSON.stringify({ ...form, regionNames }, null, 2));
    notify(t('dm.cform.ok'), 'success');
  };
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.cform.title')}</Subtitle2>} />
        <form
          className={styles.form}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Field label={t('dm.cform.name')} required validationMessage={msg('name')}>
            <Input value={form.name} onChange={(_, d) => set('name', d.value)} data-testid="cform-name" />
          </Field>
          <Field label={t('dm.cform.phone')} required validationMessage={msg('phone')}>
            <Input value={form.phone} onChange={(_, d) => set('phone', d.value)} inputMode="numeric" />
          </Field>
          <Field label={t('dm.cform.email')} validationMessage={msg('email')}>
            <Input type="email" value={form.email} onChange={(_, d) => set('email', d.value)} />
          </Field>
          <Field label={t('dm.cform.price')} required validationMessage={msg('price')}>
            <Input value={form.price} onChange={(_, d) => set('price', d.value)} contentAfter={<Body1>{t('dm.cform.priceUnit')}</Body1>} />
          </Field>
          <Field className={styles.wide} label={t('dm.cform.region')} required validationMessage={msg('region')}>
            <RegionPicker value={form.region} onChange={(codes, names) => (set('region', codes), setRegionNames(names))} />
          </Field>
          <Field label={t('dm.cform.date')} required validationMessage={msg('date')}>
            <DatePicker value={form.date} onChange={(v) => set('date', v)} />
          </Field>
          <Field label={t('dm.cform.time')}>
            <TimePicker value={form.time} onChange={(v) => set('time', v)} />
          </Field>
          {/* Not `required` on the Field: it would mark every checkbox label; the rule is still enforced. */}
          <Field label={{ children: t('dm.cform.types'), required: true }} validationMessage={msg('types')}>
            <div className={styles.row}>
              {TYPES.map((ty) => (
                <Checkbox
                  key={ty}
                  label={t(`dm.cform.type.${ty}`)}
                  checked={form.types.includes(ty)}
                  onChange={(_, d) => set('types', d.checked ? [...form.types, ty] : form.types.filter((x) => x !== ty))}
                />
              ))}
            </div>
          </Field>
          <Field label={t('dm.cform.ownership')} required validationMessage={msg('ownership')}>
            <RadioGroup layout="horizontal" value={form.ownership} onChange={(_, d) => set('ownership', d.value)}>
              <Radio value="public" label={t('dm.cform.public')} />
              <Radio value="private" label={t('dm.cform.private')} />
            </RadioGroup>
          </Field>
          <Field className={styles.wide} label={t('dm.cform.description')} validationMessage={msg('description')} hint={`${form.description.length}/200`}>
            <Textarea value={form.description} onChange={(_, d) => set('description', d.value)} resize="vertical" />
          </Field>
          <Field className={styles.wide} validationMessage={msg('agree')}>
            <Checkbox label={t('dm.cform.agree')} checked={form.agree} onChange={(_, d) => set('agree', !!d.checked)} />
          </Field>
          <div className={`${styles.wide} ${styles.actions}`}>
            <Button appearance="primary" type="submit">
              {t('dm.cform.submit')}
            </Button>
            <Button
              onClick={() => {
                setForm(emptyStationForm());
                setSubmitted(false);
                setResult('');
              }}
            >
              {t('dm.common.reset')}
            </Button>
          </div>
        </form>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.cform.result')}</Subtitle2>} />
        <Body1>{t('dm.cform.localOnly')}</Body1>
        {result ? <pre className={styles.pre} data-testid="cform-result">{result}</pre> : <Body1>—</Body1>}
      </Card>
    </div>
  );
}
