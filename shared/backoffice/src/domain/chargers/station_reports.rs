//! What a charger reports the same way in OCPP 1.6 (with its security
//! extension) and 2.0.1: a security event, a firmware or log upload's
//! status, a certificate signing request. Each version's handler only maps
//! its message types onto these; what the report does here is decided
//! once.

use ocpp::frame::{CallError, ErrorCode};

use super::application::internal;
use super::{certificates, link, security_events};
use crate::ctx::AppCtx;
use crate::domain::assets::piles::Pile;

/// Who asked for what a charger's SignCertificate issues and sends.
pub const SIGN_CERTIFICATE_BY: &str = "SignCertificate";

/// SecurityEventNotification: kept as the pile's security event. The
/// schema's limits hold already; what is left to refuse is a blank type.
pub async fn security_event(ctx: &AppCtx, pile: &Pile, event_type: String, timestamp: i64, tech_info: Option<String>) -> Result<(), CallError> {
    let event = security_events::SecurityEventInput { event_type, timestamp: Some(timestamp), tech_info };
    security_events::record_security_event(ctx, pile, event).await.map_err(|e| match e.code {
        400 => CallError::new(ErrorCode::PropertyConstraintViolation, e.msg.en),
        _ => internal(e),
    })?;
    Ok(())
}

/// An upload or install the operator asked for, as its status comes in.
#[derive(Debug, Clone, Copy)]
pub enum Progress {
    Firmware,
    Log,
}

/// FirmwareStatusNotification (1.6's signed one too) and
/// LogStatusNotification: the pile's latest status, with the request it
/// answers when the charger names one.
pub async fn progress(ctx: &AppCtx, pile: &Pile, of: Progress, status: &str, request_id: Option<i64>) -> Result<(), CallError> {
    let (field, request_field) = match of {
        Progress::Firmware => ("firmwareStatus", "firmwareRequestId"),
        Progress::Log => ("logStatus", "logRequestId"),
    };
    let extra = request_id.map(|id| (request_field, serde_json::json!(id)));
    link::report(ctx, pile, field, status, ctx.now(), extra).await.map_err(internal)
}

/// SignCertificate's CSR, signed by the product's CA: the chain to send
/// in CertificateSigned once the charger has the Accepted, or None to
/// answer Rejected (a CSR the CA refuses is kept as a security event; with
/// no CA built in nothing is issued).
pub async fn signed_chain(ctx: &AppCtx, pile: &Pile, csr: &str) -> Result<Option<String>, CallError> {
    match certificates::sign_csr(ctx, pile, csr, SIGN_CERTIFICATE_BY).await {
        Ok(signed) => Ok(Some(signed.chain)),
        Err(e) if e.code == 400 => {
            security_events::record_noticed(ctx, pile, security_events::REFUSED_CSR, format!("SignCertificate: {}", e.msg.en)).await.map_err(internal)?;
            Ok(None)
        }
        Err(e) if e.code == 501 => {
            tracing::warn!(pile = %pile.code, "SignCertificate where no CA is built in: rejected");
            Ok(None)
        }
        Err(e) => Err(internal(e)),
    }
}
