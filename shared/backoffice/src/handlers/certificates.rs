//! The OCPP 1.6 security extension's back-office routes: a pile's
//! certificates (issued by the product's CA, sent to it, reported by it),
//! issuing one from the charger's CSR, revoking one, and the security
//! events per pile and across the fleet.
//!
//! Issuing and revoking need configure:charger (Admin), the permission of
//! the charger's other credentials (its password and security profile): a
//! charger certificate admits whoever holds its key as the charger, whose
//! sessions feed billing. A permission of its own would be granted to the
//! same role, and stores seeded before it would need their roles changed.
//! Reading needs read:system (Admin, Editor, Test): certificates and
//! security events hold no secret.

use envelope::{msg, ApiError};
use permission::{CHARGER_CONFIGURE, SYSTEM_READ};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::AppCtx;
use crate::domain::assets::piles;
use crate::domain::chargers::certificates::{self, CertificateView};
use crate::domain::chargers::security_events::{self, EventFilter, SecurityEvent};
use crate::params::DayRange;
use crate::reply::Reply;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): the pile (and its link record, to close its
/// connection after a revocation), its certificates, the security events
/// and their three listings.
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(&[PILE, SECURITY_EVENT, SECURITY_EVENTS, SECURITY_EVENTS_BY_TYPE, SECURITY_EVENTS_BY_PILE_TYPE], &[CHARGER_CERTIFICATE])
};

