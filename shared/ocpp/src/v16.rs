//! OCPP 1.6 Core, charger -> server: each action read leniently and
//! answered per the specification, through the back-office's domain.

use backoffice::domain::assets::piles::{get_pile, Pile, RegistrationStatus};
use backoffice::domain::cards::{self, IdTagInfo};
use backoffice::domain::chargers::sessions::{self, Reading, StartRequest, StopRequest, Stopped};
use backoffice::domain::chargers::status::{self, StatusReport};
use backoffice::domain::chargers::{link, plausible_time};
use backoffice::AppCtx;
use envelope::ApiError;
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;

use crate::fields::{decimal, enumerated, int, opt_enum, opt_int, opt_text, opt_text_max, opt_time, parse_time, text_max};

/// An idTag is CiString20Type.
const ID_TAG: usize = 20;
use crate::frame::{CallError, ErrorCode};

/// The actions a charger may send (and the server's own, which a charger
/// must not send), listed once in the back-office.
pub use backoffice::domain::chargers::actions::{CHARGER_ACTIONS, SERVER_ACTIONS};

fn internal(e: ApiError) -> CallError {
    tracing::error!(error = %e.msg.en, "charger message could not be handled");
    CallError::new(ErrorCode::InternalError, "the server could not handle the message now; send it again later")
}

pub fn iso(ts: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(ts).ok().and_then(|t| t.format(&Rfc3339).ok()).unwrap_or_default()
}

fn id_tag_info(info: &IdTagInfo) -> Value {
    let mut v = json!({ "status": info.status });
    if let Some(t) = info.expiry_date {
        v["expiryDate"] = json!(iso(t));
    }
    if let Some(p) = &info.parent_id_tag {
        v["parentIdTag"] = json!(p);
    }
    v
}

/// Answers one CALL of a connected charger.
pub async fn handle(ctx: &AppCtx, pile: &Pile, action: &str, p: &Value) -> Result<Value, CallError> {
    match action {
        "BootNotification" => boot(ctx, pile, p).await,
        "Heartbeat" => Ok(json!({ "currentTime": iso(ctx.now()) })),
        "StatusNotification" => status_notification(ctx, pile, p).await,
        "Authorize" => {
            let tag = text_max(p, "idTag", ID_TAG)?;
            let info = cards::authorize(ctx, &tag).await.map_err(internal)?;
            Ok(json!({ "idTagInfo": id_tag_info(&info) }))
        }
        "StartTransaction" => start(ctx, pile, p).await,
        "MeterValues" => meter_values(ctx, pile, p).await,
        "StopTransaction" => stop(ctx, pile, p).await,
        "DataTransfer" => {
            text_max(p, "vendorId", 255)?;
            opt_text_max(p, "messageId", 50)?;
            Ok(json!({ "status": "UnknownVendorId" }))
        }
        "DiagnosticsStatusNotification" => report(ctx, pile, p, "diagnosticsStatus").await,
        "FirmwareStatusNotification" => report(ctx, pile, p, "firmwareStatus").await,
        a if SERVER_ACTIONS.contains(&a) => Err(CallError::new(ErrorCode::NotSupported, format!("{a} is sent by the central system, not by a charge point"))),
        a => Err(CallError::new(ErrorCode::NotImplemented, format!("unknown action {a}"))),
    }
}

async fn boot(ctx: &AppCtx, pile: &Pile, p: &Value) -> Result<Value, CallError> {
    let boot = link::BootInfo {
        vendor: text_max(p, "chargePointVendor", 20)?,
        model: text_max(p, "chargePointModel", 20)?,
        serial_number: opt_text_max(p, "chargePointSerialNumber", 25)?.or(opt_text_max(p, "chargeBoxSerialNumber", 25)?),
        firmware_version: opt_text_max(p, "firmwareVersion", 50)?,
        iccid: opt_text_max(p, "iccid", 20)?,
        imsi: opt_text_max(p, "imsi", 20)?,
        meter_type: opt_text_max(p, "meterType", 25)?,
        meter_serial_number: opt_text_max(p, "meterSerialNumber", 25)?,
        at: ctx.now(),
    };
    // Read again: an operator may have changed the status or the interval
    // since the charger connected.
    let pile = get_pile(ctx, &pile.id).await.map_err(internal)?;
    link::booted(ctx, &pile, &boot).await.map_err(internal)?;
    let status = match pile.registration_status {
        RegistrationStatus::Accepted => "Accepted",
        RegistrationStatus::Pending => "Pending",
        RegistrationStatus::Rejected => "Rejected",
    };
    // The pile's interval, held within the edge's window (AWS: under API
    // Gateway's 10-minute idle limit); the offline window counts in it too.
    let ops = backoffice::domain::operations::current(ctx).await.map_err(internal)?;
    Ok(json!({ "status": status, "currentTime": iso(ctx.now()), "interval": ops.told_heartbeat_secs(pile.heartbeat_interval_secs) }))
}

