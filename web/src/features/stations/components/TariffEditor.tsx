import { Button, Caption1, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Dropdown, Field, Input, makeStyles, Option, Subtitle2, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATA_SLOT, WithData } from '@/components/data/DataText';
import { addTariff, editTariff, getTariffVersion, TIERS, useTariffVersions, type Segment, type TariffEntry, type TariffForm, type TariffUsage, type Tier } from '../api/assets';
import { zonedDateTime } from '@/components/data/format';
import { usePermission } from '@/components/Permission';
import { notify } from '@/utils/notify';
import { TariffPushes, type TariffPush } from './TariffPushes';
import { BOUNDARIES, formatUnitPrice, NEW_SEGMENTS, pricesFromInputs, segmentProblems, slotsOf, splitSegment, tiersUsed } from '../model/tariffModel';

const TIER_COLOUR: Record<Tier, string> = { sharp: '#d13438', peak: '#f7630c', flat: '#0f6cbd', valley: '#107c10' };

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', rowGap: '10px' },
  bar: { display: 'grid', gridTemplateColumns: 'repeat(48, 1fr)', height: '18px', borderRadius: '4px', overflow: 'hidden', border: `1px solid ${tokens.colorNeutralStroke2}` },
  ticks: { display: 'flex', justifyContent: 'space-between', color: tokens.colorNeutralForeground3 },
  seg: { display: 'flex', flexWrap: 'wrap', columnGap: '6px', alignItems: 'center' },
  dd: { minWidth: '110px', width: '110px' },
  prices: { display: 'grid', gridTemplateColumns: '60px 1fr 1fr', gap: '6px 10px', alignItems: 'center', maxWidth: '480px' },
  problems: { color: tokens.colorPaletteRedForeground1, margin: 0, paddingLeft: '18px' },
  row: { display: 'flex', columnGap: '8px', flexWrap: 'wrap', alignItems: 'end' },
  muted: { color: tokens.colorNeutralForeground3 },
});

type PriceInputs = Partial<Record<Tier, { electricity: string; service: string }>>;

function inputsOf(t: TariffForm | null): PriceInputs {
  const out: PriceInputs = {};
  for (const tier of TIERS) {
    const p = t?.prices[tier];
    out[tier] = { electricity: p ? formatUnitPrice(p.electricity) : '', service: p ? formatUnitPrice(p.service) : '' };
  }
  return out;
}

/** How many names the "used by" line lists before "…". */
const USERS_SHOWN = 8;

/**
 * Edits a time-of-use template: schedule segments (half-hour steps), prices
 * per used tier, optional occupancy fee. Saving an existing template makes a
 * new version (the server keeps the old ones); `onSaved` gets the result.
 * Opened from a station's page (`stationId`, `usage`), it lists the stations
 * sharing the template and, when others use it too, asks whether the change
 * applies to all of them or only to this station (a copy for it).
 */
