import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Dropdown, Field, Input, makeStyles, Option } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addStation, editStation, STATION_STATUSES, useTariffs, type Station, type StationInput, type StationStatus } from '../api/assets';
import { RegionPicker } from './RegionPicker';
import { useFieldErrors } from '@/components/forms/useFieldErrors';
import type { FieldSpec } from '@/utils/formRules';
import { clearErrorToasts } from '@/utils/notify';
import { isPhone, isTel } from '@/utils/validate';
import { hoursFormOf, hoursText, OpeningHoursField, type HoursForm } from './OpeningHoursField';

const useStyles = makeStyles({
  // Fields keep their height when a neighbour shows a message.
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: '10px 14px', alignItems: 'start' },
  wide: { gridColumn: '1 / -1' },
});

/** The form's fields: all of a station's input, lat and lng empty (null) until typed. */
type StationForm = Required<Omit<StationInput, 'lat' | 'lng'>> & { lat: number | null; lng: number | null };

const EMPTY: StationForm = {
  code: '',
  name: '',
  operator: '',
  provinceCode: '',
  cityCode: '',
  districtCode: null,
  address: '',
  lat: null,
  lng: null,
  openingHours: '00:00-24:00',
  status: 'planning',
  servicePhone: '',
  parkingInfo: '',
  photoUrls: [],
  tariffId: '',
};

/** The server's limits (domain/assets/stations.rs `StationInput::problems`), enforced in the inputs too. */
export const STATION_MAX = { name: 50, code: 20, operator: 50, address: 200, servicePhone: 20, parkingInfo: 200 } as const;

type StationKey = 'name' | 'code' | 'operator' | 'region' | 'address' | 'lat' | 'lng' | 'openingHours' | 'status' | 'servicePhone' | 'parkingInfo' | 'tariffId';

/** The server's field names in a 400 (`data.fields[].field`) as this form's fields. */
function stationKeyOf(serverField: string): StationKey | undefined {
  if (['provinceCode', 'cityCode', 'districtCode', 'region'].includes(serverField)) return 'region';
  const known: StationKey[] = ['name', 'code', 'operator', 'address', 'lat', 'lng', 'openingHours', 'status', 'servicePhone', 'parkingInfo', 'tariffId'];
  return known.find((k) => k === serverField);
}

/** The editable fields of a station (create and edit); the server validates and its message is shown. */
export function inputOf(s: Station): StationForm & StationInput {
  const { code, name, operator, provinceCode, cityCode, districtCode, address, lat, lng, openingHours, status, servicePhone, parkingInfo, photoUrls, tariffId } = s;
  return { code, name, operator, provinceCode, cityCode, districtCode, address, lat, lng, openingHours, status, servicePhone, parkingInfo, photoUrls, tariffId };
}

