//! OCPP 1.6 (with the security whitepaper's messages): the message types
//! ([`messages`], generated from the schemas), the handlers' trait the
//! application implements ([`CentralSystem`]: one method per action a
//! charger sends, typed request in, typed answer or CALLERROR out) and
//! the dispatch of a charger's CALL to it ([`handle`]). A CALL is read in
//! [`Mode::Charger`] (the documented coercions, then the schema): a
//! payload that breaks its schema is answered with the CALLERROR the
//! schema keyword earns, naming the field, and never reaches the
//! application. StopTransaction is the exception: it is always confirmed
//! ([`salvage_stop`]).

pub mod messages;


use async_trait::async_trait;
use serde_json::Value;

pub use messages::*;

use crate::frame::{CallError, ErrorCode};
use crate::link::Link;
use crate::schema::{self, DateTime, Mode, Step, Violation};
use crate::{answer, Handled, Sender};

/// Unix seconds as an OCPP dateTime (RFC 3339, UTC, to the second).
pub fn iso(ts: i64) -> String {
    schema::iso(ts)
}

/// The answer to an action this server recognizes but does not handle.
pub fn not_supported(action: Action) -> CallError {
    CallError::new(ErrorCode::NotSupported, format!("{action} is not supported by this central system"))
}

/// What the application answers to each action a 1.6 charger sends. The
/// security whitepaper's actions answer NotSupported until implemented.
#[async_trait]
pub trait CentralSystem: Link {
    /// The actions a charger sends that this application answers. A
    /// charger's action not listed is NotSupported, before its payload is
    /// read (the trait's default methods are never reached).
    const ANSWERED: &'static [Action];

    async fn authorize(&self, charger: &Self::Charger, req: AuthorizeRequest) -> Result<AuthorizeResponse, CallError>;
    async fn boot_notification(&self, charger: &Self::Charger, req: BootNotificationRequest) -> Result<BootNotificationResponse, CallError>;
    async fn data_transfer(&self, charger: &Self::Charger, req: DataTransferRequest) -> Result<DataTransferResponse, CallError>;
    async fn diagnostics_status_notification(&self, charger: &Self::Charger, req: DiagnosticsStatusNotificationRequest) -> Result<DiagnosticsStatusNotificationResponse, CallError>;
    async fn firmware_status_notification(&self, charger: &Self::Charger, req: FirmwareStatusNotificationRequest) -> Result<FirmwareStatusNotificationResponse, CallError>;
    async fn heartbeat(&self, charger: &Self::Charger, req: HeartbeatRequest) -> Result<HeartbeatResponse, CallError>;
    async fn meter_values(&self, charger: &Self::Charger, req: MeterValuesRequest) -> Result<MeterValuesResponse, CallError>;
    async fn start_transaction(&self, charger: &Self::Charger, req: StartTransactionRequest) -> Result<StartTransactionResponse, CallError>;
    async fn status_notification(&self, charger: &Self::Charger, req: StatusNotificationRequest) -> Result<StatusNotificationResponse, CallError>;
    /// Always confirmed (a CALLERROR would make the charger send it again
    /// for ever): `replaced` lists what broke the schema and what
    /// [`salvage_stop`] put in its place, for the application to record.
    /// An `Err` is for the server's own failure only (InternalError: the
    /// charger sends it again later).
    async fn stop_transaction(&self, charger: &Self::Charger, req: StopTransactionRequest, replaced: &[Violation]) -> Result<StopTransactionResponse, CallError>;

    async fn log_status_notification(&self, _charger: &Self::Charger, _req: LogStatusNotificationRequest) -> Result<LogStatusNotificationResponse, CallError> {
        Err(not_supported(Action::LogStatusNotification))
    }
    async fn security_event_notification(&self, _charger: &Self::Charger, _req: SecurityEventNotificationRequest) -> Result<SecurityEventNotificationResponse, CallError> {
        Err(not_supported(Action::SecurityEventNotification))
    }
    async fn sign_certificate(&self, _charger: &Self::Charger, _req: SignCertificateRequest) -> Result<SignCertificateResponse, CallError> {
        Err(not_supported(Action::SignCertificate))
    }
    async fn signed_firmware_status_notification(&self, _charger: &Self::Charger, _req: SignedFirmwareStatusNotificationRequest) -> Result<SignedFirmwareStatusNotificationResponse, CallError> {
        Err(not_supported(Action::SignedFirmwareStatusNotification))
    }
}

