import { Badge, Button, Caption1, Card, Dropdown, makeStyles, MessageBar, MessageBarBody, Option, Spinner, Subtitle1, Subtitle2, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataText } from '@/components/data/DataText';
import { useLocation, useSearchParams } from 'react-router';
import { actOnConnector, deletePile, editStation, useLivePiles, useStationDetail, useTariffs, type Pile, type Station, type StationInput } from '../api/assets';
import { ConnectorActions, ConnectorStatusBadge, HistoryDialog, StationStatusBadge } from '../components/ConnectorBits';
import { PileDialog } from '../components/PileDialog';
import { ChargerPanel } from '../components/ChargerPanel';
import { PowerBudget } from '../components/PowerBudget';
import { StationScreens } from '../components/StationScreens';
import { inputOf, StationDialog } from '../components/StationDialog';
import { TariffEditor } from '../components/TariffEditor';
import { confirm } from '@/components/Confirm';
import { zonedDateTime } from '@/components/data/format';
import { usePermission } from '@/components/Permission';
import { notify } from '@/utils/notify';
import { setTabLabel } from '@/store/tabs';
import { useHoursText } from '../components/OpeningHoursField';
import { isYkc, protocolKey } from '../model/ykc';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: '12px' },
  card: { padding: '16px', rowGap: '10px' },
  head: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '8px 16px' },
  facts: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: '6px 16px' },
  label: { color: tokens.colorNeutralForeground3, marginRight: '6px' },
  row: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center' },
  pile: { border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, padding: '10px', display: 'flex', flexDirection: 'column', rowGap: '6px' },
});