/** Create (no `station`) or edit a station's basic data. */
export function StationDialog({ open, station, onClose, onSaved }: { open: boolean; station?: Station; onClose: () => void; onSaved: (s: Station) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [form, setForm] = useState<StationForm>(EMPTY);
  const [latText, setLatText] = useState('');
  const [lngText, setLngText] = useState('');
  const [busy, setBusy] = useState(false);
  const [hours, setHours] = useState<HoursForm>(() => hoursFormOf(EMPTY.openingHours));
  const { data: tariffs } = useTariffs(open);
  const specs = (): Array<[StationKey, FieldSpec]> => [
    ['name', { label: t('ast.station.name'), rules: [{ required: true, whitespace: true, max: STATION_MAX.name }] }],
    ['code', { label: t('ast.station.code'), rules: [{ required: true, whitespace: true, max: STATION_MAX.code }, { pattern: /^\s*[A-Za-z0-9_-]+\s*$/, message: t('ast.form.codePattern', { n: STATION_MAX.code }) }] }],
    ['operator', { label: t('ast.station.operator'), rules: [{ max: STATION_MAX.operator }] }],
    ['region', { label: t('ast.station.region'), rules: [{ required: true, message: t('ast.form.regionRequired') }] }],
    ['address', { label: t('ast.station.address'), rules: [{ required: true, whitespace: true, max: STATION_MAX.address }] }],
    ['lat', { label: t('ast.station.lat'), rules: [{ required: true, whitespace: true, type: 'number', min: -90, max: 90 }] }],
    ['lng', { label: t('ast.station.lng'), rules: [{ required: true, whitespace: true, type: 'number', min: -180, max: 180 }] }],
    // Checked by the hours field itself (hoursText); listed here for its place in the focus order.
    ['openingHours', { label: t('ast.station.openingHours'), rules: [] }],
    ['status', { label: t('ast.station.status'), rules: [{ required: true, enum: STATION_STATUSES }] }],
    [
      'servicePhone',
      { label: t('ast.station.phone'), rules: [{ required: true, whitespace: true }, { validator: (v) => (isPhone(String(v).trim()) || isTel(String(v).trim()) ? undefined : t('ast.form.phone')) }] },
    ],
    ['parkingInfo', { label: t('ast.station.parkingInfo'), rules: [{ max: STATION_MAX.parkingInfo }] }],
  ];
  const fe = useFieldErrors<StationKey>(specs);
  // Stable (a callback of the hook); fe itself is a new object each render.
  const resetErrors = fe.reset;
  const hoursError = fe.errors.openingHours;
  useEffect(() => {
    if (!open) return;
    const f = station ? inputOf(station) : EMPTY;
    setForm(f);
    setLatText(f.lat == null ? '' : String(f.lat));
    setLngText(f.lng == null ? '' : String(f.lng));
    setHours(hoursFormOf(f.openingHours));
    resetErrors();
  }, [open, station, resetErrors]);
  const set = <K extends keyof StationForm>(k: K, v: StationForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const region = [form.provinceCode, form.cityCode, form.districtCode ?? ''].filter(Boolean);
  const num = (s: string) => (s.trim() === '' || Number.isNaN(Number(s)) ? null : Number(s));

  const values = (): Record<StationKey, unknown> => ({ ...form, region: region.length >= 2 ? region : [], lat: latText, lng: lngText, openingHours: '' });
  /** On leaving a field; once marked, a field is checked again as it changes. */
  const blur = (k: StationKey) => fe.onLeave(k, () => values()[k]);
  const recheck = (k: StationKey, value: unknown) => {
    if (fe.errors[k]) fe.check(k, value);
  };

  async function save() {
    const h = hoursText(hours, t);
    if (!fe.checkAll(values(), 'error' in h ? { openingHours: h.error } : {}) || 'error' in h) return;
    // Checked as required numbers above.
    const lat = num(latText);
    const lng = num(lngText);
    if (lat === null || lng === null) return;
    setBusy(true);
    try {
      const body = { ...form, openingHours: h.text, lat, lng };
      const res = station ? await editStation({ ...body, id: station.id, version: station.version }, { fieldErrors: true }) : await addStation(body, { fieldErrors: true });
      // The earlier attempts' error toasts are stale now.
      clearErrorToasts();
      onSaved(res.data);
    } catch (err) {
      // A 400 naming fields goes onto them; any other error was toasted by the request layer.
      fe.fromServer(err, stationKeyOf);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={{ maxWidth: '860px' }}>
        <DialogBody>
          <DialogTitle>{station ? t('ast.station.edit') : t('ast.station.add')}</DialogTitle>
          <DialogContent>
            <div className={styles.grid} data-testid="station-form" ref={fe.container}>
              <Field label={t('ast.station.name')} required validationMessage={fe.errors.name} data-field="name">
                <Input name="name" maxLength={STATION_MAX.name} value={form.name} onBlur={blur('name')} onChange={(_, d) => {
                    set('name', d.value);
                    recheck('name', d.value);
                  }} />
              </Field>
              <Field label={t('ast.station.code')} required validationMessage={fe.errors.code} data-field="code">
                <Input name="code" maxLength={STATION_MAX.code} value={form.code} onBlur={blur('code')} onChange={(_, d) => {
                    set('code', d.value);
                    recheck('code', d.value);
                  }} />
              </Field>
              <Field label={t('ast.station.operator')} validationMessage={fe.errors.operator} data-field="operator">
                <Input name="operator" maxLength={STATION_MAX.operator} value={form.operator} onBlur={blur('operator')} onChange={(_, d) => {
                    set('operator', d.value);
                    recheck('operator', d.value);
                  }} />
              </Field>
              <Field label={t('ast.station.region')} required className={styles.wide} validationMessage={fe.errors.region} data-field="region">
                <RegionPicker
                  value={region}
                  onChange={(codes) => {
                    setForm((f) => ({ ...f, provinceCode: codes[0] ?? '', cityCode: codes[1] ?? '', districtCode: codes[2] && codes[2] !== codes[1] ? codes[2] : null }));
                    recheck('region', codes.length >= 2 ? codes : []);
                  }}
                />
              </Field>
              <Field label={t('ast.station.address')} required className={styles.wide} validationMessage={fe.errors.address} data-field="address">
                <Input name="address" maxLength={STATION_MAX.address} value={form.address} onBlur={blur('address')} onChange={(_, d) => {
                    set('address', d.value);
                    recheck('address', d.value);
                  }} />
              </Field>
              <Field label={t('ast.station.lat')} required validationMessage={fe.errors.lat} data-field="lat">
                <Input name="lat" inputMode="decimal" maxLength={24} value={latText} onBlur={blur('lat')} onChange={(_, d) => {
                    setLatText(d.value);
                    recheck('lat', d.value);
                  }} />
              </Field>
              <Field label={t('ast.station.lng')} required validationMessage={fe.errors.lng} data-field="lng">
                <Input name="lng" inputMode="decimal" maxLength={24} value={lngText} onBlur={blur('lng')} onChange={(_, d) => {
                    setLngText(d.value);
                    recheck('lng', d.value);
                  }} />
              </Field>
              <div className={styles.wide} data-field="openingHours">
                <OpeningHoursField
                  value={hours}
                  error={hoursError}
                  onChange={(v) => {
                    setHours(v);
                    fe.setError('openingHours', undefined);
                  }}
                />
              </div>
              <Field label={t('ast.station.status')} required validationMessage={fe.errors.status} data-field="status">
                <Dropdown
                  aria-label={t('ast.station.status')}
                  value={t(`ast.status.${form.status}`)}
                  selectedOptions={[form.status]}
                  onOptionSelect={(_, d) => set('status', d.optionValue as StationStatus)}
                >
                  {STATION_STATUSES.map((s) => (
                    <Option key={s} value={s}>
                      {t(`ast.status.${s}`)}
                    </Option>
                  ))}
                </Dropdown>
              </Field>
              <Field label={t('ast.station.phone')} required validationMessage={fe.errors.servicePhone} data-field="servicePhone">
                <Input
                  name="servicePhone"
                  type="tel"
                  maxLength={STATION_MAX.servicePhone}
                  value={form.servicePhone}
                  onBlur={blur('servicePhone')}
                  onChange={(_, d) => {
                    set('servicePhone', d.value);
                    recheck('servicePhone', d.value);
                  }}
                />
              </Field>
              <Field label={t('ast.station.tariff')} validationMessage={fe.errors.tariffId} data-field="tariffId">
                <Dropdown
                  aria-label={t('ast.station.tariff')}
                  data-testid="station-tariff"
                  value={tariffs?.find((x) => x.template.id === form.tariffId)?.template.name ?? t('ast.station.noTariff')}
                  selectedOptions={[form.tariffId]}
                  onOptionSelect={(_, d) => set('tariffId', d.optionValue ?? '')}
                >
                  <Option value="">{t('ast.station.noTariff')}</Option>
                  {(tariffs ?? []).map((x) => (
                    <Option key={x.template.id} value={x.template.id}>
                      {x.template.name}
                    </Option>
                  ))}
                </Dropdown>
              </Field>
              <Field label={t('ast.station.parkingInfo')} className={styles.wide} validationMessage={fe.errors.parkingInfo} data-field="parkingInfo">
                <Input name="parkingInfo" maxLength={STATION_MAX.parkingInfo} value={form.parkingInfo} onBlur={blur('parkingInfo')} onChange={(_, d) => {
                    set('parkingInfo', d.value);
                    recheck('parkingInfo', d.value);
                  }} />
              </Field>
            </div>
          </DialogContent>
          <DialogActions data-no-blur-check>
            <Button onClick={onClose}>{t('ast.cancel')}</Button>
            <Button appearance="primary" disabled={busy} onClick={() => void save()} data-testid="station-save">
              {t('ast.save')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
