import { Badge, Button, Card, CardHeader, Combobox, Field, Input, makeStyles, MessageBar, MessageBarBody, Option, Spinner, Subtitle2, Text } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveOperationSettings, useOperationSettings, type OperationSettings, type SettingBound } from '../api/settings';
import { parseYuan, setOperatorTimeZone, yuan, zonedDateTime, zoneLabel } from '@/components/data/format';
import { wholeInRange } from '../model/logic';
import { isConflict, useSettingStyles } from '@/components/forms/ui';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  card: { maxWidth: '760px' },
  meta: { display: 'flex', columnGap: '8px', alignItems: 'center', flexWrap: 'wrap' },
  number: { maxWidth: '160px' },
  buttons: { display: 'flex', columnGap: '8px' },
});

type Form = { offlineAfterIntervals: string; stuckAfterHours: string; idleTimeoutMinutes: string; prepaidMinimum: string; timeZone: string };

/** A whole-number input limited to the server's range, with hint and error. */
function WholeNumberField(props: { name: string; label: string; hint: string; error?: string; bound: SettingBound; value: string; onChange: (value: string) => void }) {
  const styles = useStyles();
  return (
    <Field label={props.label} hint={props.hint} validationMessage={props.error}>
      <Input
        className={styles.number}
        name={props.name}
        type="number"
        inputMode="numeric"
        min={props.bound.min}
        max={props.bound.max}
        value={props.value}
        onChange={(_, d) => props.onChange(d.value)}
      />
    </Field>
  );
}
const formOf = (s: Pick<OperationSettings, 'offlineAfterIntervals' | 'stuckAfterHours' | 'idleTimeoutMinutes' | 'prepaidMinimumFen' | 'timeZone'>): Form => ({
  offlineAfterIntervals: String(s.offlineAfterIntervals),
  stuckAfterHours: String(s.stuckAfterHours),
  idleTimeoutMinutes: String(s.idleTimeoutMinutes),
  prepaidMinimum: yuan(s.prepaidMinimumFen, false),
  timeZone: s.timeZone,
});

/**
 * Operations settings (/setting/workflow): the thresholds every page
 * applies to call a pile offline and a charging order stuck. The ranges
 * come from the server, which checks them again.
 */
