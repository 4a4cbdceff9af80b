import {
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Spinner,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceModel, type DeviceEvent, type KeptMonitor, type KeptProfile, type ReportedVariable } from '../api/chargers';
import { zonedDateTime } from '@/components/data/format';
import { connectorWords } from './commandWords';

const useStyles = makeStyles({
  surface: { maxWidth: 'min(960px, 96vw)', width: '960px' },
  scroll: { maxHeight: '60vh', overflow: 'auto' },
  table: { tableLayout: 'auto', minWidth: '720px' },
  muted: { color: tokens.colorNeutralForeground3 },
  mono: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
  monitors: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, marginTop: tokens.spacingVerticalM },
});

/** A variable's name with its instance, as 2.0.1 writes it (`Name[instance]`). */
const named = (name: string, instance: string | null | undefined) => (instance ? `${name}[${instance}]` : name);

/**
 * A 2.0.1 station's device model as it last reported it (a GetBaseReport's
 * NotifyReport pages, then GetVariables and accepted SetVariables): each
 * component's variables with their values, who may change them, unit and
 * limits; below them the monitors it holds on them (set here and accepted,
 * or listed in its monitoring report), filtered by name on the server, and
 * the charging profiles it reported holding (ReportChargingProfiles) and
 * the latest events its monitors and notifications reported (NotifyEvent).
 */