pub fn routes() -> Vec<Route> {
    vec![
        route!(GET "/charger/certificates" => "charger_certificates", Permission(SYSTEM_READ), unaudited, "A pile's certificates (issued by the product's CA, installed, reported by the charger) with their expiry and the expiring flag", pile_certificates, query = PileQuery, data = PileCertificates; errors = &[404]),
        route!(POST "/charger/certificateSign" => "charger_certificate_sign", Permission(CHARGER_CONFIGURE), audited, "Issue a pile's charging station certificate from its CSR (PKCS#10, PEM; subject CN = the charge point id): the certificate and its chain", sign, body = SignBody, data = SignedView; errors = &[404, 501, 503]),
        route!(POST "/charger/certificateRevoke" => "charger_certificate_revoke", Permission(CHARGER_CONFIGURE), audited, "Revoke a certificate issued for a pile (version checked): it no longer admits the charger, whose live connection is closed", revoke, body = RevokeBody, data = CertificateView; errors = &[404, 409]),
        route!(GET "/charger/securityEvents" => "charger_security_events", Permission(SYSTEM_READ), unaudited, "Security events of a pile or of the fleet, newest first (filter by type and days, cursor paging)", security_event_list, query = EventQuery, data = SecurityEventPage; errors = &[404]),
    ]
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PileQuery {
    /// The pile's id.
    #[serde(deserialize_with = "crate::params::not_blank")]
    #[schemars(length(min = 1))]
    pile_id: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PileCertificates {
    pile_id: String,
    pile_code: String,
    security_profile: u8,
    /// Whether this installation admits chargers by client certificate
    /// (security profile 3: the gateway's own TLS).
    profile3_possible: bool,
    /// A certificate ending within this many days is `expiring`.
    warn_days: u32,
    list: Vec<CertificateView>,
}

/// GET /charger/certificates?pileId=
async fn pile_certificates(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: PileQuery = call.query()?;
    let pile = piles::get_pile(ctx, q.pile_id.trim()).await?;
    let now = ctx.now();
    let warn_days = ctx.config.charger_ca.warn_days;
    let list = certificates::list(ctx, &pile.id).await?.into_iter().map(|c| CertificateView::of(c, now, warn_days)).collect();
    Ok(Reply::data(PileCertificates {
        profile3_possible: certificates::profile_3_possible(ctx),
        security_profile: pile.security_profile,
        pile_id: pile.id,
        pile_code: pile.code,
        warn_days,
        list,
    }))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignBody {
    #[serde(deserialize_with = "crate::params::not_blank")]
    #[schemars(length(min = 1))]
    pile_id: String,
    /// The charger's certificate signing request, PKCS#10 in PEM, its
    /// subject's CN the pile's code (charge point id).
    #[serde(deserialize_with = "crate::params::not_blank")]
    #[schemars(length(min = 1, max = 5500))]
    csr: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignedView {
    certificate: CertificateView,
    /// The certificate and the CA's, PEM: what the charger installs.
    chain: String,
}

/// POST /charger/certificateSign {pileId, csr}
async fn sign(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body: SignBody = call.req.payload()?;
    let pile = piles::get_pile(ctx, body.pile_id.trim()).await?;
    let by = call.caller()?.username().to_string();
    let signed = certificates::sign_csr(ctx, &pile, &body.csr, &by).await?;
    let serial = signed.certificate.serial.clone();
    let view = CertificateView::of(signed.certificate, ctx.now(), ctx.config.charger_ca.warn_days);
    Ok(Reply::data_with_msg(
        SignedView { certificate: view, chain: signed.chain },
        msg::chargers::certificates::issued(&pile.code, &serial),
    ))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RevokeBody {
    #[serde(deserialize_with = "crate::params::not_blank")]
    #[schemars(length(min = 1))]
    pile_id: String,
    /// The certificate's serial number (hex).
    #[serde(deserialize_with = "crate::params::not_blank")]
    #[schemars(length(min = 1, max = 40))]
    serial: String,
    /// The certificate's version as read.
    version: i64,
    /// Why (kept with the certificate and in the system log).
    #[serde(default)]
    #[schemars(length(max = 200))]
    reason: Option<String>,
}

/// POST /charger/certificateRevoke {pileId, serial, version, reason?}
async fn revoke(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body: RevokeBody = call.req.payload()?;
    if body.reason.as_ref().is_some_and(|r| r.chars().count() > 200) {
        return Err(crate::request::field_invalid("reason", msg::chargers::certificates::reason_too_long()));
    }
    let pile = piles::get_pile(ctx, body.pile_id.trim()).await?;
    let by = call.caller()?.username().to_string();
    let revoked = certificates::revoke(ctx, &pile.id, &body.serial, body.version, &by, body.reason.as_deref()).await?;
    let serial = revoked.serial.clone();
    Ok(Reply::data_with_msg(
        CertificateView::of(revoked, ctx.now(), ctx.config.charger_ca.warn_days),
        msg::chargers::certificates::revoked(&serial),
    ))
}

pub const DEFAULT_EVENT_PAGE: u32 = 50;

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventQuery {
    /// One pile's events; none: the fleet's.
    #[serde(default)]
    pile_id: Option<String>,
    /// Only this type (e.g. `TamperDetectionActivated`).
    #[serde(default, rename = "type")]
    #[schemars(length(min = 1, max = 50))]
    event_type: Option<String>,
    /// Days (China local), both ends included; none: every day.
    #[serde(flatten)]
    days: DayRange,
    /// Events a page (default 50, at most 500).
    #[serde(default, deserialize_with = "crate::params::cursor_page_size")]
    #[schemars(range(min = 1, max = 500))]
    page_size: Option<u32>,
    /// The `cursor` of the previous page.
    #[serde(default)]
    cursor: Option<String>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecurityEventPage {
    list: Vec<SecurityEvent>,
    /// Null on the last page.
    cursor: Option<String>,
    /// The pile's code when one pile is listed.
    pile_code: Option<String>,
    /// The types the whitepaper lists, for the filter (first page only).
    #[serde(skip_serializing_if = "Option::is_none")]
    types: Option<Vec<&'static str>>,
}

/// GET /charger/securityEvents?pileId=&type=&from=&to=&pageSize=&cursor=
async fn security_event_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: EventQuery = call.query()?;
    let pile = match q.pile_id.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
        Some(id) => Some(piles::get_pile(ctx, id).await?),
        None => None,
    };
    if let (Some(from), Some(to)) = (q.days.from, q.days.to) {
        if from > to {
            return Err(crate::request::field_invalid("from", msg::chargers::security_events::from_after_to()));
        }
    }
    use crate::domain::orders::keys::day_start;
    let filter = EventFilter {
        pile_id: pile.as_ref().map(|p| p.id.clone()),
        event_type: q.event_type.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned),
        from: q.days.from.map(day_start),
        to: q.days.to.map(|d| day_start(d + 1) - 1),
    };
    let first = q.cursor.is_none();
    let (list, cursor) = security_events::page(ctx, &filter, q.page_size.unwrap_or(DEFAULT_EVENT_PAGE), q.cursor).await?;
    Ok(Reply::data(SecurityEventPage { list, cursor, pile_code: pile.map(|p| p.code), types: first.then(|| security_events::KNOWN_TYPES.to_vec()) }))
}
