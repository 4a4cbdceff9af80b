import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Dropdown, Field, Input, makeStyles, Option } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { addStation, editStation, getTariffs, STATION_STATUSES, type Station, type StationInput, type StationStatus } from '@/api/assets';
import { RegionPicker } from '@/components/demo/RegionPicker';
import { hoursFormOf, hoursText, OpeningHoursField, type HoursForm } from './OpeningHoursField';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: '10px 14px' },
  wide: { gridColumn: '1 / -1' },
});

const EMPTY: StationInput = {
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
  tariffId: '',
};

/** The editable fields of a station (create and edit); the server validates and its message is shown. */
export function inputOf(s: Station): StationInput {
  const { code, name, operator, provinceCode, cityCode, districtCode, address, lat, lng, openingHours, status, servicePhone, parkingInfo, tariffId } = s;
  return { code, name, operator, provinceCode, cityCode, districtCode, address, lat, lng, openingHours, status, servicePhone, parkingInfo, tariffId };
}

/** Create (no `station`) or edit a station's basic data. */
export function StationDialog({ open, station, onClose, onSaved }: { open: boolean; station?: Station; onClose: () => void; onSaved: (s: Station) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [form, setForm] = useState<StationInput>(EMPTY);
  const [latText, setLatText] = useState('');
  const [lngText, setLngText] = useState('');
  const [busy, setBusy] = useState(false);
  const [hours, setHours] = useState<HoursForm>(() => hoursFormOf(EMPTY.openingHours));
  const [hoursError, setHoursError] = useState<string | undefined>();
  const { data: tariffs } = useSWR(open ? 'tariff/getList' : null, getTariffs);
  useEffect(() => {
    if (!open) return;
    const f = station ? inputOf(station) : EMPTY;
    setForm(f);
    setLatText(f.lat == null ? '' : String(f.lat));
    setLngText(f.lng == null ? '' : String(f.lng));
    setHours(hoursFormOf(f.openingHours));
    setHoursError(undefined);
  }, [open, station]);
  const set = <K extends keyof StationInput>(k: K, v: StationInput[K]) => setForm((f) => ({ ...f, [k]: v }));
  const region = [form.provinceCode, form.cityCode, form.districtCode ?? ''].filter(Boolean);
  const num = (s: string) => (s.trim() === '' || Number.isNaN(Number(s)) ? null : Number(s));

  async function save() {
    const h = hoursText(hours, t);
    if ('error' in h) {
      setHoursError(h.error);
      return;
    }
    setHoursError(undefined);
    setBusy(true);
    try {
      const body = { ...form, openingHours: h.text, lat: num(latText), lng: num(lngText) };
      const res = station ? await editStation({ ...body, id: station.id, version: station.version }) : await addStation(body);
      onSaved(res.data);
    } catch {
      // The request layer showed the server's message.
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
            <div className={styles.grid} data-testid="station-form">
              <Field label={t('ast.station.name')} required>
                <Input name="name" value={form.name} onChange={(_, d) => set('name', d.value)} />
              </Field>
              <Field label={t('ast.station.code')} required>
                <Input name="code" value={form.code} onChange={(_, d) => set('code', d.value)} />
              </Field>
              <Field label={t('ast.station.operator')}>
                <Input name="operator" value={form.operator} onChange={(_, d) => set('operator', d.value)} />
              </Field>
              <Field label={t('ast.station.region')} required className={styles.wide}>
                <RegionPicker
                  value={region}
                  onChange={(codes) => setForm((f) => ({ ...f, provinceCode: codes[0] ?? '', cityCode: codes[1] ?? '', districtCode: codes[2] && codes[2] !== codes[1] ? codes[2] : null }))}
                />
              </Field>
              <Field label={t('ast.station.address')} required className={styles.wide}>
                <Input name="address" value={form.address} onChange={(_, d) => set('address', d.value)} />
              </Field>
              <Field label={t('ast.station.lat')} required>
                <Input name="lat" inputMode="decimal" value={latText} onChange={(_, d) => setLatText(d.value)} />
              </Field>
              <Field label={t('ast.station.lng')} required>
                <Input name="lng" inputMode="decimal" value={lngText} onChange={(_, d) => setLngText(d.value)} />
              </Field>
              <div className={styles.wide}>
                <OpeningHoursField
                  value={hours}
                  error={hoursError}
                  onChange={(v) => {
                    setHours(v);
                    setHoursError(undefined);
                  }}
                />
              </div>
              <Field label={t('ast.station.status')} required>
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
              <Field label={t('ast.station.phone')} required>
                <Input name="servicePhone" value={form.servicePhone} onChange={(_, d) => set('servicePhone', d.value)} />
              </Field>
              <Field label={t('ast.station.tariff')}>
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
              <Field label={t('ast.station.parkingInfo')} className={styles.wide}>
                <Input name="parkingInfo" value={form.parkingInfo} onChange={(_, d) => set('parkingInfo', d.value)} />
              </Field>
            </div>
          </DialogContent>
          <DialogActions>
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