/// Answers one CALL of a connected 1.6 charger: unknown actions are
/// NotImplemented, the server's own actions NotSupported.
pub async fn handle<A: CentralSystem>(app: &A, charger: &A::Charger, action: &str, payload: &Value) -> Handled {
    let Some(a) = Action::from_name(action) else {
        return Handled::of(Err(CallError::new(ErrorCode::NotImplemented, format!("unknown action {action}"))));
    };
    if a.sender() != Sender::Server && !A::ANSWERED.contains(&a) {
        return Handled::of(Err(not_supported(a)));
    }
    let result = match a {
        Action::Authorize => answer(payload, |r| app.authorize(charger, r)).await,
        Action::BootNotification => {
            let result = answer(payload, |r| app.boot_notification(charger, r)).await;
            let booted = result.is_ok();
            return Handled { result, booted };
        }
        Action::DataTransfer => answer(payload, |r| app.data_transfer(charger, r)).await,
        Action::DiagnosticsStatusNotification => answer(payload, |r| app.diagnostics_status_notification(charger, r)).await,
        Action::FirmwareStatusNotification => answer(payload, |r| app.firmware_status_notification(charger, r)).await,
        Action::Heartbeat => answer(payload, |r| app.heartbeat(charger, r)).await,
        Action::MeterValues => answer(payload, |r| app.meter_values(charger, r)).await,
        Action::StartTransaction => answer(payload, |r| app.start_transaction(charger, r)).await,
        Action::StatusNotification => answer(payload, |r| app.status_notification(charger, r)).await,
        Action::StopTransaction => {
            let (request, replaced) = salvage_stop(payload);
            match app.stop_transaction(charger, request, &replaced).await {
                Ok(response) => serde_json::to_value(response).map_err(|_| CallError::internal()),
                Err(e) => Err(e),
            }
        }
        Action::LogStatusNotification => answer(payload, |r| app.log_status_notification(charger, r)).await,
        Action::SecurityEventNotification => answer(payload, |r| app.security_event_notification(charger, r)).await,
        Action::SignCertificate => answer(payload, |r| app.sign_certificate(charger, r)).await,
        Action::SignedFirmwareStatusNotification => answer(payload, |r| app.signed_firmware_status_notification(charger, r)).await,
        // Listed one by one (no catch-all), so an action new in the
        // schemas does not compile until it is placed.
        Action::CancelReservation
        | Action::CertificateSigned
        | Action::ChangeAvailability
        | Action::ChangeConfiguration
        | Action::ClearCache
        | Action::ClearChargingProfile
        | Action::DeleteCertificate
        | Action::ExtendedTriggerMessage
        | Action::GetCompositeSchedule
        | Action::GetConfiguration
        | Action::GetDiagnostics
        | Action::GetInstalledCertificateIds
        | Action::GetLocalListVersion
        | Action::GetLog
        | Action::InstallCertificate
        | Action::RemoteStartTransaction
        | Action::RemoteStopTransaction
        | Action::ReserveNow
        | Action::Reset
        | Action::SendLocalList
        | Action::SetChargingProfile
        | Action::SignedUpdateFirmware
        | Action::TriggerMessage
        | Action::UnlockConnector
        | Action::UpdateFirmware => {
            debug_assert_eq!(a.sender(), Sender::Server);
            Err(CallError::new(ErrorCode::NotSupported, format!("{a} is sent by the central system, not by a charge point")))
        }
    };
    Handled::of(result)
}

/// The timestamp a StopTransaction gets when its own cannot be read: a
/// clock that is not set (the application records the arrival time and
/// flags the order, as for a charger still at 1970).
pub const UNSET_CLOCK: &str = "1970-01-01T00:00:00Z";

/// How many broken `transactionData` entries are dropped one by one before
/// the whole array goes.
const MAX_DROPPED_SAMPLES: usize = 8;