export function TariffEditor({
  entry,
  onSaved,
  stationId,
  usage,
}: {
  entry: TariffEntry | null;
  onSaved: (t: TariffForm) => void;
  stationId?: string;
  usage?: TariffUsage | null;
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  const canWrite = usePermission(['write:system']);
  const base = entry?.template ?? null;
  const [name, setName] = useState('');
  const [segments, setSegments] = useState<Segment[]>(NEW_SEGMENTS);
  const [inputs, setInputs] = useState<PriceInputs>(inputsOf(null));
  const [parkingOn, setParkingOn] = useState(false);
  const [free, setFree] = useState('0');
  const [perMinute, setPerMinute] = useState('0');
  const [busy, setBusy] = useState(false);
  // The YKC piles the last save went to, followed until they answer.
  const [pushed, setPushed] = useState<TariffPush[]>([]);
  const [asking, setAsking] = useState(false);
  const shared = !!stationId && (usage?.total ?? 0) > 1;
  const load = (tpl: TariffForm | null) => {
    setName(tpl?.name ?? '');
    setSegments(tpl?.segments ?? NEW_SEGMENTS);
    setInputs(inputsOf(tpl));
    setParkingOn(!!tpl?.parking);
    setFree(String(tpl?.parking?.freeMinutes ?? 0));
    setPerMinute(String(tpl?.parking?.fenPerMinute ?? 0));
  };
  useEffect(() => load(base), [base]);
  const versions = useTariffVersions(base);

  const problems = segmentProblems(segments);
  const used = tiersUsed(segments);
  const { prices, bad } = pricesFromInputs(used, inputs);
  const slots = useMemo(() => slotsOf(segments), [segments]);
  const setSeg = (i: number, patch: Partial<Segment>) => setSegments((all) => all.map((s, j) => (j === i ? { ...s, ...patch } : s)));

  function askOrSave() {
    if (bad.length) {
      notify(t('ast.tariff.badPrice', { tiers: bad.map((x) => t(`ast.tier.${x}`)).join(', ') }), 'error');
      return;
    }
    // Others share it: the operator chooses; otherwise the only user is this station (or no station: the template itself).
    if (base && shared) setAsking(true);
    else void save('allStations');
  }

  async function save(apply: 'allStations' | 'thisStation') {
    setAsking(false);
    setBusy(true);
    try {
      const parking = parkingOn ? { freeMinutes: Number(free) || 0, fenPerMinute: Number(perMinute) || 0 } : null;
      const body = { name, segments, prices, parking };
      const res = base ? await editTariff({ ...body, id: base.id, version: base.version }, apply, stationId) : await addTariff(body);
      setPushed(res.data.pushed ?? []);
      notify(apply === 'thisStation' ? t('ast.tariff.copySaved', { name: res.data.template.name }) : t('ast.saved'), 'success');
      onSaved(res.data.template);
    } catch {
      // The server's message was shown.
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.box} data-testid="tariff-editor">
      {base && usage && (
        <Caption1 data-testid="tariff-usage">
          {usage.total > 1 ? (
            <WithData
              sentence={t('ast.tariff.usedBy', { count: usage.total, names: DATA_SLOT })}
              data={usage.stations.slice(0, USERS_SHOWN).map((s) => s.name).join('、') + (usage.total > USERS_SHOWN ? ' …' : '')}
            />
          ) : (
            t('ast.tariff.usedByOnlyThis')
          )}
        </Caption1>
      )}
      <Field label={t('ast.tariff.name')} required>
        <Input name="tariffName" value={name} onChange={(_, d) => setName(d.value)} disabled={!canWrite} />
      </Field>
      <Subtitle2>{t('ast.tariff.schedule')}</Subtitle2>
      <div className={styles.bar} aria-hidden>
        {slots.map((tier, i) => (
          <span key={i} title={tier ? t(`ast.tier.${tier}`) : ''} style={{ background: tier ? TIER_COLOUR[tier] : 'transparent' }} />
        ))}
      </div>
      <Caption1 className={styles.ticks}>
        <span>00:00</span>
        <span>06:00</span>
        <span>12:00</span>
        <span>18:00</span>
        <span>24:00</span>
      </Caption1>
      {segments.map((s, i) => (
        <div key={i} className={styles.seg} data-testid="tariff-segment">
          {(['start', 'end'] as const).map((k) => (
            <Dropdown key={k} className={styles.dd} size="small" aria-label={`${t(`ast.tariff.${k}`)} ${i + 1}`} value={s[k]} selectedOptions={[s[k]]} disabled={!canWrite} onOptionSelect={(_, d) => setSeg(i, { [k]: d.optionValue })}>
              {BOUNDARIES.map((b) => (
                <Option key={b} value={b}>
                  {b}
                </Option>
              ))}
            </Dropdown>
          ))}
          <Dropdown className={styles.dd} size="small" aria-label={`${t('ast.tariff.tier')} ${i + 1}`} value={t(`ast.tier.${s.tier}`)} selectedOptions={[s.tier]} disabled={!canWrite} onOptionSelect={(_, d) => setSeg(i, { tier: d.optionValue as Tier })}>
            {TIERS.map((x) => (
              <Option key={x} value={x}>
                {t(`ast.tier.${x}`)}
              </Option>
            ))}
          </Dropdown>
          <Button size="small" disabled={!canWrite} onClick={() => setSegments((all) => splitSegment(all, i) ?? all)}>
            {t('ast.tariff.split')}
          </Button>
          <Button size="small" appearance="subtle" disabled={!canWrite || segments.length < 2} onClick={() => setSegments((all) => all.filter((_, j) => j !== i))}>
            {t('ast.tariff.remove')}
          </Button>
        </div>
      ))}
      {problems.length > 0 && (
        <ul className={styles.problems} data-testid="tariff-problems">
          {problems.map((p, i) => (
            <li key={i}>{t(`ast.tariff.problems.${p.key}`, { n: (p.index ?? 0) + 1, ...p.params })}</li>
          ))}
        </ul>
      )}
      <Subtitle2>{t('ast.tariff.prices')}</Subtitle2>
      <div className={styles.prices}>
        <span />
        <Caption1>{t('ast.tariff.electricity')}</Caption1>
        <Caption1>{t('ast.tariff.service')}</Caption1>
        {used.map((tier) => (
          <div key={tier} style={{ display: 'contents' }}>
            <span style={{ color: TIER_COLOUR[tier], fontWeight: 600 }}>{t(`ast.tier.${tier}`)}</span>
            {(['electricity', 'service'] as const).map((k) => (
              <Input
                key={k}
                size="small"
                aria-label={`${t(`ast.tier.${tier}`)} ${t(`ast.tariff.${k}`)}`}
                name={`${tier}-${k}`}
                value={inputs[tier]?.[k] ?? ''}
                disabled={!canWrite}
                onChange={(_, d) => setInputs((x) => ({ ...x, [tier]: { ...(x[tier] ?? { electricity: '', service: '' }), [k]: d.value } }))}
              />
            ))}
          </div>
        ))}
      </div>
      <div className={styles.row}>
        <Checkbox label={t('ast.tariff.parking')} checked={parkingOn} disabled={!canWrite} onChange={(_, d) => setParkingOn(!!d.checked)} />
        {parkingOn && (
          <>
            <Field label={t('ast.tariff.freeMinutes')}>
              <Input size="small" value={free} onChange={(_, d) => setFree(d.value)} />
            </Field>
            <Field label={t('ast.tariff.fenPerMinute')}>
              <Input size="small" value={perMinute} onChange={(_, d) => setPerMinute(d.value)} />
            </Field>
          </>
        )}
      </div>
      <Caption1 className={styles.muted}>{t('ast.tariff.versionNote')}</Caption1>
      {canWrite && (
        <div>
          <Button appearance="primary" disabled={busy || problems.length > 0} onClick={askOrSave} data-testid="tariff-save">
            {base ? t('ast.tariff.saveNewVersion') : t('ast.save')}
          </Button>
        </div>
      )}
      <TariffPushes pushed={pushed} />
      <Dialog open={asking} onOpenChange={(_, d) => !d.open && setAsking(false)}>
        <DialogSurface data-testid="tariff-apply">
          <DialogBody>
            <DialogTitle>{t('ast.tariff.applyTitle', { count: usage?.total ?? 0 })}</DialogTitle>
            <DialogContent>
              <p>{t('ast.tariff.applyBody')}</p>
              <Caption1 translate="no">{(usage?.stations ?? []).map((s) => s.name).join('、')}</Caption1>
            </DialogContent>
            <DialogActions fluid>
              <Button appearance="primary" onClick={() => void save('allStations')} data-testid="tariff-apply-all">
                {t('ast.tariff.applyAll', { count: usage?.total ?? 0 })}
              </Button>
              <Button onClick={() => void save('thisStation')} data-testid="tariff-apply-this">
                {t('ast.tariff.applyThis')}
              </Button>
              <Button appearance="subtle" onClick={() => setAsking(false)}>
                {t('ast.cancel')}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
      {base && (versions.data ?? []).length > 0 && (
        <>
          <Subtitle2>{t('ast.tariff.versions')}</Subtitle2>
          <Table size="extra-small" style={{ maxWidth: '520px' }}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t('ast.version')}</TableHeaderCell>
                <TableHeaderCell>{t('ast.station.updated')}</TableHeaderCell>
                <TableHeaderCell>{t('ast.connector.by')}</TableHeaderCell>
                <TableHeaderCell />
              </TableRow>
            </TableHeader>
            <TableBody>
              {(versions.data ?? []).map((v) => (
                <TableRow key={v.version}>
                  <TableCell>v{v.version}</TableCell>
                  <TableCell>{zonedDateTime(v.updatedAt)}</TableCell>
                  <TableCell translate="no">{v.updatedBy}</TableCell>
                  <TableCell>
                    <Button size="small" appearance="subtle" onClick={async () => load((await getTariffVersion(base.id, v.version)).template)}>
                      {t('ast.tariff.viewVersion')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </div>
  );
}
