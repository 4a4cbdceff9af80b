import { Badge, Button, Card, CardHeader, Field, Input, makeStyles, MessageBar, MessageBarBody, Spinner, Subtitle2, Text } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveOperationSettings, useOperationSettings, type OperationSettings, type SettingBound } from '@/api/settings';
import { chinaDateTime } from '@/components/data/format';
import { wholeInRange } from './logic';
import { isConflict, useSettingStyles } from '@/components/settings/ui';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  card: { maxWidth: '760px' },
  meta: { display: 'flex', columnGap: '8px', alignItems: 'center', flexWrap: 'wrap' },
  number: { maxWidth: '160px' },
  buttons: { display: 'flex', columnGap: '8px' },
});

type Form = { offlineAfterIntervals: string; stuckAfterHours: string; idleTimeoutMinutes: string };

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
const formOf = (s: Pick<OperationSettings, 'offlineAfterIntervals' | 'stuckAfterHours' | 'idleTimeoutMinutes'>): Form => ({
  offlineAfterIntervals: String(s.offlineAfterIntervals),
  stuckAfterHours: String(s.stuckAfterHours),
  idleTimeoutMinutes: String(s.idleTimeoutMinutes),
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
  const [form, setForm] = useState<Form>({ offlineAfterIntervals: '', stuckAfterHours: '', idleTimeoutMinutes: '' });
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
  const rangeText = (b: { min: number; max: number }) => t('set.ops.range', { min: b.min, max: b.max });

  const save = async () => {
    setTouched(true);
    if (offline == null || stuck == null || idle == null) return;
    setSaving(true);
    try {
      const res = await saveOperationSettings({ offlineAfterIntervals: offline, stuckAfterHours: stuck, idleTimeoutMinutes: idle, version: data.version });
      notify(res.msg || t('set.common.saved'), 'success');
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
              {data.updatedBy && data.updatedAt ? t('set.ops.updated', { by: data.updatedBy, time: chinaDateTime(data.updatedAt) }) : t('set.ops.neverSaved')}
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
        <div className={styles.buttons}>
          <Button type="submit" appearance="primary" disabled={saving} data-testid="ops-save">
            {t('set.ops.save')}
          </Button>
          <Button
            onClick={() => {
              setForm(formOf({ offlineAfterIntervals: limits.offlineAfterIntervals.default, stuckAfterHours: limits.stuckAfterHours.default, idleTimeoutMinutes: limits.idleTimeoutMinutes.default }));
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