export function DeviceModelDialog({ pileId, code, onClose }: { pileId: string; code: string; onClose: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [filter, setFilter] = useState('');
  const q = useDeferredValue(filter.trim());
  const model = useDeviceModel(pileId, q);
  const list = model.data?.list ?? [];
  const where = (v: { evseId?: number | null }) => (v.evseId == null ? t('chg.dm.station') : connectorWords(t, v.evseId));
  const values = (v: ReportedVariable) =>
    v.attributes.map((a) => (a.type === 'Actual' ? (a.value ?? '—') : `${t(`chg.dm.attr.${a.type}`, { defaultValue: a.type })}: ${a.value ?? '—'}`)).join(' · ') || '—';
  const monitors = model.data?.monitors ?? [];
  const profiles = model.data?.chargingProfiles ?? [];
  const events = model.data?.events ?? [];
  // The value an event reported, with its technical code and text when given.
  const eventDetail = (e: DeviceEvent) => [e.techCode, e.techInfo].filter(Boolean).join(' · ');
  // The limit of a profile's first schedule's first period, in its unit.
  const profileLimit = (p: KeptProfile) => {
    const s = p.schedules[0] as { chargingRateUnit?: string; chargingSchedulePeriod?: { limit?: number }[] } | undefined;
    const limit = s?.chargingSchedulePeriod?.[0]?.limit;
    return limit == null ? '—' : `${limit} ${s?.chargingRateUnit ?? ''}`.trim();
  };
  const monitorValue = (m: KeptMonitor) => (m.type === 'Periodic' || m.type === 'PeriodicClockAligned' ? t('chg.dm.monitors.seconds', { value: m.value }) : String(m.value));
  const limits = (v: ReportedVariable) => [v.unit, v.minLimit != null || v.maxLimit != null ? `${v.minLimit ?? ''}–${v.maxLimit ?? ''}` : null, v.valuesList].filter(Boolean).join(' · ');
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface className={styles.surface} data-testid="device-model-dialog">
        <DialogBody>
          <DialogTitle>
            {t('chg.dm.title')} · <span translate="no">{code}</span>
          </DialogTitle>
          <DialogContent>
            <Field label={t('chg.dm.filter')}>
              <Input value={filter} maxLength={50} onChange={(_, d) => setFilter(d.value)} data-testid="device-model-filter" />
            </Field>
            {model.isLoading ? (
              <Spinner size="small" />
            ) : list.length === 0 ? (
              <Caption1 className={styles.muted} data-testid="device-model-none">
                {q ? t('chg.dm.noMatch') : t('chg.dm.none')}
              </Caption1>
            ) : (
              <div className={styles.scroll}>
                <Caption1 className={styles.muted}>{t('chg.dm.count', { count: model.data?.total ?? 0 })}</Caption1>
                <Table size="extra-small" className={styles.table} aria-label={t('chg.dm.title')}>
                  <TableHeader>
                    <TableRow>
                      <TableHeaderCell>{t('chg.dm.component')}</TableHeaderCell>
                      <TableHeaderCell>{t('chg.dm.variable')}</TableHeaderCell>
                      <TableHeaderCell>{t('chg.dm.value')}</TableHeaderCell>
                      <TableHeaderCell>{t('chg.dm.access')}</TableHeaderCell>
                      <TableHeaderCell>{t('chg.dm.limits')}</TableHeaderCell>
                      <TableHeaderCell>{t('chg.dm.reportedAt')}</TableHeaderCell>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {list.map((v) => (
                      <TableRow key={`${v.component}#${v.componentInstance ?? ''}#${v.evseId ?? ''}#${v.connectorId ?? ''}#${v.variable}#${v.variableInstance ?? ''}`} data-testid="device-model-row">
                        <TableCell>
                          <span translate="no">{named(v.component, v.componentInstance)}</span> <Caption1 className={styles.muted}>{where(v)}</Caption1>
                        </TableCell>
                        <TableCell translate="no">{named(v.variable, v.variableInstance)}</TableCell>
                        <TableCell className={styles.mono} translate="no" data-testid="device-model-value">
                          {values(v)}
                        </TableCell>
                        <TableCell>{v.attributes[0]?.mutability ? t(`chg.dm.mutability.${v.attributes[0].mutability}`, { defaultValue: v.attributes[0].mutability }) : '—'}</TableCell>
                        <TableCell translate="no">{limits(v) || '—'}</TableCell>
                        <TableCell>{v.reportedAt ? zonedDateTime(v.reportedAt) : '—'}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </div>
            )}
            {!model.isLoading && (
              <section className={styles.monitors} data-testid="device-model-monitors">
                <Subtitle2>{t('chg.dm.monitors.title')}</Subtitle2>
                {monitors.length === 0 ? (
                  <Caption1 className={styles.muted} data-testid="device-model-monitors-none">
                    {t('chg.dm.monitors.none')}
                  </Caption1>
                ) : (
                  <div className={styles.scroll}>
                    <Caption1 className={styles.muted}>{t('chg.dm.monitors.count', { count: monitors.length })}</Caption1>
                    <Table size="extra-small" className={styles.table} aria-label={t('chg.dm.monitors.title')}>
                      <TableHeader>
                        <TableRow>
                          <TableHeaderCell>{t('chg.dm.monitors.id')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.monitors.watches')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.monitors.type')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.monitors.value')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.monitors.severity')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.monitors.source')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.monitors.knownAt')}</TableHeaderCell>
                        </TableRow>
                      </TableHeader>
                      <TableBody>
                        {monitors.map((m) => (
                          <TableRow key={m.id} data-testid="device-model-monitor">
                            <TableCell translate="no">{m.id}</TableCell>
                            <TableCell>
                              <span translate="no">
                                {named(m.component, m.componentInstance)}.{named(m.variable, m.variableInstance)}
                              </span>{' '}
                              <Caption1 className={styles.muted}>{where(m)}</Caption1>
                            </TableCell>
                            <TableCell title={m.type}>
                              {t(`chg.dm.monitors.kind.${m.type}`, { defaultValue: m.type })}
                              {m.transaction ? <Caption1 className={styles.muted}> · {t('chg.dm.monitors.onlyInTransaction')}</Caption1> : null}
                            </TableCell>
                            <TableCell translate="no">{monitorValue(m)}</TableCell>
                            <TableCell translate="no">{m.severity}</TableCell>
                            <TableCell>{t(`chg.dm.monitors.from.${m.source}`)}</TableCell>
                            <TableCell>{zonedDateTime(m.knownAt)}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </div>
                )}
              </section>
            )}
            {!model.isLoading && (
              <section className={styles.monitors} data-testid="device-model-profiles">
                <Subtitle2>{t('chg.dm.profiles.title')}</Subtitle2>
                {profiles.length === 0 ? (
                  <Caption1 className={styles.muted} data-testid="device-model-profiles-none">
                    {t('chg.dm.profiles.none')}
                  </Caption1>
                ) : (
                  <div className={styles.scroll}>
                    <Caption1 className={styles.muted}>{t('chg.dm.profiles.count', { count: profiles.length })}</Caption1>
                    <Table size="extra-small" className={styles.table} aria-label={t('chg.dm.profiles.title')}>
                      <TableHeader>
                        <TableRow>
                          <TableHeaderCell>{t('chg.dm.profiles.evse')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.profiles.id')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.profiles.purpose')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.profiles.stackLevel')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.profiles.limit')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.profiles.source')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.profiles.reportedAt')}</TableHeaderCell>
                        </TableRow>
                      </TableHeader>
                      <TableBody>
                        {profiles.map((p) => (
                          <TableRow key={`${p.evseId}-${p.id}`} data-testid="device-model-profile">
                            <TableCell>{p.evseId === 0 ? t('chg.dm.station') : connectorWords(t, p.evseId)}</TableCell>
                            <TableCell translate="no">{p.id}</TableCell>
                            <TableCell title={p.purpose}>{t(`chg.opt.${p.purpose}`, { defaultValue: p.purpose })}</TableCell>
                            <TableCell translate="no">{p.stackLevel}</TableCell>
                            <TableCell translate="no">{profileLimit(p)}</TableCell>
                            <TableCell translate="no">{p.limitSource}</TableCell>
                            <TableCell>{zonedDateTime(p.reportedAt)}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </div>
                )}
              </section>
            )}
            {!model.isLoading && (
              <section className={styles.monitors} data-testid="device-model-events">
                <Subtitle2>{t('chg.dm.events.title')}</Subtitle2>
                {events.length === 0 ? (
                  <Caption1 className={styles.muted} data-testid="device-model-events-none">
                    {t('chg.dm.events.none')}
                  </Caption1>
                ) : (
                  <div className={styles.scroll}>
                    <Caption1 className={styles.muted}>{t('chg.dm.events.count', { count: events.length })}</Caption1>
                    <Table size="extra-small" className={styles.table} aria-label={t('chg.dm.events.title')}>
                      <TableHeader>
                        <TableRow>
                          <TableHeaderCell>{t('chg.dm.events.at')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.events.what')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.events.value')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.events.trigger')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.events.by')}</TableHeaderCell>
                          <TableHeaderCell>{t('chg.dm.events.state')}</TableHeaderCell>
                        </TableRow>
                      </TableHeader>
                      <TableBody>
                        {events.map((e) => (
                          <TableRow key={`${e.at}-${e.eventId}`} data-testid="device-model-event">
                            <TableCell>
                              {zonedDateTime(e.at)}
                              {e.timeReplaced ? <Caption1 className={styles.muted}> · {t('chg.dm.events.arrival')}</Caption1> : null}
                            </TableCell>
                            <TableCell>
                              <span translate="no">
                                {named(e.component, e.componentInstance)}.{named(e.variable, e.variableInstance)}
                              </span>{' '}
                              <Caption1 className={styles.muted}>{where(e)}</Caption1>
                            </TableCell>
                            <TableCell className={styles.mono} translate="no" data-testid="device-model-event-value">
                              {e.actualValue ?? '—'}
                              {eventDetail(e) ? <Caption1 className={styles.muted}> · {eventDetail(e)}</Caption1> : null}
                            </TableCell>
                            <TableCell title={e.trigger}>{t(`chg.dm.events.kind.${e.trigger}`, { defaultValue: e.trigger })}</TableCell>
                            <TableCell title={e.notificationType}>
                              {e.variableMonitoringId != null
                                ? t('chg.dm.events.monitor', { id: e.variableMonitoringId })
                                : t(`chg.dm.events.source.${e.notificationType}`, { defaultValue: e.notificationType })}
                            </TableCell>
                            <TableCell>{e.cleared ? t('chg.dm.events.cleared') : t('chg.dm.events.active')}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </div>
                )}
              </section>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.close')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