/** /connector/stationdetail?id=: one station's settings (a tab per station). */
export default function StationDetail() {
  const { t } = useTranslation();
  const hoursText = useHoursText();
  const styles = useStyles();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const canWrite = usePermission(['write:system']);
  const canDelete = usePermission(['delete:system']);
  const { data, mutate: mutateDetail, isLoading } = useStationDetail(id);
  // The piles' link and connector states, read again every few seconds.
  const live = useLivePiles(id, data?.piles);
  const mutate = async () => {
    await Promise.all([mutateDetail(), live.mutate()]);
  };
  const location = useLocation();
  const stationName = data?.station.name ?? '';
  // The tab reads the station's name, not the id in the URL.
  useEffect(() => setTabLabel(location.pathname + location.search, stationName), [location.pathname, location.search, stationName]);
  const tariffs = useTariffs();
  const [editing, setEditing] = useState(false);
  const [pileDialog, setPileDialog] = useState<{ pile?: Pile } | null>(null);
  const [history, setHistory] = useState<{ id: string; label: string } | null>(null);
  const [newTariff, setNewTariff] = useState(false);

  if (!id) return <MessageBar intent="warning"><MessageBarBody>{t('ast.station.notFound')}</MessageBarBody></MessageBar>;
  if (!data) return isLoading ? <Spinner /> : null;
  const s = data.station;
  const piles = live.data ?? data.piles;

  async function save(patch: Partial<StationInput>, st: Station = s) {
    try {
      await editStation({ ...inputOf(st), ...patch, id: st.id, version: st.version });
      notify(t('ast.saved'), 'success');
      await mutate();
      void tariffs.mutate();
    } catch {
      // The server's message was shown (a 409 says to reload).
    }
  }

  const fact = (label: string, value: React.ReactNode) => (
    <div>
      <Caption1 className={styles.label}>{label}</Caption1>
      <Text>{value}</Text>
    </div>
  );

  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <div className={styles.head}>
          <Subtitle1 as="h2" data-testid="station-title" translate="no">
            {s.name}
          </Subtitle1>
          <StationStatusBadge status={s.status} />
          <Caption1>
            {s.code} · {t('ast.version')} {s.version}
          </Caption1>
          {canWrite && (
            <div className={styles.row}>
              <Button size="small" onClick={() => setEditing(true)} data-testid="station-edit">
                {t('ast.station.edit')}
              </Button>
              {s.status === 'operating' ? (
                <Button size="small" onClick={async () => (await confirm(t('ast.station.disableConfirm'))) && save({ status: 'suspended' })}>
                  {t('ast.station.disable')}
                </Button>
              ) : (
                <Button size="small" onClick={() => void save({ status: 'operating' })}>
                  {t('ast.station.enable')}
                </Button>
              )}
            </div>
          )}
        </div>
        <div className={styles.facts} data-testid="station-facts">
          {fact(t('ast.station.region'), <DataText>{s.regionName}</DataText>)}
          {fact(t('ast.station.address'), <DataText>{s.address}</DataText>)}
          {fact(t('ast.station.gps'), `${s.lat}, ${s.lng}`)}
          {fact(t('ast.station.openingHours'), hoursText(s.openingHours))}
          {fact(t('ast.station.phone'), s.servicePhone)}
          {fact(t('ast.station.operator'), <DataText>{s.operator}</DataText>)}
          {fact(t('ast.station.parkingInfo'), s.parkingInfo ? <DataText>{s.parkingInfo}</DataText> : '—')}
          {fact(t('ast.station.piles'), `${s.pileCount} / ${t('ast.station.connectors')} ${s.connectorCount}`)}
          {fact(
            t('ast.station.updated'),
            <>
              {zonedDateTime(s.updatedAt)} <DataText>{s.updatedBy}</DataText>
            </>,
          )}
        </div>
      </Card>

      <Card className={styles.card}>
        <Subtitle2 as="h3">{t('ast.tariff.title')}</Subtitle2>
        <div className={styles.row}>
          <Caption1>{t('ast.tariff.assigned')}:</Caption1>
          <Dropdown
            aria-label={t('ast.tariff.choose')}
            data-testid="detail-tariff"
            translate="no"
            disabled={!canWrite}
            value={data.tariff?.template.name ?? t('ast.station.noTariff')}
            selectedOptions={[s.tariffId]}
            onOptionSelect={(_, d) => d.optionValue !== s.tariffId && void save({ tariffId: d.optionValue ?? '' })}
          >
            <Option value="">{t('ast.station.noTariff')}</Option>
            {(tariffs.data ?? []).map((x) => (
              <Option key={x.template.id} value={x.template.id}>
                {`${x.template.name} (v${x.template.version})`}
              </Option>
            ))}
          </Dropdown>
          {canWrite && (
            <Button size="small" onClick={() => setNewTariff((v) => !v)} data-testid="tariff-new">
              {newTariff ? t('ast.cancel') : t('ast.tariff.new')}
            </Button>
          )}
        </div>
        {newTariff ? (
          <TariffEditor
            entry={null}
            onSaved={(tpl) => {
              setNewTariff(false);
              void save({ tariffId: tpl.id });
            }}
          />
        ) : (
          data.tariff && (
            <TariffEditor
              entry={data.tariff}
              stationId={s.id}
              usage={data.tariffUsage}
              onSaved={() => {
                void mutate();
                void tariffs.mutate();
              }}
            />
          )
        )}
      </Card>

      <PowerBudget stationId={s.id} />

      {canWrite && <StationScreens stationName={s.name} piles={piles} />}

      <Card className={styles.card}>
        <div className={styles.row}>
          <Subtitle2 as="h3">{t('ast.pile.title')}</Subtitle2>
          {canWrite && (
            <Button size="small" appearance="primary" onClick={() => setPileDialog({})} data-testid="pile-add">
              {t('ast.pile.add')}
            </Button>
          )}
        </div>
        {piles.length === 0 && <Caption1>{t('ast.pile.none')}</Caption1>}
        {piles.map((p) => (
          <div key={p.id} className={styles.pile} data-testid="pile-card">
            <div className={styles.row}>
              <Text weight="semibold">{p.code}</Text>
              <Badge appearance="outline">{t(`ast.type.${p.pileType}`)}</Badge>
              <Badge appearance="tint" color={isYkc(p.ocppVersion) ? 'brand' : 'informative'} data-testid="pile-protocol" data-protocol={p.ocppVersion ?? '1.6'}>
                {t(`ykc.protocol.${protocolKey(p.ocppVersion)}`)}
              </Badge>
              <Caption1>{p.ratedPowerKw} kW</Caption1>
              <Badge appearance="tint" color={p.online ? 'success' : 'important'} data-testid="pile-online">
                {p.online ? t('ast.pile.online') : t('ast.pile.offline')}
              </Badge>
              <Caption1>
                {t('ast.pile.lastHeartbeat')}: {p.lastHeartbeat ? zonedDateTime(p.lastHeartbeat) : t('ast.pile.never')}
              </Caption1>
              <Caption1 translate="no">
                {p.vendor} {p.model} {p.firmwareVersion}
              </Caption1>
              {canWrite &&
                (['disable', 'enable'] as const).map((a) => (
                  <Button
                    key={a}
                    size="small"
                    appearance="subtle"
                    disabled={!p.connectors.some((c) => c.allowedActions.includes(a))}
                    onClick={async () => {
                      // A pile is taken out of (or back into) service connector by connector; each is
                      // logged, and a connected charger is sent ChangeAvailability for each.
                      let last = '';
                      for (const c of p.connectors.filter((c) => c.allowedActions.includes(a))) {
                        try {
                          last = (await actOnConnector(c.id, a)).msg;
                        } catch {
                          // shown by the request layer
                        }
                      }
                      if (last) notify(last, 'success', 6000);
                      void mutate();
                    }}
                  >
                    {t(`ast.pile.${a}All`)}
                  </Button>
                ))}
              {canWrite && (
                <Button size="small" appearance="subtle" onClick={() => setPileDialog({ pile: p })}>
                  {t('ast.pile.edit')}
                </Button>
              )}
              {canDelete && (
                <Button
                  size="small"
                  appearance="subtle"
                  onClick={async () => {
                    if (!(await confirm(t('ast.pile.deleteConfirm', { code: p.code })))) return;
                    try {
                      await deletePile(p.id);
                      void mutate();
                    } catch {
                      // shown by the request layer
                    }
                  }}
                >
                  {t('ast.pile.delete')}
                </Button>
              )}
            </div>
            <ChargerPanel pile={p} onChanged={() => void mutate()} />
            <Table size="extra-small">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t('ast.connector.number')}</TableHeaderCell>
                  <TableHeaderCell>{t('ast.connector.standard')}</TableHeaderCell>
                  <TableHeaderCell>{t('ast.connector.maxPower')}</TableHeaderCell>
                  <TableHeaderCell>{t('ast.connector.status')}</TableHeaderCell>
                  <TableHeaderCell>{t('ast.connector.since')}</TableHeaderCell>
                  <TableHeaderCell>{t('ast.connector.qr')}</TableHeaderCell>
                  <TableHeaderCell />
                </TableRow>
              </TableHeader>
              <TableBody>
                {p.connectors.map((c) => (
                  <TableRow key={c.id} data-testid="connector-row">
                    <TableCell>#{c.number}</TableCell>
                    <TableCell>{t(`ast.standard.${c.standard}`)}</TableCell>
                    <TableCell>{c.maxPowerKw}</TableCell>
                    <TableCell>
                      <ConnectorStatusBadge c={c} />
                      {c.faultCode && <Caption1 translate="no"> {c.faultCode}</Caption1>}
                    </TableCell>
                    <TableCell>{zonedDateTime(c.statusSince)}</TableCell>
                    <TableCell>
                      <Caption1 title={t('ast.connector.qrPayload')} data-testid="connector-qr">
                        {c.qrPayload}
                      </Caption1>
                    </TableCell>
                    <TableCell>
                      <ConnectorActions c={c} protocol={p.ocppVersion} onDone={() => void mutate()} />
                      <Button size="small" appearance="subtle" onClick={() => setHistory({ id: c.id, label: `${c.pileCode} #${c.number}` })}>
                        {t('ast.connector.history')}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        ))}
      </Card>

      <StationDialog
        open={editing}
        station={s}
        onClose={() => setEditing(false)}
        onSaved={() => {
          setEditing(false);
          notify(t('ast.saved'), 'success');
          void mutate();
        }}
      />
      <PileDialog
        open={!!pileDialog}
        stationId={s.id}
        pile={pileDialog?.pile}
        onClose={() => setPileDialog(null)}
        onSaved={() => {
          setPileDialog(null);
          notify(t('ast.saved'), 'success');
          void mutate();
        }}
      />
      <HistoryDialog connectorId={history?.id ?? null} label={history?.label} onClose={() => setHistory(null)} />
    </div>
  );
}