/// A StopTransaction as it is always confirmed: read in [`Mode::Charger`],
/// and each part that still breaks the schema replaced, one at a time:
/// - a `transactionData` entry that breaks it is dropped (past
///   [`MAX_DROPPED_SAMPLES`] of them, the whole array), the rest is kept;
/// - an unreadable `timestamp` becomes [`UNSET_CLOCK`];
/// - an unreadable `meterStop` or `transactionId` becomes 0 (no such
///   transaction: the application records the stop as unknown);
/// - a `reason` that is no reason becomes `Other`;
/// - an `idTag` that is not one (past its 20 characters) and any field the
///   message does not define are left out.
///
/// Returns the request and the violations replaced, in order.
pub fn salvage_stop(payload: &Value) -> (StopTransactionRequest, Vec<Violation>) {
    let mut replaced = Vec::new();
    let mut fixed: Option<Value> = None;
    loop {
        let current = fixed.as_ref().unwrap_or(payload);
        let violation = match schema::parse::<StopTransactionRequest>(current, Mode::Charger) {
            Ok(request) => return (request, replaced),
            Err(v) => v,
        };
        let mut next = current.clone();
        let dropped = replaced.iter().filter(|v: &&Violation| v.top_field() == Some("transactionData")).count();
        if !repair(&mut next, &violation, dropped) || replaced.len() > 64 {
            // Nothing left to repair: a stop of nothing, still confirmed.
            replaced.push(violation);
            let request = StopTransactionRequest { id_tag: None, meter_stop: 0, timestamp: DateTime::from_unix(0), transaction_id: 0, reason: Some(Reason::Other), transaction_data: None };
            return (request, replaced);
        }
        replaced.push(violation);
        fixed = Some(next);
    }
}

/// Replaces what `v` found in `p`; false when it cannot.
fn repair(p: &mut Value, v: &Violation, dropped: usize) -> bool {
    let Some(o) = p.as_object_mut() else { return false };
    let Some(Step::Field(field)) = v.path.first() else { return false };
    match (field.as_str(), v.path.get(1)) {
        ("transactionData", Some(Step::Item(i))) if dropped < MAX_DROPPED_SAMPLES => match o.get_mut("transactionData").and_then(Value::as_array_mut) {
            Some(items) if *i < items.len() => {
                items.remove(*i);
            }
            _ => {
                o.remove("transactionData");
            }
        },
        ("timestamp", _) => {
            o.insert("timestamp".into(), Value::from(UNSET_CLOCK));
        }
        ("meterStop" | "transactionId", _) => {
            o.insert(field.clone(), Value::from(0));
        }
        ("reason", _) => {
            o.insert("reason".into(), Value::from(Reason::Other.as_str()));
        }
        (other, _) => {
            if o.remove(other).is_none() {
                return false;
            }
        }
    }
    true
}

/// One sampled value as OCPP 1.6 defines its defaults: no measurand is the
/// energy register (Energy.Active.Import.Register), no unit is Wh, no
/// format is Raw, no context is Sample.Periodic.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample<'a> {
    pub value: &'a str,
    pub measurand: &'a str,
    pub unit: &'a str,
    /// Some when the value is of one phase.
    pub phase: Option<&'a str>,
    pub context: &'a str,
    /// The value is signed data, not a reading.
    pub signed: bool,
}

/// The samples of one `meterValue` (or `transactionData`) entry.
pub struct Samples<'a> {
    pub timestamp: &'a DateTime,
    pub values: Vec<Sample<'a>>,
}

fn sample<'a>(value: &'a str, measurand: Option<&'a Measurand>, unit: Option<&'a str>, phase: Option<&'a Phase>, context: Option<&'a ReadingContext>, format: Option<&'a ValueFormat>) -> Sample<'a> {
    Sample {
        value,
        measurand: measurand.map_or(Measurand::EnergyActiveImportRegister.as_str(), Measurand::as_str),
        unit: unit.unwrap_or("Wh"),
        phase: phase.map(Phase::as_str),
        context: context.map_or(ReadingContext::SamplePeriodic.as_str(), ReadingContext::as_str),
        signed: format == Some(&ValueFormat::SignedData),
    }
}

/// A MeterValues' readings, with the defaults filled in.
pub fn meter_samples(values: &[MeterValue]) -> Vec<Samples<'_>> {
    values
        .iter()
        .map(|m| Samples {
            timestamp: &m.timestamp,
            values: m.sampled_value.iter().map(|s| sample(&s.value, s.measurand.as_ref(), s.unit.as_ref().map(UnitOfMeasure::as_str), s.phase.as_ref(), s.context.as_ref(), s.format.as_ref())).collect(),
        })
        .collect()
}

/// A StopTransaction's `transactionData`, with the defaults filled in.
pub fn transaction_samples(values: &[TransactionData]) -> Vec<Samples<'_>> {
    values
        .iter()
        .map(|m| Samples {
            timestamp: &m.timestamp,
            values: m.sampled_value.iter().map(|s| sample(&s.value, s.measurand.as_ref(), s.unit.as_ref().map(TransactionUnitOfMeasure::as_str), s.phase.as_ref(), s.context.as_ref(), s.format.as_ref())).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests;
