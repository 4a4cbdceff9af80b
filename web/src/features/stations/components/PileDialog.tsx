import { Button, Caption1, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, makeStyles, MessageBar, MessageBarBody, mergeClasses, Select, Subtitle2, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addPile, editPile, REGISTRATION_STATUSES, STANDARDS, useYkcPort, type OcppVersion, type Pile, type PileType, type RegistrationStatus, type Standard } from '../api/assets';
import { chargerUrl } from '../api/chargers';
import { isYkc, protocolKey, PROTOCOLS, ykcAddress } from '../model/ykc';
import { useFieldErrors } from '@/components/forms/useFieldErrors';
import { usePermission } from '@/components/Permission';
import { checkField, type FieldSpec, type Rule } from '@/utils/formRules';
import { clearErrorToasts } from '@/utils/notify';

const useStyles = makeStyles({
  // Native selects fill their cell (a Fluent Dropdown keeps a 250 px minimum and ran into the next field).
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(200px, 100%), 1fr))', gap: '10px 14px', alignItems: 'start' },
  // A native select is as wide as its longest choice unless told to fit its field.
  fit: { minWidth: 0, maxWidth: '100%', '& select': { minWidth: 0, maxWidth: '100%', textOverflow: 'ellipsis' } },
  // Grid items keep their content's width unless told they may shrink: the
  // last field (with its hint) ran past the dialog's edge.
  conn: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(140px, 100%), 1fr))', gap: '8px 14px', alignItems: 'start', marginTop: '8px', '& > *': { minWidth: 0 } },
  connTitle: { display: 'block', marginTop: '16px' },
  fill: { width: '100%', minWidth: 0 },
  address: { display: 'flex', flexDirection: 'column', rowGap: '2px', marginTop: '12px' },
  mono: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/**
 * Where to point the pile, for its protocol: the WebSocket URL of an OCPP
 * charger (its id is the code), or this site's host and the gateway's YKC
 * port for a YKC pile, or why a YKC pile cannot connect here.
 */
function ConnectAddress({ stationId, code, protocol }: { stationId: string; code: string; protocol: OcppVersion }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const ykc = isYkc(protocol);
  const port = useYkcPort(ykc ? stationId : null);
  if (ykc && port.data === undefined) return null;
  // Before a code is typed the URL ends where the code will go.
  const address = ykc ? ykcAddress(port.data) : code.trim() ? chargerUrl(code.trim()) : `${chargerUrl('')}…`;
  return (
    <div className={styles.address} data-testid="pile-address">
      <Caption1>{t('ykc.connectTo')}</Caption1>
      {address === null ? (
        <MessageBar intent="warning" data-testid="pile-address-none">
          <MessageBarBody>{t('ykc.noPort')}</MessageBarBody>
        </MessageBar>
      ) : (
        <>
          <Caption1 className={styles.mono} translate="no" data-testid="pile-address-value">
            {address}
          </Caption1>
          <Caption1 className={styles.muted}>{ykc ? t('ykc.tcpHint') : t('ykc.wsHint')}</Caption1>
        </>
      )}
    </div>
  );
}

interface ConnRow {
  standard: Standard;
  maxPowerKw: string;
  qrCode: string;
}

const int = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s) : NaN);

/** The server's limits (domain/assets/piles.rs `PileInput::problems`), enforced in the inputs too. */
export const PILE_MAX = { code: 32, vendor: 50, model: 50, firmwareVersion: 50, qrCode: 200 } as const;
/** A YKC pile number as typed (white space around it is trimmed by the server). */
const YKC_CODE = /^\s*\d{14}\s*$/;
const POWER: Rule = { required: true, whitespace: true, type: 'integer', min: 1, max: 1000 };

/** The form's key of a field a 400 names: `connectors[1].qrCode` is `c1.qrCode`. */
function pileKeyOf(serverField: string): string | undefined {
  const conn = /^connectors\[(\d+)\]\.(maxPowerKw|qrCode)$/.exec(serverField);
  if (conn) return `c${conn[1]}.${conn[2]}`;
  return ['code', 'vendor', 'model', 'firmwareVersion', 'ratedPowerKw', 'heartbeatIntervalSecs', 'pileType'].find((k) => k === serverField);
}

