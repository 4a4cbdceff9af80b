//! OCPP 2.0.1: the message types ([`messages`], generated from the
//! schemas), the handlers' trait the application implements ([`Csms`]:
//! one method per action a charging station sends, typed request in,
//! typed answer or CALLERROR out) and the dispatch of a station's CALL to
//! it ([`handle`]). The sibling of `v16` over the same `link::Link`: a
//! CALL is read in [`Mode::Charger`] and a payload that breaks its schema
//! is answered with the CALLERROR its keyword earns, spelled as 2.0.1
//! spells the codes (`frame::ErrorCode::spelled`).

pub mod messages;


use async_trait::async_trait;
use serde_json::Value;

pub use messages::*;

use crate::frame::{CallError, ErrorCode};
use crate::link::Link;
use crate::schema;
use crate::{answer, Handled, Sender};

/// The answer to an action this server recognizes but does not handle.
pub fn not_supported(action: Action) -> CallError {
    CallError::new(ErrorCode::NotSupported, format!("{action} is not supported by this CSMS"))
}

/// What the application answers to each action a 2.0.1 charging station
/// sends. An action not in [`Csms::ANSWERED`] is NotSupported before its
/// payload is read.
#[async_trait]
pub trait Csms: Link {
    /// The actions a station sends that this application answers.
    const ANSWERED: &'static [Action];

    async fn authorize(&self, station: &Self::Charger, req: AuthorizeRequest) -> Result<AuthorizeResponse, CallError>;
    async fn boot_notification(&self, station: &Self::Charger, req: BootNotificationRequest) -> Result<BootNotificationResponse, CallError>;
    async fn heartbeat(&self, station: &Self::Charger, req: HeartbeatRequest) -> Result<HeartbeatResponse, CallError>;
    async fn status_notification(&self, station: &Self::Charger, req: StatusNotificationRequest) -> Result<StatusNotificationResponse, CallError>;
    async fn transaction_event(&self, station: &Self::Charger, req: TransactionEventRequest) -> Result<TransactionEventResponse, CallError>;
    async fn meter_values(&self, station: &Self::Charger, req: MeterValuesRequest) -> Result<MeterValuesResponse, CallError>;
    async fn data_transfer(&self, station: &Self::Charger, req: DataTransferRequest) -> Result<DataTransferResponse, CallError>;
    async fn security_event_notification(&self, station: &Self::Charger, req: SecurityEventNotificationRequest) -> Result<SecurityEventNotificationResponse, CallError>;
    async fn firmware_status_notification(&self, station: &Self::Charger, req: FirmwareStatusNotificationRequest) -> Result<FirmwareStatusNotificationResponse, CallError>;
    async fn log_status_notification(&self, station: &Self::Charger, req: LogStatusNotificationRequest) -> Result<LogStatusNotificationResponse, CallError>;
    async fn notify_event(&self, station: &Self::Charger, req: NotifyEventRequest) -> Result<NotifyEventResponse, CallError>;
    async fn notify_report(&self, station: &Self::Charger, req: NotifyReportRequest) -> Result<NotifyReportResponse, CallError>;
    async fn reservation_status_update(&self, station: &Self::Charger, req: ReservationStatusUpdateRequest) -> Result<ReservationStatusUpdateResponse, CallError>;
    async fn notify_display_messages(&self, station: &Self::Charger, req: NotifyDisplayMessagesRequest) -> Result<NotifyDisplayMessagesResponse, CallError>;
    async fn sign_certificate(&self, station: &Self::Charger, req: SignCertificateRequest) -> Result<SignCertificateResponse, CallError>;

