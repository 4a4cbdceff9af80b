//! A pile's certificates (OCPP 1.6 security whitepaper): the charging
//! station certificates the product's CA issued for it (`ca`), the root
//! certificates sent to it with InstallCertificate, and those it reports
//! installed (GetInstalledCertificateIds); with their expiry, a flag for
//! those ending within `BACKOFFICE_CHARGER_CERT_WARN_DAYS`, and the
//! operator's revocation of an issued one (a revoked certificate no longer
//! admits the charger at a profile-3 handshake).
//!
//! | record | PK | SK |
//! |---|---|---|
//! | issued charging station certificate | `CHARGERCERT#{pileId}` | `ISSUED#{serial}` |
//! | root certificate installed or reported | `CHARGERCERT#{pileId}` | `ROOT#{issuerKeyHash}#{serial}` |
//!
//! The OCPP handlers call [`sign_csr`] (SignCertificate, answered with the
//! chain in CertificateSigned), [`installed_certificates_reported`]
//! (GetInstalledCertificateIds' answer, through [`command_ended`]) and,
//! for the outbound side, [`install_certificate_request`] and
//! [`delete_certificate_payload`];
//! the handshake calls [`admit_client_certificate`] for a pile of security
//! profile 3.

use envelope::{msg, ApiError};
use serde::{Deserialize, Serialize};
use ocpp::{v16, v201};
use serde_json::{json, Value};
use store::{Condition, Key, Query, UpdateAction};

use crate::ctx::AppCtx;
use crate::request::field_invalid;
use crate::domain::assets::piles::Pile;
use crate::domain::{from_item, to_item, StoreResultExt};

/// The security profile that admits a charger by its client certificate.
pub const CLIENT_CERTIFICATE_PROFILE: u8 = 3;

/// The certificate kinds: OCPP 1.6's CertificateUseEnumType, the
/// charger's own certificate, and the roots only 2.0.1 stations hold (a
/// 2.0.1 station's CSMSRootCertificate is recorded as the central
/// system's root, the same certificate under its 1.6 name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum CertificateType {
    /// The charger's own (client) certificate, issued by the product's CA.
    ChargePointCertificate,
    /// The root of the central system's server certificate.
    CentralSystemRootCertificate,
    /// The root of the manufacturer's firmware-signing certificates.
    ManufacturerRootCertificate,
    /// 2.0.1: the root of the ISO 15118 (Plug & Charge) certificates.
    V2GRootCertificate,
    /// 2.0.1: the root of the mobility operators' contract certificates.
    MORootCertificate,
}

impl CertificateType {
    /// The kind a certificate call names, in either version's words.
    pub fn named(name: &str) -> Option<CertificateType> {
        match name {
            "CentralSystemRootCertificate" | "CSMSRootCertificate" => Some(CertificateType::CentralSystemRootCertificate),
            "ManufacturerRootCertificate" => Some(CertificateType::ManufacturerRootCertificate),
            "V2GRootCertificate" => Some(CertificateType::V2GRootCertificate),
            "MORootCertificate" => Some(CertificateType::MORootCertificate),
            _ => None,
        }
    }
}

/// How the product learnt of the certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Origin {
    /// Signed by the product's CA from the charger's CSR.
    Issued,
    /// Sent to the charger with InstallCertificate.
    Installed,
    /// Listed by the charger (GetInstalledCertificateIds).
    Reported,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum CertificateStatus {
    Active,
    /// Revoked by an operator: it no longer admits the charger.
    Revoked,
}

/// OCPP 1.6's CertificateHashDataType: how a charger names a certificate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateHashData {
    /// SHA256, SHA384 or SHA512.
    pub hash_algorithm: String,
    #[schemars(length(max = 128))]
    pub issuer_name_hash: String,
    #[schemars(length(max = 128))]
    pub issuer_key_hash: String,
    #[schemars(length(max = 40))]
    pub serial_number: String,
}