async fn status_notification(ctx: &AppCtx, pile: &Pile, p: &Value) -> Result<Value, CallError> {
    let connector = int(p, "connectorId")?;
    let status = enumerated(p, "status")?;
    let error_code = opt_enum(p, "errorCode")?.unwrap_or_else(|| "NoError".into());
    opt_text_max(p, "info", 50)?;
    opt_text_max(p, "vendorId", 255)?;
    opt_text_max(p, "vendorErrorCode", 50)?;
    let reported = opt_time(p, "timestamp")?.and_then(|(_, at)| at);
    if !(0..=u32::MAX as i64).contains(&connector) {
        return Err(CallError::new(ErrorCode::PropertyConstraintViolation, "connectorId must be 0 or more"));
    }
    let (at, _) = plausible_time(reported, ctx.now());
    let r = StatusReport { connector: connector as u32, status, error_code, at };
    status::apply(ctx, pile, &r).await.map_err(internal)?;
    Ok(json!({}))
}

fn connector_of(p: &Value) -> Result<u32, CallError> {
    let c = int(p, "connectorId")?;
    u32::try_from(c).map_err(|_| CallError::new(ErrorCode::PropertyConstraintViolation, "connectorId must be 0 or more"))
}

async fn start(ctx: &AppCtx, pile: &Pile, p: &Value) -> Result<Value, CallError> {
    let connector = connector_of(p)?;
    if connector == 0 {
        return Err(CallError::new(ErrorCode::PropertyConstraintViolation, "connectorId of a transaction must be 1 or more"));
    }
    // A connector the pile does not have: the payload is well formed but the
    // value is wrong for this charge point. Not an idTagInfo Invalid: that
    // speaks of the card (the charger would cache a good card as invalid
    // and stop for the wrong reason) and still needs a transaction id we
    // would not record. The charger retries it a few times (its
    // TransactionMessageAttempts); staff see it in the message log and can
    // correct the pile's registration, after which the retry is recorded.
    if connector > pile.connector_count {
        return Err(CallError::new(
            ErrorCode::PropertyConstraintViolation,
            format!("connectorId {connector}: charge point {} has connectors 1-{} (register the others on the pile)", pile.code, pile.connector_count),
        ));
    }
    let (timestamp_text, timestamp) = opt_time(p, "timestamp")?.unwrap_or_default();
    let r = StartRequest { connector, id_tag: text_max(p, "idTag", ID_TAG)?, meter_start: int(p, "meterStart")?, timestamp_text, timestamp, reservation_id: opt_int(p, "reservationId")? };
    let started = sessions::start(ctx, pile, &r).await.map_err(internal)?;
    Ok(json!({ "transactionId": started.transaction_id, "idTagInfo": id_tag_info(&started.id_tag_info) }))
}

/// The readings of a `meterValue` array (energy register in Wh, power in
/// W, SoC); unreadable samples are skipped, never refused.
pub fn readings(meter_values: Option<&Value>, now: i64) -> Vec<Reading> {
    let mut out = Vec::new();
    for mv in meter_values.and_then(Value::as_array).into_iter().flatten() {
        let reported = mv.get("timestamp").and_then(Value::as_str).and_then(parse_time);
        let (at, _) = plausible_time(reported, now);
        let mut r = Reading { at, ..Reading::default() };
        for sv in mv.get("sampledValue").and_then(Value::as_array).into_iter().flatten() {
            if sv.get("format").and_then(Value::as_str) == Some("SignedData") {
                continue;
            }
            let Some(value) = sv.get("value").and_then(decimal) else { continue };
            let unit = sv.get("unit").and_then(Value::as_str).unwrap_or("");
            let per_phase = sv.get("phase").is_some_and(|p| !p.is_null());
            let scale = if unit.eq_ignore_ascii_case("kWh") || unit.eq_ignore_ascii_case("kW") { 1000.0 } else { 1.0 };
            match sv.get("measurand").and_then(Value::as_str).unwrap_or("Energy.Active.Import.Register") {
                "Energy.Active.Import.Register" if !per_phase || r.register_wh.is_none() => r.register_wh = Some((value * scale).round() as i64),
                "Power.Active.Import" if !per_phase || r.power_w.is_none() => r.power_w = Some((value * scale).round() as i64),
                "SoC" => r.soc = Some(value.clamp(0.0, 100.0).round() as u8),
                _ => {}
            }
        }
        out.push(r);
    }
    out
}