    // What a station reports of smart charging, monitoring, customer data,
    // firmware it publishes and ISO 15118: answered only where listed in
    // ANSWERED (an application that takes them overrides these).
    async fn report_charging_profiles(&self, _station: &Self::Charger, _req: ReportChargingProfilesRequest) -> Result<ReportChargingProfilesResponse, CallError> {
        Err(not_supported(Action::ReportChargingProfiles))
    }
    async fn notify_charging_limit(&self, _station: &Self::Charger, _req: NotifyChargingLimitRequest) -> Result<NotifyChargingLimitResponse, CallError> {
        Err(not_supported(Action::NotifyChargingLimit))
    }
    async fn cleared_charging_limit(&self, _station: &Self::Charger, _req: ClearedChargingLimitRequest) -> Result<ClearedChargingLimitResponse, CallError> {
        Err(not_supported(Action::ClearedChargingLimit))
    }
    async fn notify_ev_charging_needs(&self, _station: &Self::Charger, _req: NotifyEVChargingNeedsRequest) -> Result<NotifyEVChargingNeedsResponse, CallError> {
        Err(not_supported(Action::NotifyEVChargingNeeds))
    }
    async fn notify_ev_charging_schedule(&self, _station: &Self::Charger, _req: NotifyEVChargingScheduleRequest) -> Result<NotifyEVChargingScheduleResponse, CallError> {
        Err(not_supported(Action::NotifyEVChargingSchedule))
    }
    async fn notify_monitoring_report(&self, _station: &Self::Charger, _req: NotifyMonitoringReportRequest) -> Result<NotifyMonitoringReportResponse, CallError> {
        Err(not_supported(Action::NotifyMonitoringReport))
    }
    async fn notify_customer_information(&self, _station: &Self::Charger, _req: NotifyCustomerInformationRequest) -> Result<NotifyCustomerInformationResponse, CallError> {
        Err(not_supported(Action::NotifyCustomerInformation))
    }
    async fn publish_firmware_status_notification(&self, _station: &Self::Charger, _req: PublishFirmwareStatusNotificationRequest) -> Result<PublishFirmwareStatusNotificationResponse, CallError> {
        Err(not_supported(Action::PublishFirmwareStatusNotification))
    }
    async fn get_15118_ev_certificate(&self, _station: &Self::Charger, _req: Get15118EVCertificateRequest) -> Result<Get15118EVCertificateResponse, CallError> {
        Err(not_supported(Action::Get15118EVCertificate))
    }
    async fn get_certificate_status(&self, _station: &Self::Charger, _req: GetCertificateStatusRequest) -> Result<GetCertificateStatusResponse, CallError> {
        Err(not_supported(Action::GetCertificateStatus))
    }
}