/// One certificate of a pile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChargerCertificate {
    pub pile_id: String,
    pub certificate_type: CertificateType,
    pub origin: Origin,
    /// Upper-case hex, as CertificateHashData's serialNumber.
    pub serial: String,
    /// The subject and issuer as RFC 4514 text; null when only the
    /// charger's hash data is known.
    pub subject: Option<String>,
    pub issuer: Option<String>,
    pub not_before: Option<i64>,
    pub not_after: Option<i64>,
    /// SHA-256 of the certificate (DER), hex.
    pub fingerprint: Option<String>,
    pub hash_data: Option<CertificateHashData>,
    /// The certificate, PEM (public).
    pub pem: Option<String>,
    pub status: CertificateStatus,
    pub recorded_at: i64,
    /// Who asked: an account, or `SignCertificate` for the charger's own request.
    pub recorded_by: String,
    /// When the charger last listed it as installed.
    #[serde(default)]
    pub reported_at: Option<i64>,
    #[serde(default)]
    pub revoked_at: Option<i64>,
    #[serde(default)]
    pub revoked_by: Option<String>,
    #[serde(default)]
    pub revoke_reason: Option<String>,
    pub version: i64,
}

/// A certificate as the pages show it: the record and its expiry.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateView {
    #[serde(flatten)]
    pub certificate: ChargerCertificate,
    /// Past its end.
    pub expired: bool,
    /// Ends within the warning window (`warnDays`), not yet expired.
    pub expiring: bool,
    /// Whole days to its end (negative once expired); null when unknown.
    pub days_left: Option<i64>,
}

impl CertificateView {
    pub fn of(certificate: ChargerCertificate, now: i64, warn_days: u32) -> CertificateView {
        let days_left = certificate.not_after.map(|end| (end - now).div_euclid(86_400));
        let expired = certificate.not_after.is_some_and(|end| end <= now);
        let expiring = !expired && certificate.not_after.is_some_and(|end| end - now <= i64::from(warn_days) * 86_400);
        CertificateView { certificate, expired, expiring, days_left }
    }
}

pub fn pk(pile_id: &str) -> String {
    format!("CHARGERCERT#{pile_id}")
}

fn issued_key(pile_id: &str, serial: &str) -> Key {
    Key::new(pk(pile_id), format!("ISSUED#{serial}"))
}

fn root_key(pile_id: &str, hash: &CertificateHashData) -> Key {
    Key::new(pk(pile_id), format!("ROOT#{}#{}", hash.issuer_key_hash.to_lowercase(), hash.serial_number.to_uppercase()))
}

fn item(c: &ChargerCertificate, key: &Key) -> store::Item {
    to_item(c, &[(store::PK, key.pk.clone()), (store::SK, key.sk.clone())])
}

fn key_of(c: &ChargerCertificate) -> Key {
    match (c.origin, &c.hash_data) {
        (Origin::Issued, _) | (_, None) => issued_key(&c.pile_id, &c.serial),
        (_, Some(hash)) => root_key(&c.pile_id, hash),
    }
}