/** Register a pile with its connectors, or edit a registered pile's descriptive fields. */
export function PileDialog({ open, stationId, pile, onClose, onSaved }: { open: boolean; stationId: string; pile?: Pile; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  // A charger's security profile is one of its credentials: only configure:charger (Admin) chooses it (the server checks).
  const canConfigure = usePermission(['configure:charger']);
  // null: the server's default (2 where chargers connect over TLS, else 1).
  const [f, setF] = useState({ code: '', vendor: '', model: '', firmwareVersion: '', pileType: 'dc' as PileType, ratedPowerKw: '120', heartbeatIntervalSecs: '30', registrationStatus: 'Accepted' as RegistrationStatus, ocppVersion: '1.6' as OcppVersion, securityProfile: null as number | null });
  const [conns, setConns] = useState<ConnRow[]>([{ standard: 'gbt2015', maxPowerKw: '120', qrCode: '' }]);
  const [busy, setBusy] = useState(false);
  // A YKC pile's code is its 14-digit pile number (the server refuses any other, naming `code`).
  const ykc = isYkc(f.ocppVersion);
  const codeLabel = ykc ? t('ykc.pileNumber') : t('ast.pile.code');
  const codeRules = (ykcPile: boolean): Rule[] =>
    ykcPile
      ? [{ required: true, whitespace: true }, { pattern: YKC_CODE, message: t('ykc.pileNumberRule') }]
      : [{ required: true, whitespace: true, max: PILE_MAX.code }, { pattern: /^\s*[A-Za-z0-9_-]+\s*$/, message: t('ast.form.pileCodePattern', { n: PILE_MAX.code }) }];
  const specs = (): Array<[string, FieldSpec]> => [
    ['code', { label: codeLabel, rules: codeRules(ykc) }],
    ['ratedPowerKw', { label: t('ast.pile.power'), rules: [POWER] }],
    ['heartbeatIntervalSecs', { label: t('ast.pile.heartbeat'), rules: [{ required: true, whitespace: true, type: 'integer', min: 10, max: 3600 }] }],
    ['vendor', { label: t('ast.pile.vendor'), rules: [{ max: PILE_MAX.vendor }] }],
    ['model', { label: t('ast.pile.model'), rules: [{ max: PILE_MAX.model }] }],
    ['firmwareVersion', { label: t('ast.pile.firmware'), rules: [{ max: PILE_MAX.firmwareVersion }] }],
    ...(pile
      ? []
      : conns.flatMap((_, i): Array<[string, FieldSpec]> => [
          // Shown on the connector's own row, so the label needs no number.
          [`c${i}.maxPowerKw`, { label: t('ast.connector.maxPower'), rules: [POWER] }],
          [`c${i}.qrCode`, { label: t('ast.connector.qr'), rules: [{ max: PILE_MAX.qrCode }] }],
        ])),
  ];
  const fe = useFieldErrors<string>(specs);
  // Stable (a callback of the hook); fe itself is a new object each render.
  const resetErrors = fe.reset;
  const values = (): Record<string, unknown> => {
    const v: Record<string, unknown> = { ...f };
    conns.forEach((c, i) => {
      v[`c${i}.maxPowerKw`] = c.maxPowerKw;
      v[`c${i}.qrCode`] = c.qrCode;
    });
    return v;
  };
  const recheck = (k: string, value: unknown) => {
    if (fe.errors[k]) fe.check(k, value);
  };
  useEffect(() => {
    if (!open) return;
    resetErrors();
    if (pile) {
      setF({ code: pile.code, vendor: pile.vendor, model: pile.model, firmwareVersion: pile.firmwareVersion, pileType: pile.pileType, ratedPowerKw: String(pile.ratedPowerKw), heartbeatIntervalSecs: String(pile.heartbeatIntervalSecs), registrationStatus: pile.registrationStatus ?? 'Accepted', ocppVersion: pile.ocppVersion ?? '1.6', securityProfile: pile.securityProfile ?? null });
    } else {
      setF({ code: '', vendor: '', model: '', firmwareVersion: '', pileType: 'dc', ratedPowerKw: '120', heartbeatIntervalSecs: '30', registrationStatus: 'Accepted', ocppVersion: '1.6', securityProfile: null });
      setConns([{ standard: 'gbt2015', maxPowerKw: '120', qrCode: '' }]);
    }
  }, [open, pile, resetErrors]);
  const setCount = (n: number) =>
    setConns((c) => Array.from({ length: n }, (_, i) => c[i] ?? { standard: f.pileType === 'ac' ? 'type2' : 'gbt2015', maxPowerKw: f.ratedPowerKw, qrCode: '' }));

  async function save() {
    if (!fe.checkAll(values())) return;
    setBusy(true);
    try {
      const body = {
        stationId,
        code: f.code,
        vendor: f.vendor,
        model: f.model,
        firmwareVersion: f.firmwareVersion,
        pileType: f.pileType,
        ratedPowerKw: int(f.ratedPowerKw),
        heartbeatIntervalSecs: int(f.heartbeatIntervalSecs),
        registrationStatus: f.registrationStatus,
        ocppVersion: f.ocppVersion,
        securityProfile: ykc ? undefined : (f.securityProfile ?? undefined),
      };
      // NaN is sent as null, so the server names the field.
      const clean = JSON.parse(JSON.stringify(body)) as typeof body;
      if (pile) await editPile({ ...clean, id: pile.id, version: pile.version }, { fieldErrors: true });
      else await addPile({ ...clean, connectors: conns.map((c) => ({ standard: c.standard, maxPowerKw: int(c.maxPowerKw), qrCode: c.qrCode })) }, { fieldErrors: true });
      // The earlier attempts' error toasts are stale now.
      clearErrorToasts();
      onSaved();
    } catch (err) {
      // A 400 naming fields goes onto them; any other error was toasted by the request layer.
      fe.fromServer(err, pileKeyOf);
    } finally {
      setBusy(false);
    }
  }

  const text = (k: keyof typeof f, label: string, required = false, disabled = false, maxLength?: number, hint?: string) => (
    <Field label={label} hint={hint} required={required} validationMessage={fe.errors[k]} data-field={k}>
      <Input
        name={k}
        value={String(f[k])}
        disabled={disabled}
        maxLength={maxLength}
        onBlur={fe.onLeave(k, () => f[k])}
        onChange={(_, d) => {
          setF((x) => ({ ...x, [k]: d.value }));
          recheck(k, d.value);
        }}
      />
    </Field>
  );
  const setConn = (i: number, key: 'maxPowerKw' | 'qrCode', value: string) => {
    setConns((all) => all.map((x, j) => (j === i ? { ...x, [key]: value } : x)));
    recheck(`c${i}.${key}`, value);
  };

  return (
    <Dialog open={open} onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={{ maxWidth: '820px' }}>
        <DialogBody>
          <DialogTitle>{pile ? t('ast.pile.edit') : t('ast.pile.add')}</DialogTitle>
          <DialogContent>
            <div ref={fe.container}>
            <div className={styles.grid} data-testid="pile-form">
              {text('code', codeLabel, true, !!pile, ykc ? 14 : PILE_MAX.code, ykc ? t('ykc.pileNumberHint') : undefined)}
              <Field label={t('ast.pile.type')} required>
                <Select disabled={!!pile} value={f.pileType} onChange={(_, d) => setF((x) => ({ ...x, pileType: d.value as PileType }))} data-testid="pile-type">
                  <option value="ac">{t('ast.type.ac')}</option>
                  <option value="dc">{t('ast.type.dc')}</option>
                </Select>
              </Field>
              {text('ratedPowerKw', t('ast.pile.power'), true, false, 4)}
              <Field label={t('ast.pile.heartbeat')} hint={t('ast.pile.heartbeatHint')} required validationMessage={fe.errors.heartbeatIntervalSecs} data-field="heartbeatIntervalSecs">
                <Input
                  name="heartbeatIntervalSecs"
                  maxLength={4}
                  value={f.heartbeatIntervalSecs}
                  onBlur={fe.onLeave('heartbeatIntervalSecs', () => f.heartbeatIntervalSecs)}
                  onChange={(_, d) => {
                    setF((x) => ({ ...x, heartbeatIntervalSecs: d.value }));
                    recheck('heartbeatIntervalSecs', d.value);
                  }}
                />
              </Field>
              {text('vendor', t('ast.pile.vendor'), false, false, PILE_MAX.vendor)}
              {text('model', t('ast.pile.model'), false, false, PILE_MAX.model)}
              {text('firmwareVersion', t('ast.pile.firmware'), false, false, PILE_MAX.firmwareVersion)}
              <Field label={t('chg.link.registration')} hint={t('chg.link.registrationHint')}>
                <Select value={f.registrationStatus} onChange={(_, d) => setF((x) => ({ ...x, registrationStatus: d.value as RegistrationStatus }))} data-testid="pile-registration">
                  {REGISTRATION_STATUSES.map((r) => (
                    <option key={r} value={r}>
                      {t(`chg.regStatus.${r}`)}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label={t('ykc.protocolLabel')} hint={t('ykc.protocolHint')}>
                <Select
                  className={styles.fit}
                  value={f.ocppVersion}
                  onChange={(_, d) => {
                    const v = d.value as OcppVersion;
                    setF((x) => ({ ...x, ocppVersion: v }));
                    // The code's rule follows the protocol: a shown error is judged again.
                    if (fe.errors.code) fe.setError('code', checkField(f.code, codeRules(isYkc(v)), isYkc(v) ? t('ykc.pileNumber') : t('ast.pile.code'), i18n.language));
                  }}
                  data-testid="pile-ocpp-version"
                >
                  {PROTOCOLS.map((v) => (
                    <option key={v} value={v}>
                      {t(`ykc.protocol.${protocolKey(v)}`)}
                    </option>
                  ))}
                </Select>
              </Field>
              {/* A YKC pile logs in with its number alone: no security profile. */}
              {!ykc && <Field label={t('chg.link.security')} hint={canConfigure ? undefined : t('chg.link.securityAdminOnly')}>
                <Select
                  className={styles.fit}
                  disabled={!canConfigure}
                  value={f.securityProfile === null ? '' : String(f.securityProfile)}
                  onChange={(_, d) => setF((x) => ({ ...x, securityProfile: d.value ? Number(d.value) : null }))}
                  data-testid="pile-security"
                >
                  {!pile && <option value="">{t('chg.link.profileDefault')}</option>}
                  {/* 3 where the gateway serves TLS itself: elsewhere the server refuses it, naming the field. */}
                  {(canConfigure || f.securityProfile === 3 ? [0, 1, 2, 3] : [0, 1, 2]).map((p) => (
                    <option key={p} value={String(p)}>
                      {t(`chg.link.profile${p}`)}
                    </option>
                  ))}
                </Select>
              </Field>}
              {!pile && (
                <Field label={t('ast.pile.connectorCount')} required>
                  <Select value={String(conns.length)} onChange={(_, d) => setCount(Number(d.value))} data-testid="pile-connector-count">
                    {[1, 2, 3, 4].map((n) => (
                      <option key={n} value={String(n)}>
                        {String(n)}
                      </option>
                    ))}
                  </Select>
                </Field>
              )}
            </div>
            <ConnectAddress stationId={stationId} code={f.code} protocol={f.ocppVersion} />
            {!pile && (
              <>
                <Subtitle2 as="h3" className={styles.connTitle}>{t('ast.connector.title')}</Subtitle2>
                <div data-testid="pile-connectors">
                {conns.map((c, i) => (
                  <div key={i} className={styles.conn}>
                    <Field label={t('ast.connector.number')}>
                      <Input className={styles.fill} value={String(i + 1)} disabled />
                    </Field>
                    <Field label={t('ast.connector.standard')}>
                      <Select
                        className={mergeClasses(styles.fit, styles.fill)}
                        aria-label={`${t('ast.connector.standard')} ${i + 1}`}
                        value={c.standard}
                        onChange={(_, d) => setConns((all) => all.map((x, j) => (j === i ? { ...x, standard: d.value as Standard } : x)))}
                      >
                        {STANDARDS.map((s) => (
                          <option key={s} value={s}>
                            {t(`ast.standard.${s}`)}
                          </option>
                        ))}
                      </Select>
                    </Field>
                    <Field label={t('ast.connector.maxPower')} validationMessage={fe.errors[`c${i}.maxPowerKw`]} data-field={`c${i}.maxPowerKw`}>
                      <Input className={styles.fill} name={`c${i}.maxPowerKw`} maxLength={4} value={c.maxPowerKw} onBlur={fe.onLeave(`c${i}.maxPowerKw`, () => c.maxPowerKw)} onChange={(_, d) => setConn(i, 'maxPowerKw', d.value)} />
                    </Field>
                    <Field label={t('ast.connector.qr')} hint={i === 0 ? t('ast.connector.qrHint') : undefined} validationMessage={fe.errors[`c${i}.qrCode`]} data-field={`c${i}.qrCode`}>
                      <Input className={styles.fill} name={`c${i}.qrCode`} maxLength={PILE_MAX.qrCode} value={c.qrCode} onBlur={fe.onLeave(`c${i}.qrCode`, () => c.qrCode)} onChange={(_, d) => setConn(i, 'qrCode', d.value)} />
                    </Field>
                  </div>
                ))}
                </div>
              </>
            )}
            </div>
          </DialogContent>
          <DialogActions data-no-blur-check>
            <Button onClick={onClose}>{t('ast.cancel')}</Button>
            <Button appearance="primary" disabled={busy} onClick={() => void save()} data-testid="pile-save">
              {t('ast.save')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