async fn meter_values(ctx: &AppCtx, pile: &Pile, p: &Value) -> Result<Value, CallError> {
    let connector = connector_of(p)?;
    let transaction_id = opt_int(p, "transactionId")?;
    let readings = readings(p.get("meterValue"), ctx.now());
    sessions::meter(ctx, pile, connector, transaction_id, &readings).await.map_err(internal)?;
    Ok(json!({}))
}

/// Always confirmed (a CALLERROR would make the charger send it again for
/// ever): what is wrong is recorded on the order instead.
async fn stop(ctx: &AppCtx, pile: &Pile, p: &Value) -> Result<Value, CallError> {
    // Past its limit an idTag is no card (answered Invalid below), and an
    // unreadable reason is Other: a StopTransaction is never refused.
    let id_tag = opt_text(p, "idTag").ok().flatten();
    let r = StopRequest {
        transaction_id: opt_int(p, "transactionId").ok().flatten().unwrap_or(0),
        meter_stop: opt_int(p, "meterStop").ok().flatten(),
        timestamp: opt_time(p, "timestamp").ok().flatten().and_then(|(_, at)| at),
        reason: opt_enum(p, "reason").unwrap_or_else(|_| Some("Other".into())),
        readings: readings(p.get("transactionData"), ctx.now()),
    };
    match sessions::stop(ctx, pile, &r).await.map_err(internal)? {
        Stopped::Unknown => tracing::warn!(pile = %pile.code, transaction = r.transaction_id, "StopTransaction of an unknown transaction"),
        Stopped::Repeated { order_no, problem } => tracing::info!(pile = %pile.code, order = %order_no, problem, "StopTransaction repeated"),
        Stopped::Closed { .. } => {}
    }
    match id_tag {
        Some(tag) if tag.chars().count() > ID_TAG => Ok(json!({ "idTagInfo": { "status": "Invalid" } })),
        Some(tag) => {
            let info = cards::authorize(ctx, &tag).await.map_err(internal)?;
            Ok(json!({ "idTagInfo": id_tag_info(&info) }))
        }
        None => Ok(json!({})),
    }
}

async fn report(ctx: &AppCtx, pile: &Pile, p: &Value, field: &str) -> Result<Value, CallError> {
    let status = enumerated(p, "status")?;
    link::report(ctx, pile, field, &status, ctx.now(), None).await.map_err(internal)?;
    Ok(json!({}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meter_readings_default_to_the_energy_register_in_wh() {
        let mv = json!([
            {"timestamp": "2025-03-10T08:00:00Z", "sampledValue": [{"value": "1200"}]},
            {"timestamp": "2025-03-10T08:01:00.5Z", "sampledValue": [
                {"value": "1.5", "unit": "kWh", "measurand": "Energy.Active.Import.Register", "context": "Sample.Periodic"},
                {"value": "7.2", "unit": "kW", "measurand": "Power.Active.Import"},
                {"value": "55", "measurand": "SoC", "unit": "Percent"},
                {"value": "x"}
            ]},
            {"timestamp": "1970-01-01T00:00:00Z", "sampledValue": [{"value": "1600", "context": "Sample.Clock"}]}
        ]);
        let now = 1_800_000_000;
        let r = readings(Some(&mv), now);
        assert_eq!(r[0], Reading { at: 1_741_593_600, register_wh: Some(1200), power_w: None, soc: None });
        assert_eq!(r[1], Reading { at: 1_741_593_660, register_wh: Some(1500), power_w: Some(7200), soc: Some(55) });
        assert_eq!(r[2].at, now, "a 1970 sample is recorded at arrival");
    }
}
