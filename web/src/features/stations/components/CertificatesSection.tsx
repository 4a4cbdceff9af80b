import { Badge, Button, Caption1, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { Pile } from '../api/assets';
import { revokeCertificate, sendCommand, useCertificates, useSecurityEvents, type ChargerCertificate, type Command } from '../api/chargers';
import { confirm } from '@/components/Confirm';
import { zonedDateTime } from '@/components/data/format';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', rowGap: '4px' },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '6px 12px' },
  muted: { color: tokens.colorNeutralForeground3 },
  mono: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
  tableWrap: { overflowX: 'auto', maxWidth: '100%' },
  table: { tableLayout: 'auto', minWidth: '560px' },
});

/** The expiry badge of a certificate: expired, expiring within the warning window, or the days left. */
function Expiry({ c }: { c: ChargerCertificate }) {
  const { t } = useTranslation();
  if (c.notAfter == null) return <Caption1>{t('chg.cert.unknownEnd')}</Caption1>;
  const end = zonedDateTime(c.notAfter);
  if (c.expired) return <Badge color="danger" appearance="tint" title={end}>{t('chg.cert.expired')}</Badge>;
  if (c.expiring) return <Badge color="warning" appearance="tint" title={end} data-testid="cert-expiring">{t('chg.cert.expiring', { days: c.daysLeft })}</Badge>;
  return <Caption1 title={end}>{t('chg.cert.daysLeft', { days: c.daysLeft })}</Caption1>;
}

/**
 * The pile's certificates (issued by the product's CA, installed, reported
 * by the charger) with their expiry, and its latest security events. An
 * Admin (configure:charger) revokes an issued certificate, asks the
 * charger for its list, has it delete a root or sends an issued one again;
 * Editor and Test read.
 */
export function CertificatesSection({ pile, latest, canConfigure, onCommand }: { pile: Pile; latest: Pick<Command, 'id' | 'status'> | undefined; canConfigure: boolean; onCommand: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const certs = useCertificates(pile.id, latest);
  const events = useSecurityEvents({ pileId: pile.id }, 10);
  const list = certs.data?.list ?? [];
  const latestEvents = events.data?.[0]?.list ?? [];

  const send = async (path: string, body: Record<string, unknown>) => {
    try {
      const c = await sendCommand(path, { pileId: pile.id, ...body });
      notify(t(`chg.cmd.status.${c.status}`), c.status === 'offline' ? 'warning' : 'info');
      onCommand();
    } catch {
      // shown by the request layer
    }
  };
  const revoke = async (c: ChargerCertificate) => {
    if (!(await confirm(t('chg.cert.revokeConfirm', { serial: c.serial, code: pile.code })))) return;
    try {
      await revokeCertificate(pile.id, c.serial, c.version);
      notify(t('chg.cert.revoked'), 'info');
      await certs.mutate();
    } catch {
      // shown by the request layer
    }
  };

  return (
    <div className={styles.section} data-testid="charger-certificates">
      <div className={styles.row}>
        <Text weight="semibold">{t('chg.cert.title')}</Text>
        {certs.data && (
          <Caption1 className={styles.muted}>
            {t('chg.cert.profile', { profile: certs.data.securityProfile })} · {certs.data.profile3Possible ? t('chg.cert.profile3Here') : t('chg.cert.profile3NotHere')}
          </Caption1>
        )}
        {canConfigure && (
          <>
            <Button size="small" appearance="subtle" onClick={() => void send('getInstalledCertificateIds', { certificateType: 'CentralSystemRootCertificate' })} data-testid="cert-refresh">
              {t('chg.cert.askCharger')}
            </Button>
            <Button size="small" appearance="subtle" onClick={() => void send('extendedTrigger', { requestedMessage: 'SignChargePointCertificate' })}>
              {t('chg.cert.askCsr')}
            </Button>
          </>
        )}
      </div>
      {list.length === 0 ? (
        <Caption1 className={styles.muted}>{t('chg.cert.none')}</Caption1>
      ) : (
        <div className={styles.tableWrap}>
          <Table size="extra-small" className={styles.table} aria-label={t('chg.cert.title')}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t('chg.cert.kind')}</TableHeaderCell>
                <TableHeaderCell>{t('chg.cert.subject')}</TableHeaderCell>
                <TableHeaderCell>{t('chg.cert.serial')}</TableHeaderCell>
                <TableHeaderCell>{t('chg.cert.end')}</TableHeaderCell>
                <TableHeaderCell>{t('chg.cert.state')}</TableHeaderCell>
                {canConfigure && <TableHeaderCell />}
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((c) => (
                <TableRow key={`${c.origin}-${c.serial}`} data-testid="cert-row">
                  <TableCell>
                    {t(`chg.cert.type.${c.certificateType}`)} · {t(`chg.cert.origin.${c.origin}`)}
                  </TableCell>
                  <TableCell className={styles.mono}>{c.subject ?? '—'}</TableCell>
                  <TableCell className={styles.mono}>{c.serial}</TableCell>
                  <TableCell>
                    <Expiry c={c} />
                  </TableCell>
                  <TableCell>
                    <Badge appearance="tint" color={c.status === 'revoked' ? 'danger' : 'success'}>
                      {t(`chg.cert.status.${c.status}`)}
                    </Badge>
                  </TableCell>
                  {canConfigure && (
                    <TableCell>
                      {c.origin === 'issued' ? (
                        c.status === 'active' && (
                          <>
                            <Button size="small" appearance="subtle" onClick={() => void send('certificateSigned', { serial: c.serial })}>
                              {t('chg.cert.sendAgain')}
                            </Button>
                            <Button size="small" appearance="subtle" onClick={() => void revoke(c)} data-testid="cert-revoke">
                              {t('chg.cert.revoke')}
                            </Button>
                          </>
                        )
                      ) : (
                        <Button size="small" appearance="subtle" onClick={() => void send('deleteCertificate', { serial: c.serial })}>
                          {t('chg.cert.delete')}
                        </Button>
                      )}
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <Text weight="semibold">{t('chg.secEvent.title')}</Text>
      {latestEvents.length === 0 ? (
        <Caption1 className={styles.muted}>{t('chg.secEvent.none')}</Caption1>
      ) : (
        latestEvents.map((e) => (
          <Caption1 key={`${e.at}-${e.type}-${e.receivedAt}`} data-testid="sec-event">
            {zonedDateTime(e.at)} · <span translate="no">{e.type}</span> · {t(`chg.secEvent.source.${e.source}`)}
            {e.techInfo ? ` · ${e.techInfo}` : ''}
          </Caption1>
        ))
      )}
    </div>
  );
}