/// Every certificate of a pile, the soonest to end first (unknown ends last).
pub async fn list(ctx: &AppCtx, pile_id: &str) -> Result<Vec<ChargerCertificate>, ApiError> {
    let mut out: Vec<ChargerCertificate> = Vec::new();
    let mut cursor = None;
    loop {
        let page = ctx.store.query(Query::partition(pk(pile_id)).after(cursor)).await.api()?;
        for item in page.items {
            out.push(from_item(item)?);
        }
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    out.sort_by_key(|c| (c.not_after.unwrap_or(i64::MAX), c.serial.clone()));
    Ok(out)
}

/// An issued certificate of a pile.
pub async fn get_issued(ctx: &AppCtx, pile_id: &str, serial: &str) -> Result<Option<ChargerCertificate>, ApiError> {
    match ctx.store.get(&issued_key(pile_id, &serial.to_uppercase())).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

/// Whether this installation can admit chargers by client certificate:
/// the gateway's own TLS (API Gateway's WebSocket API carries no client
/// certificate, and a TLS proxy in front ends the charger's TLS), with
/// the CA built in.
pub fn profile_3_possible(ctx: &AppCtx) -> bool {
    let edge = ctx.charger_edge();
    cfg!(feature = "charger-ca") && edge.tls && !edge.aws
}

/// Refuses security profile 3 where the edge cannot do it.
pub fn check_profile_3(ctx: &AppCtx) -> Result<(), ApiError> {
    if profile_3_possible(ctx) {
        return Ok(());
    }
    Err(field_invalid("securityProfile", msg::chargers::certificates::profile3_needs_tls()))
}

/// A certificate issued for a pile: its record and the chain to answer.
pub struct SignedCertificate {
    pub certificate: ChargerCertificate,
    /// The certificate and the CA's, PEM (CertificateSigned's certificateChain).
    pub chain: String,
}

/// The Lambda build has no CA: signing is the gateway's (and the
/// container edge's), where chargers with client certificates connect.
#[cfg(not(feature = "charger-ca"))]
pub async fn sign_csr(_ctx: &AppCtx, _pile: &Pile, _csr: &str, _by: &str) -> Result<SignedCertificate, ApiError> {
    Err(no_ca())
}

#[cfg(not(feature = "charger-ca"))]
fn no_ca() -> ApiError {
    ApiError::new(501, msg::chargers::ca::not_in_this_build())
}

/// Signs a charger's CSR (PEM) with the product's CA and keeps the
/// certificate (SignCertificate, or an Admin with the charger's CSR). A
/// bad CSR is a 400 naming `csr`, and nothing is kept.
#[cfg(feature = "charger-ca")]
pub async fn sign_csr(ctx: &AppCtx, pile: &Pile, csr: &str, by: &str) -> Result<SignedCertificate, ApiError> {
    let ca = super::ca::get(ctx)?;
    let signed = super::ca::sign(&ca, &pile.code, csr, ctx.now(), ctx.config.charger_ca.cert_days).map_err(|problem| field_invalid("csr", problem))?;
    let p = signed.parsed;
    let certificate = ChargerCertificate {
        pile_id: pile.id.clone(),
        certificate_type: CertificateType::ChargePointCertificate,
        origin: Origin::Issued,
        hash_data: Some(CertificateHashData { hash_algorithm: "SHA256".into(), issuer_name_hash: p.issuer_name_hash, issuer_key_hash: p.issuer_key_hash, serial_number: p.serial.clone() }),
        serial: p.serial,
        subject: Some(p.subject),
        issuer: Some(p.issuer),
        not_before: Some(p.not_before),
        not_after: Some(p.not_after),
        fingerprint: Some(p.fingerprint),
        pem: signed.chain_pem.split_inclusive("-----END CERTIFICATE-----\n").next().map(str::to_owned),
        status: CertificateStatus::Active,
        recorded_at: ctx.now(),
        recorded_by: by.into(),
        reported_at: None,
        revoked_at: None,
        revoked_by: None,
        revoke_reason: None,
        version: 1,
    };
    // A fresh random serial: a second one with it is a bug, never a replace.
    ctx.store.put(item(&certificate, &key_of(&certificate)), Some(Condition::item_absent())).await.api()?;
    tracing::info!(pile = %pile.id, serial = %certificate.serial, "charging station certificate issued");
    Ok(SignedCertificate { certificate, chain: signed.chain_pem })
}

/// Revokes an issued certificate (version checked): the charger is no
/// longer admitted with it, and its live connection, perhaps made with it,
/// is closed. 404 for an unknown serial, 409 for a stale version.
pub async fn revoke(ctx: &AppCtx, pile_id: &str, serial: &str, version: i64, by: &str, reason: Option<&str>) -> Result<ChargerCertificate, ApiError> {
    let serial = serial.trim().to_uppercase();
    let Some(current) = get_issued(ctx, pile_id, &serial).await? else {
        return Err(ApiError::not_found(msg::chargers::certificates::not_issued(&serial)));
    };
    if current.status == CertificateStatus::Revoked {
        return Err(ApiError::conflict(msg::chargers::certificates::already_revoked(&serial)));
    }
    let now = ctx.now();
    let mut actions = vec![
        UpdateAction::Set("status".into(), json!(CertificateStatus::Revoked)),
        UpdateAction::Set("revokedAt".into(), json!(now)),
        UpdateAction::Set("revokedBy".into(), json!(by)),
        UpdateAction::Add("version".into(), 1),
    ];
    if let Some(r) = reason.map(str::trim).filter(|r| !r.is_empty()) {
        actions.push(UpdateAction::Set("revokeReason".into(), json!(r)));
    }
    let updated = ctx.store.update(&issued_key(pile_id, &serial), actions, Some(Condition::version_is(version))).await.api()?;
    super::close_live_connection(ctx, pile_id).await?;
    from_item(updated)
}

/// What GetInstalledCertificateIds answered for `certificate_type`: the
/// pile's records of that type are made to match the list (listed ones
/// marked reported now, new ones added from their hash data, ones the
/// charger no longer holds removed).
pub async fn installed_certificates_reported(ctx: &AppCtx, pile_id: &str, certificate_type: CertificateType, listed: &[CertificateHashData]) -> Result<(), ApiError> {
    let now = ctx.now();
    let existing: Vec<ChargerCertificate> =
        list(ctx, pile_id).await?.into_iter().filter(|c| c.certificate_type == certificate_type && c.origin != Origin::Issued).collect();
    for hash in listed {
        let key = root_key(pile_id, hash);
        match existing.iter().find(|c| key_of(c) == key) {
            Some(known) => {
                ctx.store
                    .update(&key, vec![UpdateAction::Set("reportedAt".into(), json!(now)), UpdateAction::Add("version".into(), 1)], Some(Condition::version_is(known.version)))
                    .await
                    .api()?;
            }
            None => {
                let reported = ChargerCertificate {
                    pile_id: pile_id.into(),
                    certificate_type,
                    origin: Origin::Reported,
                    serial: hash.serial_number.to_uppercase(),
                    subject: None,
                    issuer: None,
                    not_before: None,
                    not_after: None,
                    fingerprint: None,
                    hash_data: Some(hash.clone()),
                    pem: None,
                    status: CertificateStatus::Active,
                    recorded_at: now,
                    recorded_by: "GetInstalledCertificateIds".into(),
                    reported_at: Some(now),
                    revoked_at: None,
                    revoked_by: None,
                    revoke_reason: None,
                    version: 1,
                };
                ctx.store.put(item(&reported, &key), None).await.api()?;
            }
        }
    }
    for gone in existing.iter().filter(|c| !listed.iter().any(|h| root_key(pile_id, h) == key_of(c))) {
        // Sent but never listed yet: keep it until the charger reports after the install.
        if gone.reported_at.is_some() || gone.origin == Origin::Reported {
            ctx.store.delete(&key_of(gone), None).await.api()?;
        }
    }
    Ok(())
}

/// The OCPP certificate use of a root certificate (a 400 naming
/// `certificateType` for the charger's own, which comes from its CSR).
pub fn certificate_use(certificate_type: CertificateType) -> Result<v16::CertificateUseEnum, ApiError> {
    match certificate_type {
        CertificateType::CentralSystemRootCertificate => Ok(v16::CertificateUseEnum::CentralSystemRootCertificate),
        CertificateType::ManufacturerRootCertificate => Ok(v16::CertificateUseEnum::ManufacturerRootCertificate),
        CertificateType::V2GRootCertificate | CertificateType::MORootCertificate => Err(field_invalid("certificateType", msg::chargers::certificates::v201_root())),
        CertificateType::ChargePointCertificate => Err(own_certificate_refused()),
    }
}

/// 2.0.1's name for a root the CSMS installs or asks about.
pub fn certificate_use_v201(certificate_type: CertificateType) -> Result<v201::InstallCertificateUseEnum, ApiError> {
    match certificate_type {
        CertificateType::CentralSystemRootCertificate => Ok(v201::InstallCertificateUseEnum::CSMSRootCertificate),
        CertificateType::ManufacturerRootCertificate => Ok(v201::InstallCertificateUseEnum::ManufacturerRootCertificate),
        CertificateType::V2GRootCertificate => Ok(v201::InstallCertificateUseEnum::V2GRootCertificate),
        CertificateType::MORootCertificate => Ok(v201::InstallCertificateUseEnum::MORootCertificate),
        CertificateType::ChargePointCertificate => Err(own_certificate_refused()),
    }
}

fn own_certificate_refused() -> ApiError {
    field_invalid("certificateType", msg::chargers::certificates::root_required())
}

/// Checks one PEM certificate of at most `max` characters (`field` names
/// it in the 400): with the CA built in, fully parsed (and `ca`: a CA
/// certificate); without, its PEM frame.
pub fn check_certificate_pem(field: &str, pem: &str, max: usize, must_be_ca: bool) -> Result<(), ApiError> {
    if pem.chars().count() > max {
        return Err(field_invalid(field, msg::chargers::command::at_most_chars(max)));
    }
    #[cfg(feature = "charger-ca")]
    {
        let (_, p) = super::ca::parse_certificate_pem(pem).map_err(|problem| field_invalid(field, problem))?;
        if must_be_ca && !p.is_ca {
            return Err(field_invalid(field, msg::chargers::certificates::not_ca()));
        }
    }
    #[cfg(not(feature = "charger-ca"))]
    {
        let _ = must_be_ca;
        let t = pem.trim();
        if !(t.starts_with("-----BEGIN CERTIFICATE-----") && t.ends_with("-----END CERTIFICATE-----")) {
            return Err(field_invalid(field, msg::chargers::certificates::not_pem()));
        }
    }
    Ok(())
}

/// InstallCertificate's request for a root certificate (PEM): a 400
/// naming `certificate` when it is not a CA certificate in PEM or longer
/// than the schema's 5500 characters. Nothing is kept until the charger
/// accepts it ([`command_ended`]).
pub fn install_certificate_request(certificate_type: CertificateType, pem: &str) -> Result<v16::InstallCertificateRequest, ApiError> {
    let certificate_type = certificate_use(certificate_type)?;
    Ok(v16::InstallCertificateRequest { certificate_type, certificate: checked_root(pem)? })
}

/// [`install_certificate_request`] for a 2.0.1 station.
pub fn install_certificate_request_v201(certificate_type: CertificateType, pem: &str) -> Result<v201::InstallCertificateRequest, ApiError> {
    let certificate_type = certificate_use_v201(certificate_type)?;
    Ok(v201::InstallCertificateRequest { custom_data: None, certificate_type, certificate: checked_root(pem)? })
}

/// A root certificate to install, trimmed: one PEM CA certificate.
fn checked_root(pem: &str) -> Result<String, ApiError> {
    check_certificate_pem("certificate", pem.trim(), MAX_CERTIFICATE_CHARS, true)?;
    Ok(pem.trim().to_string())
}

/// InstallCertificate's `certificate` is a CiString of 5500.
pub const MAX_CERTIFICATE_CHARS: usize = 5500;

/// The record of a root certificate the charger accepted.
#[cfg(feature = "charger-ca")]
async fn certificate_installed(ctx: &AppCtx, pile_id: &str, certificate_type: CertificateType, pem: &str, by: &str) -> Result<(), ApiError> {
    let Ok((_, p)) = super::ca::parse_certificate_pem(pem) else { return Ok(()) };
    let hash = CertificateHashData { hash_algorithm: "SHA256".into(), issuer_name_hash: p.issuer_name_hash, issuer_key_hash: p.issuer_key_hash, serial_number: p.serial.clone() };
    let now = ctx.now();
    let record = ChargerCertificate {
        pile_id: pile_id.into(),
        certificate_type,
        origin: Origin::Installed,
        serial: p.serial,
        subject: Some(p.subject),
        issuer: Some(p.issuer),
        not_before: Some(p.not_before),
        not_after: Some(p.not_after),
        fingerprint: Some(p.fingerprint),
        hash_data: Some(hash.clone()),
        pem: Some(pem.trim().to_string() + "\n"),
        status: CertificateStatus::Active,
        recorded_at: now,
        recorded_by: by.into(),
        reported_at: None,
        revoked_at: None,
        revoked_by: None,
        revoke_reason: None,
        version: 1,
    };
    ctx.store.put(item(&record, &root_key(pile_id, &hash)), None).await.api()
}

/// Without the CA's parser the charger's next GetInstalledCertificateIds
/// lists what it accepted.
#[cfg(not(feature = "charger-ca"))]
async fn certificate_installed(_ctx: &AppCtx, _pile_id: &str, _certificate_type: CertificateType, _pem: &str, _by: &str) -> Result<(), ApiError> {
    Ok(())
}

/// The calls whose answers change a pile's certificates.
pub fn follows_answer(action: &str) -> bool {
    matches!(action, "InstallCertificate" | "GetInstalledCertificateIds" | "DeleteCertificate")
}

/// What an ended certificate call changes: an accepted InstallCertificate
/// is recorded, GetInstalledCertificateIds' list replaces the pile's
/// records of that type, an accepted (or NotFound) DeleteCertificate
/// removes the record. A refusal, a CALLERROR, a timeout or a closed
/// connection changes nothing. The calls' fields are read in either
/// version's shape: they differ only in the kinds' names and in 2.0.1
/// listing hash data chains.
pub async fn command_ended(ctx: &AppCtx, c: &super::commands::Command) -> Result<(), ApiError> {
    let Some(response) = c.response.as_ref().filter(|_| c.status == super::commands::CommandStatus::Answered) else { return Ok(()) };
    let status = response.get("status").and_then(Value::as_str);
    let unreadable = || {
        tracing::error!(action = %c.action, "a stored certificate call does not read back");
        ApiError::internal()
    };
    // 1.6 names one kind; 2.0.1 a list of them (the product asks for one).
    let kind = match c.payload.get("certificateType") {
        Some(Value::Array(kinds)) => kinds.first().and_then(Value::as_str),
        Some(kind) => kind.as_str(),
        None => None,
    };
    match c.action.as_str() {
        "InstallCertificate" if status == Some("Accepted") => {
            let (Some(certificate_type), Some(pem)) = (kind.and_then(CertificateType::named), c.payload.get("certificate").and_then(Value::as_str)) else { return Err(unreadable()) };
            certificate_installed(ctx, &c.pile_id, certificate_type, pem, &c.requested_by).await
        }
        "GetInstalledCertificateIds" => {
            let Some(certificate_type) = kind.and_then(CertificateType::named) else { return Ok(()) };
            let listed = match status {
                Some("Accepted") => listed_hashes(response, certificate_type).ok_or_else(unreadable)?,
                Some("NotFound") => Vec::new(),
                _ => return Ok(()),
            };
            installed_certificates_reported(ctx, &c.pile_id, certificate_type, &listed).await
        }
        "DeleteCertificate" if matches!(status, Some("Accepted" | "NotFound")) => {
            let hash: CertificateHashData = c.payload.get("certificateHashData").cloned().map(serde_json::from_value).transpose().map_err(|_| unreadable())?.ok_or_else(unreadable)?;
            // DeleteCertificate names the roots the charger holds, never its own.
            ctx.store.delete(&root_key(&c.pile_id, &hash), None).await.api()?;
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The certificates of one kind a GetInstalledCertificateIds answer lists:
/// 1.6's `certificateHashData`, or the roots of 2.0.1's
/// `certificateHashDataChain` of that kind. None when the answer does not
/// read as either.
fn listed_hashes(response: &Value, certificate_type: CertificateType) -> Option<Vec<CertificateHashData>> {
    if let Some(chains) = response.get("certificateHashDataChain") {
        let chains = chains.as_array()?;
        return chains
            .iter()
            .filter(|chain| chain.get("certificateType").and_then(Value::as_str).and_then(CertificateType::named) == Some(certificate_type))
            .map(|chain| serde_json::from_value(chain.get("certificateHashData")?.clone()).ok())
            .collect();
    }
    match response.get("certificateHashData") {
        Some(list) => serde_json::from_value(list.clone()).ok(),
        None => Some(Vec::new()),
    }
}

/// A certificate of the pile's list, by its serial (the soonest ending
/// when a root and an issued one share it): a 400 naming `serial` when
/// the pile has none.
pub async fn find_by_serial(ctx: &AppCtx, pile_id: &str, serial: &str) -> Result<ChargerCertificate, ApiError> {
    let serial = serial.trim().to_uppercase();
    list(ctx, pile_id).await?.into_iter().find(|c| c.serial == serial).ok_or_else(|| {
        field_invalid("serial", msg::chargers::certificates::not_listed(&serial))
    })
}

/// CertificateSigned's chain for a certificate issued to the pile: the
/// certificate, then the CA's (PEM).
#[cfg(feature = "charger-ca")]
pub fn issued_chain(ctx: &AppCtx, certificate: &ChargerCertificate) -> Result<String, ApiError> {
    let (Origin::Issued, Some(pem)) = (certificate.origin, certificate.pem.as_ref()) else {
        return Err(field_invalid("serial", msg::chargers::certificates::not_issued_by_ca()));
    };
    if certificate.status == CertificateStatus::Revoked {
        return Err(field_invalid("serial", msg::chargers::certificates::revoked_serial()));
    }
    let ca = super::ca::get(ctx)?;
    Ok(format!("{}{}", pem, ca.cert_pem))
}

#[cfg(not(feature = "charger-ca"))]
pub fn issued_chain(_ctx: &AppCtx, _certificate: &ChargerCertificate) -> Result<String, ApiError> {
    Err(no_ca())
}

/// DeleteCertificate's payload for a certificate of the pile's list.
pub fn delete_certificate_payload(certificate: &ChargerCertificate) -> Result<Value, ApiError> {
    let hash = certificate.hash_data.as_ref().ok_or_else(|| {
        field_invalid("serial", msg::chargers::certificates::no_hash_data())
    })?;
    Ok(json!({ "certificateHashData": hash }))
}

/// Why a profile-3 handshake is refused (the handshake answers 401 with
/// the reason, as it does a wrong password).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientCertRefusal {
    /// The certificate does not admit the charger (the reason).
    Refused(String),
    /// The CA or the store cannot be read now (503).
    Unavailable,
}

/// Admits a charger of security profile 3 by its TLS client certificate
/// chain (DER, the charger's first; empty when none was presented or the
/// connection is not the gateway's own TLS): trusted by the CA (or an
/// operator's), within its validity, its subject's CN the charge point id,
/// not revoked in the product. A refusal is also a security event of the
/// pile (`InvalidChargePointCertificate`, at most one a minute).
#[cfg(feature = "charger-ca")]
pub async fn admit_client_certificate(ctx: &AppCtx, pile: &Pile, chain: &[Vec<u8>]) -> Result<(), ClientCertRefusal> {
    let verdict = match super::ca::get(ctx) {
        Err(e) => {
            tracing::error!(error = %e.0, "cannot check a charger's client certificate");
            return Err(ClientCertRefusal::Unavailable);
        }
        Ok(ca) => match super::ca::verify_client(&ca, &pile.code, chain, ctx.now()) {
            Err(problem) => Err(problem.reason()),
            Ok(cert) => match get_issued(ctx, &pile.id, &cert.serial).await.map_err(|_| ClientCertRefusal::Unavailable)? {
                Some(c) if c.status == CertificateStatus::Revoked => Err(format!("the client certificate {} was revoked", cert.serial)),
                _ => Ok(()),
            },
        },
    };
    let Err(reason) = verdict else { return Ok(()) };
    if let Err(e) = super::security_events::record_noticed(ctx, pile, super::security_events::REFUSED_CERTIFICATE, reason.clone()).await {
        tracing::warn!(pile = %pile.id, error = %e.msg.en, "could not record the refused handshake as a security event");
    }
    Err(ClientCertRefusal::Refused(reason))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cert(not_after: Option<i64>) -> ChargerCertificate {
        ChargerCertificate {
            pile_id: "p1".into(),
            certificate_type: CertificateType::ChargePointCertificate,
            origin: Origin::Issued,
            serial: "AB".into(),
            subject: None,
            issuer: None,
            not_before: None,
            not_after,
            fingerprint: None,
            hash_data: None,
            pem: None,
            status: CertificateStatus::Active,
            recorded_at: 0,
            recorded_by: "admin".into(),
            reported_at: None,
            revoked_at: None,
            revoked_by: None,
            revoke_reason: None,
            version: 1,
        }
    }

    #[test]
    fn a_certificate_ending_within_the_warning_is_flagged() {
        let now = 1_000_000_000;
        let day = 86_400;
        let v = |end: Option<i64>| {
            let v = CertificateView::of(cert(end), now, 30);
            (v.expired, v.expiring, v.days_left)
        };
        assert_eq!(v(Some(now + 31 * day)), (false, false, Some(31)));
        assert_eq!(v(Some(now + 30 * day)), (false, true, Some(30)));
        assert_eq!(v(Some(now + 1)), (false, true, Some(0)));
        assert_eq!(v(Some(now)), (true, false, Some(0)));
        assert_eq!(v(Some(now - day)), (true, false, Some(-1)));
        assert_eq!(v(None), (false, false, None));
    }

    #[test]
    fn delete_certificate_names_the_certificate_by_its_hash_data() {
        let mut c = cert(None);
        assert!(delete_certificate_payload(&c).is_err());
        c.hash_data = Some(CertificateHashData { hash_algorithm: "SHA256".into(), issuer_name_hash: "aa".into(), issuer_key_hash: "bb".into(), serial_number: "AB".into() });
        assert_eq!(
            delete_certificate_payload(&c).unwrap(),
            json!({"certificateHashData": {"hashAlgorithm": "SHA256", "issuerNameHash": "aa", "issuerKeyHash": "bb", "serialNumber": "AB"}})
        );
    }
}