/// Answers one CALL of a connected 2.0.1 station: unknown actions are
/// NotImplemented, the CSMS's own actions and the station's actions not
/// answered here NotSupported.
pub async fn handle<A: Csms>(app: &A, station: &A::Charger, action: &str, payload: &Value) -> Handled {
    let Some(a) = Action::from_name(action) else {
        return Handled::of(Err(CallError::new(ErrorCode::NotImplemented, format!("unknown action {action}"))));
    };
    if a.sender() == Sender::Server {
        return Handled::of(Err(CallError::new(ErrorCode::NotSupported, format!("{a} is sent by the CSMS, not by a charging station"))));
    }
    if !A::ANSWERED.contains(&a) {
        return Handled::of(Err(not_supported(a)));
    }
    let result = match a {
        Action::Authorize => answer(payload, |r| app.authorize(station, r)).await,
        Action::BootNotification => {
            let result = answer(payload, |r| app.boot_notification(station, r)).await;
            let booted = result.is_ok();
            return Handled { result, booted };
        }
        Action::Heartbeat => answer(payload, |r| app.heartbeat(station, r)).await,
        Action::StatusNotification => answer(payload, |r| app.status_notification(station, r)).await,
        Action::TransactionEvent => answer(payload, |r| app.transaction_event(station, r)).await,
        Action::MeterValues => answer(payload, |r| app.meter_values(station, r)).await,
        Action::DataTransfer => answer(payload, |r| app.data_transfer(station, r)).await,
        Action::SecurityEventNotification => answer(payload, |r| app.security_event_notification(station, r)).await,
        Action::FirmwareStatusNotification => answer(payload, |r| app.firmware_status_notification(station, r)).await,
        Action::LogStatusNotification => answer(payload, |r| app.log_status_notification(station, r)).await,
        Action::NotifyEvent => answer(payload, |r| app.notify_event(station, r)).await,
        Action::NotifyReport => answer(payload, |r| app.notify_report(station, r)).await,
        Action::ReservationStatusUpdate => answer(payload, |r| app.reservation_status_update(station, r)).await,
        Action::NotifyDisplayMessages => answer(payload, |r| app.notify_display_messages(station, r)).await,
        Action::SignCertificate => answer(payload, |r| app.sign_certificate(station, r)).await,
        Action::ReportChargingProfiles => answer(payload, |r| app.report_charging_profiles(station, r)).await,
        Action::NotifyChargingLimit => answer(payload, |r| app.notify_charging_limit(station, r)).await,
        Action::ClearedChargingLimit => answer(payload, |r| app.cleared_charging_limit(station, r)).await,
        Action::NotifyEVChargingNeeds => answer(payload, |r| app.notify_ev_charging_needs(station, r)).await,
        Action::NotifyEVChargingSchedule => answer(payload, |r| app.notify_ev_charging_schedule(station, r)).await,
        Action::NotifyMonitoringReport => answer(payload, |r| app.notify_monitoring_report(station, r)).await,
        Action::NotifyCustomerInformation => answer(payload, |r| app.notify_customer_information(station, r)).await,
        Action::PublishFirmwareStatusNotification => answer(payload, |r| app.publish_firmware_status_notification(station, r)).await,
        Action::Get15118EVCertificate => answer(payload, |r| app.get_15118_ev_certificate(station, r)).await,
        Action::GetCertificateStatus => answer(payload, |r| app.get_certificate_status(station, r)).await,
        // Listed in ANSWERED without a method above: a program error.
        other => Err(CallError::new(ErrorCode::InternalError, format!("{other} is listed as answered but has no handler"))),
    };
    Handled::of(result)
}

/// One sampled value as OCPP 2.0.1 defines its defaults: no measurand is
/// the energy register, no unit is Wh, the multiplier (a power of ten) is
/// applied, no context is Sample.Periodic.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample<'a> {
    /// The value in `unit`, the multiplier applied.
    pub value: f64,
    pub measurand: &'a str,
    pub unit: &'a str,
    pub phase: Option<&'a str>,
    pub context: &'a str,
}

/// The samples of one meter value, with the defaults filled in.
pub struct Samples<'a> {
    pub timestamp: &'a schema::DateTime,
    pub values: Vec<Sample<'a>>,
}

fn sample(s: &SampledValue) -> Sample<'_> {
    let unit = s.unit_of_measure.as_ref();
    let multiplier = unit.and_then(|u| u.multiplier).unwrap_or(0).clamp(-9, 9) as i32;
    Sample {
        value: s.value * 10f64.powi(multiplier),
        measurand: s.measurand.as_ref().map_or("Energy.Active.Import.Register", MeasurandEnum::as_str),
        unit: unit.and_then(|u| u.unit.as_deref()).unwrap_or("Wh"),
        phase: s.phase.as_ref().map(PhaseEnum::as_str),
        context: s.context.as_ref().map_or("Sample.Periodic", ReadingContextEnum::as_str),
    }
}

/// A TransactionEvent's or MeterValues' readings, with the defaults filled in.
pub fn meter_samples(values: &[MeterValue]) -> Vec<Samples<'_>> {
    values.iter().map(|m| Samples { timestamp: &m.timestamp, values: m.sampled_value.iter().map(sample).collect() }).collect()
}

#[cfg(test)]
mod tests;