export default function OperationsSettings() {
  const { t } = useTranslation();
  const styles = useStyles();
  const shared = useSettingStyles();
  const { data, error, isLoading, mutate } = useOperationSettings();
  const [form, setForm] = useState<Form>({ offlineAfterIntervals: '', stuckAfterHours: '', idleTimeoutMinutes: '', prepaidMinimum: '', timeZone: '' });
  const [zoneTyped, setZoneTyped] = useState('');
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (data) setForm(formOf(data));
  }, [data]);

  if (isLoading) return <Spinner />;
  if (error || !data) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{error instanceof Error ? error.message : t('set.common.reload')}</MessageBarBody>
      </MessageBar>
    );
  }

  const { limits } = data;
  const offline = wholeInRange(form.offlineAfterIntervals, limits.offlineAfterIntervals);
  const stuck = wholeInRange(form.stuckAfterHours, limits.stuckAfterHours);
  const idle = wholeInRange(form.idleTimeoutMinutes, limits.idleTimeoutMinutes);
  const minimumFen = parseYuan(form.prepaidMinimum);
  const minimum = minimumFen != null && minimumFen >= limits.prepaidMinimumFen.min && minimumFen <= limits.prepaidMinimumFen.max ? minimumFen : null;
  const zone = data.timeZones.includes(form.timeZone) ? form.timeZone : null;
  const rangeText = (b: { min: number; max: number }) => t('set.ops.range', { min: b.min, max: b.max });
  const zones = zoneTyped ? data.timeZones.filter((z) => z.toLowerCase().includes(zoneTyped.toLowerCase())) : data.timeZones;

  const save = async () => {
    setTouched(true);
    if (offline == null || stuck == null || idle == null || minimum == null || zone == null) return;
    setSaving(true);
    try {
      const res = await saveOperationSettings({ offlineAfterIntervals: offline, stuckAfterHours: stuck, idleTimeoutMinutes: idle, prepaidMinimumFen: minimum, timeZone: zone, version: data.version });
      notify(res.msg || t('set.common.saved'), 'success');
      // This page shows times in the new zone at once; other sessions take it at their next sign-in or reload.
      setOperatorTimeZone(res.settings.timeZone);
      await mutate(res.settings, { revalidate: false });
    } catch (err) {
      // A conflict means someone else saved: show their values.
      if (isConflict(err)) void mutate();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card className={`${shared.card} ${styles.card}`}>
      <CardHeader
        header={<Subtitle2>{t('set.ops.title')}</Subtitle2>}
        description={
          <div className={styles.meta}>
            <Badge appearance="outline" data-testid="ops-version">
              {t('set.ops.version', { version: data.version })}
            </Badge>
            <Text size={200} className={shared.muted}>
              {data.updatedBy && data.updatedAt ? t('set.ops.updated', { by: data.updatedBy, time: zonedDateTime(data.updatedAt) }) : t('set.ops.neverSaved')}
            </Text>
          </div>
        }
      />
      <Text className={shared.note}>{t('set.ops.intro')}</Text>
      <form
        noValidate
        className={shared.form}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <WholeNumberField
          name="offlineAfterIntervals"
          label={t('set.ops.offline')}
          hint={offline != null ? t('set.ops.offlineExample', { minutes: offline }) : t('set.ops.offlineHint', { ...limits.offlineAfterIntervals })}
          error={touched && offline == null ? rangeText(limits.offlineAfterIntervals) : undefined}
          bound={limits.offlineAfterIntervals}
          value={form.offlineAfterIntervals}
          onChange={(v) => setForm({ ...form, offlineAfterIntervals: v })}
        />
        <WholeNumberField
          name="stuckAfterHours"
          label={t('set.ops.stuck')}
          hint={t('set.ops.stuckHint', { ...limits.stuckAfterHours })}
          error={touched && stuck == null ? rangeText(limits.stuckAfterHours) : undefined}
          bound={limits.stuckAfterHours}
          value={form.stuckAfterHours}
          onChange={(v) => setForm({ ...form, stuckAfterHours: v })}
        />
        <WholeNumberField
          name="idleTimeoutMinutes"
          label={t('set.ops.idle')}
          hint={t('set.ops.idleHint', { ...limits.idleTimeoutMinutes })}
          error={touched && idle == null ? rangeText(limits.idleTimeoutMinutes) : undefined}
          bound={limits.idleTimeoutMinutes}
          value={form.idleTimeoutMinutes}
          onChange={(v) => setForm({ ...form, idleTimeoutMinutes: v })}
        />
        <Field
          label={t('set.ops.prepaidMinimum')}
          hint={t('set.ops.prepaidMinimumHint', { min: yuan(limits.prepaidMinimumFen.min), max: yuan(limits.prepaidMinimumFen.max) })}
          validationMessage={touched && minimum == null ? t('set.ops.prepaidMinimumRange', { min: yuan(limits.prepaidMinimumFen.min), max: yuan(limits.prepaidMinimumFen.max) }) : undefined}
        >
          <Input className={styles.number} name="prepaidMinimum" inputMode="decimal" value={form.prepaidMinimum} onChange={(_, d) => setForm({ ...form, prepaidMinimum: d.value })} />
        </Field>
        <Field
          label={t('set.ops.timeZone')}
          hint={
            <>
              {/* The zone's IANA name and offset are data, the same in either language. */}
              {zone && <span translate="no">{zoneLabel(Date.now() / 1000, zone)}</span>} · {t('set.ops.timeZoneHint')}
            </>
          }
        >
          <Combobox
            freeform
            name="timeZone"
            value={zoneTyped || form.timeZone}
            selectedOptions={[form.timeZone]}
            onChange={(e) => setZoneTyped(e.target.value)}
            onOpenChange={(_, d) => !d.open && setZoneTyped('')}
            onOptionSelect={(_, d) => {
              if (!d.optionValue) return;
              setZoneTyped('');
              setForm({ ...form, timeZone: d.optionValue });
            }}
            data-testid="ops-time-zone"
          >
            {zones.map((z) => (
              <Option key={z} value={z}>
                {z}
              </Option>
            ))}
          </Combobox>
        </Field>
        <div className={styles.buttons}>
          <Button type="submit" appearance="primary" disabled={saving} data-testid="ops-save">
            {t('set.ops.save')}
          </Button>
          <Button
            onClick={() => {
              setForm(formOf({ offlineAfterIntervals: limits.offlineAfterIntervals.default, stuckAfterHours: limits.stuckAfterHours.default, idleTimeoutMinutes: limits.idleTimeoutMinutes.default, prepaidMinimumFen: limits.prepaidMinimumFen.default, timeZone: 'Asia/Shanghai' }));
              setTouched(false);
            }}
          >
            {t('set.ops.reset')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
