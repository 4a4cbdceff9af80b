//! The back-office as an OCPP 2.0.1 CSMS: what each message a 2.0.1
//! charging station sends does here, over the same domain as 1.6 (piles,
//! connectors, cards, orders, tariffs). Where 2.0.1's model differs:
//! - an EVSE is one of the pile's connectors (`evseId` n is connector n;
//!   these piles have one connector per EVSE);
//! - the station names its transactions (`transactionId`, a string): the
//!   first TransactionEvent that carries an idToken opens the order (a
//!   transaction begun before anyone was authorized, the cable plugged in
//!   first, keeps its start until then), Updated events extend its curve,
//!   Ended closes and prices it. A repeated or re-sent event (same
//!   transaction, same reading times) is never a second order or a second
//!   charge;
//! - Occupied is a connector in use: Preparing until the transaction says
//!   whether it charges (`chargingState`).
//! - while a transaction charges, an Updated event with new readings is
//!   followed by CostUpdated (the tariff's price so far, at most once a
//!   minute per transaction, through the command queue); the station's
//!   answer is in the command list and the message log.

use async_trait::async_trait;
use ocpp::frame::{CallError, ErrorCode};
use ocpp::schema::DateTime;
use ocpp::v201::*;

use super::application::{authorization_status, internal, reading_of};
use super::sessions::{self, EarlyStart, Reading, StartRequest, StopRequest};
use super::status::{self, StatusReport};
use super::station_reports::{self, Progress, SIGN_CERTIFICATE_BY};
use super::{link, plausible_time};
use crate::ctx::AppCtx;
use crate::domain::assets::piles::{get_pile, Pile, RegistrationStatus};
use crate::domain::cards::{self, IdTagInfo as CardAnswer};

/// Who queues a running transaction's CostUpdated (the command's `by`).
pub const COST_UPDATED_BY: &str = "CostUpdated";

/// Tells the station what its running transaction costs so far
/// (CostUpdated, in yuan as the tariffs' currency), once its slot is
/// claimed. The queue sends it: at once when nothing is in flight (the
/// call does not wait for the event's answer; OCPP-J lets each side have
/// its own call open). A failure is logged: the event is still answered.
async fn cost_updated(ctx: &AppCtx, pile: &Pile, tx: &sessions::Transaction, charger_tx: &str, fen: charging::Fen, now: i64) {
    let sent = async {
        if !sessions::claim_cost_update(ctx, tx, now).await? {
            return Ok(());
        }
        let request = CostUpdatedRequest { custom_data: None, total_cost: fen.0 as f64 / 100.0, transaction_id: charger_tx.to_string() };
        super::commands::send_v201(ctx, &pile.id, &request, COST_UPDATED_BY).await.map(drop)
    };
    if let Err(e) = sent.await {
        tracing::warn!(pile = %pile.code, transaction = %charger_tx, error = %e.msg.en, "could not send a running transaction's CostUpdated");
    }
}

/// What a station is told about an idToken.
pub fn id_token_info(info: &CardAnswer) -> IdTokenInfo {
    let status = match authorization_status(info.status) {
        ocpp::v16::AuthorizationStatus::Accepted => AuthorizationStatusEnum::Accepted,
        ocpp::v16::AuthorizationStatus::Blocked => AuthorizationStatusEnum::Blocked,
        ocpp::v16::AuthorizationStatus::Expired => AuthorizationStatusEnum::Expired,
        ocpp::v16::AuthorizationStatus::Invalid | ocpp::v16::AuthorizationStatus::ConcurrentTx | ocpp::v16::AuthorizationStatus::Unlisted(_) => AuthorizationStatusEnum::Invalid,
    };
    IdTokenInfo {
        custom_data: None,
        status,
        cache_expiry_date_time: info.expiry_date.map(DateTime::from_unix),
        charging_priority: None,
        language1: None,
        evse_id: None,
        group_id_token: info.parent_id_tag.clone().map(|g| IdToken { custom_data: None, additional_info: None, id_token: g, r#type: IdTokenEnum::Central }),
        language2: None,
        personal_message: None,
    }
}

/// The token type a card goes to a station as (its local list): its own
/// kind, or Central (the product's) when it has none.
pub fn token_type_of(t: Option<cards::TokenType>) -> IdTokenEnum {
    use cards::TokenType as T;
    match t {
        None | Some(T::Central) => IdTokenEnum::Central,
        Some(T::EMaid) => IdTokenEnum::EMAID,
        Some(T::ISO14443) => IdTokenEnum::ISO14443,
        Some(T::ISO15693) => IdTokenEnum::ISO15693,
        Some(T::KeyCode) => IdTokenEnum::KeyCode,
        Some(T::Local) => IdTokenEnum::Local,
        Some(T::MacAddress) => IdTokenEnum::MacAddress,
    }
}

/// What a NoAuthorization token is told: a station that starts without
/// authorization (free vend) has nothing a refusal could stop, so it is
/// accepted and its order flagged (`ChargerProblem::NoAuthorization`).
fn free_vend_info() -> IdTokenInfo {
    id_token_info(&CardAnswer::free_vend())
}

/// The pile's connector an EVSE is (1 or more, at most the pile's count).
fn connector_of_evse(pile: &Pile, evse_id: i64) -> Result<u32, CallError> {
    match u32::try_from(evse_id) {
        Ok(n) if n >= 1 && n <= pile.connector_count => Ok(n),
        _ => Err(CallError::new(
            ErrorCode::PropertyConstraintViolation,
            format!("evseId {evse_id}: charging station {} has EVSEs 1-{} (register the others on the pile)", pile.code, pile.connector_count),
        )),
    }
}

fn readings(values: &[MeterValue], now: i64) -> Vec<Reading> {
    meter_samples(values).iter().map(|m| reading_at(m, now)).collect()
}

fn reading_at(m: &Samples<'_>, now: i64) -> Reading {
    reading_of(m.timestamp.unix(), now, m.values.iter().map(|s| (s.value, s.measurand, s.unit, s.phase.is_some())))
}

/// The energy register of the readings taken in `context` (the
/// transaction's begin or end), else of the first (begin) or last (end).
fn register_in(values: &[MeterValue], context: &str, now: i64) -> Option<i64> {
    let samples = meter_samples(values);
    let tagged = samples.iter().find(|m| m.values.iter().any(|s| s.context == context && s.measurand == "Energy.Active.Import.Register"));
    if let Some(m) = tagged {
        let only: Vec<_> = m.values.iter().filter(|s| s.context == context).map(|s| (s.value, s.measurand, s.unit, s.phase.is_some())).collect();
        return reading_of(m.timestamp.unix(), now, only).register_wh;
    }
    let mut registers = samples.iter().filter_map(|m| reading_at(m, now).register_wh);
    if context == "Transaction.End" {
        registers.last()
    } else {
        registers.next()
    }
}

/// Why an ISO 15118 request is not served here (a StatusInfo reasonCode, CiString20).
fn no_iso15118(reason: &str) -> StatusInfo {
    StatusInfo { custom_data: None, reason_code: reason.into(), additional_info: Some("ISO 15118 is not served by this CSMS".into()) }
}

/// 2.0.1's stoppedReason as the 1.6 Reason the orders read.
fn stop_reason(reason: Option<&ReasonEnum>) -> Option<String> {
    let r = reason?;
    Some(
        match r.as_str() {
            "EVDisconnected" | "EmergencyStop" | "HardReset" | "Local" | "PowerLoss" | "Reboot" | "Remote" | "SoftReset" | "DeAuthorized" => r.as_str(),
            // The rest (EnergyLimitReached, GroundFault, Timeout, ...) are
            // no 1.6 reason: Other, an ordinary end.
            _ => "Other",
        }
        .to_string(),
    )
}

/// The connector status a transaction's charging state means.
fn status_of_charging(state: &ChargingStateEnum) -> Option<&'static str> {
    match state {
        ChargingStateEnum::Charging => Some("Charging"),
        ChargingStateEnum::SuspendedEV => Some("SuspendedEV"),
        ChargingStateEnum::SuspendedEVSE => Some("SuspendedEVSE"),
        ChargingStateEnum::EVConnected => Some("Preparing"),
        ChargingStateEnum::Idle | ChargingStateEnum::Unlisted(_) => None,
    }
}

async fn set_status(ctx: &AppCtx, pile: &Pile, connector: u32, status: &str, at: i64) -> Result<(), CallError> {
    apply_status(ctx, pile, StatusReport { connector, status: status.into(), error_code: "NoError".into(), at, keeps_session_state: false }).await
}

async fn apply_status(ctx: &AppCtx, pile: &Pile, r: StatusReport) -> Result<(), CallError> {
    status::apply(ctx, pile, &r).await.map_err(internal).map(|_| ())
}

#[async_trait]
impl Csms for AppCtx {
    /// Provisioning (B), authorization (C), transactions (E), meter values
    /// (J), reservations' updates (H), the security events (A), firmware
    /// and log status (L, N), the device model's notifications and data
    /// transfer (P).
    const ANSWERED: &'static [Action] = &[
        Action::Authorize,
        Action::BootNotification,
        Action::DataTransfer,
        Action::FirmwareStatusNotification,
        Action::Heartbeat,
        Action::LogStatusNotification,
        Action::MeterValues,
        Action::NotifyDisplayMessages,
        Action::NotifyEvent,
        Action::NotifyReport,
        Action::ReservationStatusUpdate,
        Action::SecurityEventNotification,
        Action::SignCertificate,
        Action::StatusNotification,
        Action::TransactionEvent,
        Action::ReportChargingProfiles,
        Action::NotifyChargingLimit,
        Action::ClearedChargingLimit,
        Action::NotifyEVChargingNeeds,
        Action::NotifyEVChargingSchedule,
        Action::NotifyMonitoringReport,
        Action::NotifyCustomerInformation,
        Action::PublishFirmwareStatusNotification,
        Action::Get15118EVCertificate,
        Action::GetCertificateStatus,
    ];

    async fn authorize(&self, _pile: &Pile, req: AuthorizeRequest) -> Result<AuthorizeResponse, CallError> {
        if req.id_token.r#type == IdTokenEnum::NoAuthorization {
            return Ok(AuthorizeResponse { custom_data: None, id_token_info: free_vend_info(), certificate_status: None });
        }
        let info = cards::authorize_token(self, &req.id_token.id_token, req.id_token.r#type.as_str()).await.map_err(internal)?;
        Ok(AuthorizeResponse { custom_data: None, id_token_info: id_token_info(&info), certificate_status: None })
    }

    async fn boot_notification(&self, pile: &Pile, req: BootNotificationRequest) -> Result<BootNotificationResponse, CallError> {
        let station = req.charging_station;
        let modem = station.modem.as_ref();
        let boot = link::BootInfo {
            vendor: station.vendor_name,
            model: station.model,
            serial_number: station.serial_number,
            firmware_version: station.firmware_version,
            iccid: modem.and_then(|m| m.iccid.clone()),
            imsi: modem.and_then(|m| m.imsi.clone()),
            meter_type: None,
            meter_serial_number: None,
            reason: Some(req.reason.as_str().to_string()),
            at: AppCtx::now(self),
        };
        let pile = get_pile(self, &pile.id).await.map_err(internal)?;
        link::booted(self, &pile, &boot).await.map_err(internal)?;
        let status = match pile.registration_status {
            RegistrationStatus::Accepted => RegistrationStatusEnum::Accepted,
            RegistrationStatus::Pending => RegistrationStatusEnum::Pending,
            RegistrationStatus::Rejected => RegistrationStatusEnum::Rejected,
        };
        let ops = crate::domain::operations::current(self).await.map_err(internal)?;
        Ok(BootNotificationResponse {
            custom_data: None,
            current_time: DateTime::from_unix(AppCtx::now(self)),
            interval: ops.told_heartbeat_secs(pile.heartbeat_interval_secs),
            status,
            status_info: None,
        })
    }

    async fn heartbeat(&self, _pile: &Pile, _req: HeartbeatRequest) -> Result<HeartbeatResponse, CallError> {
        Ok(HeartbeatResponse { custom_data: None, current_time: DateTime::from_unix(AppCtx::now(self)) })
    }

    async fn status_notification(&self, pile: &Pile, req: StatusNotificationRequest) -> Result<StatusNotificationResponse, CallError> {
        let connector = connector_of_evse(pile, req.evse_id)?;
        let (at, _) = plausible_time(Some(req.timestamp.unix()), AppCtx::now(self));
        let status = match &req.connector_status {
            ConnectorStatusEnum::Available => "Available",
            ConnectorStatusEnum::Reserved => "Reserved",
            ConnectorStatusEnum::Unavailable => "Unavailable",
            ConnectorStatusEnum::Faulted => "Faulted",
            // In use: what the transaction said stands (charging, suspended,
            // finishing); else it is being prepared.
            ConnectorStatusEnum::Occupied => {
                apply_status(self, pile, StatusReport { connector, status: "Preparing".into(), error_code: "NoError".into(), at, keeps_session_state: true }).await?;
                return Ok(StatusNotificationResponse { custom_data: None });
            }
            ConnectorStatusEnum::Unlisted(other) => {
                tracing::info!(pile = %pile.code, status = %other, "a connector status 2.0.1 does not define: ignored");
                return Ok(StatusNotificationResponse { custom_data: None });
            }
        };
        set_status(self, pile, connector, status, at).await?;
        Ok(StatusNotificationResponse { custom_data: None })
    }

    async fn transaction_event(&self, pile: &Pile, req: TransactionEventRequest) -> Result<TransactionEventResponse, CallError> {
        if let TransactionEventEnum::Unlisted(other) = &req.event_type {
            return Err(CallError::new(ErrorCode::PropertyConstraintViolation, format!("eventType {other}: a transaction event is Started, Updated or Ended")));
        }
        let now = AppCtx::now(self);
        let charger_tx = req.transaction_info.transaction_id.clone();
        let values = req.meter_value.as_deref().unwrap_or_default();
        let named_connector = req.evse.as_ref().map(|e| connector_of_evse(pile, e.id)).transpose()?;
        let mut answer = TransactionEventResponse { custom_data: None, total_cost: None, charging_priority: None, id_token_info: None, updated_personal_message: None };
        let mut tx = sessions::started_by_charger(self, &pile.id, &charger_tx).await.map_err(internal)?;
        if tx.is_none() {
            let early = sessions::early_start(self, &pile.id, &charger_tx).await.map_err(internal)?;
            let kept_early = early.is_some();
            let start = match early {
                Some(e) => e,
                None => EarlyStart {
                    connector: named_connector.ok_or_else(|| CallError::new(ErrorCode::OccurenceConstraintViolation, "evse is required in the first event of a transaction"))?,
                    meter_start: register_in(values, "Transaction.Begin", now).unwrap_or(0),
                    timestamp: req.timestamp.unix(),
                    timestamp_text: req.timestamp.as_str().to_string(),
                    seq_no: req.seq_no,
                },
            };
            match &req.id_token {
                Some(token) => {
                    let r = StartRequest {
                        connector: start.connector,
                        id_tag: token.id_token.clone(),
                        meter_start: start.meter_start,
                        timestamp: Some(start.timestamp),
                        timestamp_text: start.timestamp_text,
                        reservation_id: req.reservation_id,
                        charger_transaction_id: Some(charger_tx.clone()),
                    };
                    let early_seq = start.seq_no;
                    let by = match &token.r#type {
                        IdTokenEnum::NoAuthorization => sessions::StartedBy::NoAuthorization,
                        other => sessions::StartedBy::Token(other.as_str().to_string()),
                    };
                    let started = sessions::start_by(self, pile, &r, by).await.map_err(internal)?;
                    if kept_early {
                        sessions::forget_early_start(self, &pile.id, &charger_tx).await.map_err(internal)?;
                    }
                    answer.id_token_info = Some(id_token_info(&started.id_tag_info));
                    tx = sessions::get_transaction(self, started.transaction_id).await.map_err(internal)?;
                    // The cable-first event counted as received.
                    if let Some(t) = tx.as_mut().filter(|t| t.seq_last.is_none() && early_seq < req.seq_no) {
                        (t.seq_last, t.seq_missing) = (Some(early_seq), (0..early_seq).collect());
                    }
                }
                // No one authorized yet: an Ended one was never a session.
                None if req.event_type == TransactionEventEnum::Ended => return Ok(answer),
                None => {
                    sessions::remember_early_start(self, &pile.id, &charger_tx, &start).await.map_err(internal)?;
                    return Ok(answer);
                }
            }
        } else if let Some(token) = &req.id_token {
            answer.id_token_info = Some(match &token.r#type {
                IdTokenEnum::NoAuthorization => free_vend_info(),
                other => id_token_info(&cards::authorize_token(self, &token.id_token, other.as_str()).await.map_err(internal)?),
            });
        }
        let Some(tx) = tx else { return Err(CallError::internal()) };
        let (seq_last, seq_missing) = sessions::next_sequence(tx.seq_last, &tx.seq_missing, req.seq_no);
        if Some(seq_last) != tx.seq_last || seq_missing != tx.seq_missing {
            sessions::record_sequence(self, tx.transaction_id, seq_last, &seq_missing).await.map_err(internal)?;
        }
        let (at, _) = plausible_time(Some(req.timestamp.unix()), now);
        if req.event_type == TransactionEventEnum::Ended {
            let stop = StopRequest {
                transaction_id: tx.transaction_id,
                meter_stop: register_in(values, "Transaction.End", now),
                timestamp: Some(req.timestamp.unix()),
                reason: stop_reason(req.transaction_info.stopped_reason.as_ref()).or_else(|| Some("Local".into())),
                readings: readings(values, now),
            };
            let stopped = sessions::stop(self, pile, &stop).await.map_err(internal)?;
            // Events that never came: the order says so (one whose gap
            // closes later, from the station's offline queue, still does).
            if !seq_missing.is_empty() {
                tracing::info!(pile = %pile.code, transaction = %charger_tx, missing = ?seq_missing, "a 2.0.1 transaction ended with events missing");
                sessions::flag_order(self, &tx.order_no, charging::orders::ChargerProblem::EventsMissing).await.map_err(internal)?;
            }
            if let sessions::Stopped::Closed { amount_fen, .. } = stopped {
                answer.total_cost = Some(amount_fen.0 as f64 / 100.0);
                set_status(self, pile, tx.connector, "Finishing", at).await?;
            }
            return Ok(answer);
        }
        // The running cost is priced only when a CostUpdated may go now.
        let cost_due = req.event_type == TransactionEventEnum::Updated && !tx.cost_sent_at.is_some_and(|t| now - t < sessions::COST_UPDATE_SECS);
        if cost_due {
            let cost = sessions::meter_priced(self, pile, tx.connector, Some(tx.transaction_id), &readings(values, now)).await.map_err(internal)?;
            if let Some(fen) = cost {
                cost_updated(self, pile, &tx, &charger_tx, fen, now).await;
            }
        } else {
            sessions::meter(self, pile, tx.connector, Some(tx.transaction_id), &readings(values, now)).await.map_err(internal)?;
        }
        if let Some(status) = req.transaction_info.charging_state.as_ref().and_then(status_of_charging) {
            set_status(self, pile, tx.connector, status, at).await?;
        }
        Ok(answer)
    }

    async fn meter_values(&self, pile: &Pile, req: MeterValuesRequest) -> Result<MeterValuesResponse, CallError> {
        // evseId 0 is the station's main meter: no session's.
        if req.evse_id > 0 {
            let connector = connector_of_evse(pile, req.evse_id)?;
            sessions::meter(self, pile, connector, None, &readings(&req.meter_value, AppCtx::now(self))).await.map_err(internal)?;
        }
        Ok(MeterValuesResponse { custom_data: None })
    }

    async fn data_transfer(&self, _pile: &Pile, _req: DataTransferRequest) -> Result<DataTransferResponse, CallError> {
        Ok(DataTransferResponse { custom_data: None, status: DataTransferStatusEnum::UnknownVendorId, status_info: None, data: None })
    }

    async fn security_event_notification(&self, pile: &Pile, req: SecurityEventNotificationRequest) -> Result<SecurityEventNotificationResponse, CallError> {
        station_reports::security_event(self, pile, req.r#type, req.timestamp.unix(), req.tech_info).await?;
        Ok(SecurityEventNotificationResponse { custom_data: None })
    }

    async fn firmware_status_notification(&self, pile: &Pile, req: FirmwareStatusNotificationRequest) -> Result<FirmwareStatusNotificationResponse, CallError> {
        station_reports::progress(self, pile, Progress::Firmware, req.status.as_str(), req.request_id).await?;
        Ok(FirmwareStatusNotificationResponse { custom_data: None })
    }

    async fn log_status_notification(&self, pile: &Pile, req: LogStatusNotificationRequest) -> Result<LogStatusNotificationResponse, CallError> {
        station_reports::progress(self, pile, Progress::Log, req.status.as_str(), req.request_id).await?;
        Ok(LogStatusNotificationResponse { custom_data: None })
    }

    /// Each event kept beside the pile's device model (and the frame in
    /// the message log).
    async fn notify_event(&self, pile: &Pile, req: NotifyEventRequest) -> Result<NotifyEventResponse, CallError> {
        super::device_model::events::notified(self, &pile.id, &req).await.map_err(internal)?;
        Ok(NotifyEventResponse { custom_data: None })
    }

    /// Kept in the message log, page by page as the station sends it, and
    /// each variable in the pile's device model.
    async fn notify_report(&self, pile: &Pile, req: NotifyReportRequest) -> Result<NotifyReportResponse, CallError> {
        super::device_model::reported(self, &pile.id, &req).await.map_err(internal)?;
        Ok(NotifyReportResponse { custom_data: None })
    }

    /// Signed by the product's CA (a ChargingStationCertificate: its TLS
    /// client certificate); the chain follows in CertificateSigned once
    /// the station has the Accepted. A CSR the CA refuses is Rejected and
    /// kept as a security event; a V2G certificate is not issued here.
    async fn sign_certificate(&self, pile: &Pile, req: SignCertificateRequest) -> Result<SignCertificateResponse, CallError> {
        let rejected = Ok(SignCertificateResponse { custom_data: None, status: GenericStatusEnum::Rejected, status_info: None });
        if req.certificate_type.as_ref().is_some_and(|t| *t != CertificateSigningUseEnum::ChargingStationCertificate) {
            return rejected;
        }
        let Some(certificate_chain) = station_reports::signed_chain(self, pile, &req.csr).await? else { return rejected };
        let chain = CertificateSignedRequest { custom_data: None, certificate_chain, certificate_type: Some(CertificateSigningUseEnum::ChargingStationCertificate) };
        super::commands::send_after_reply_v201(self, &pile.id, &chain, SIGN_CERTIFICATE_BY).await.map_err(internal)?;
        Ok(SignCertificateResponse { custom_data: None, status: GenericStatusEnum::Accepted, status_info: None })
    }

    // Reports kept in the message log (the pile's page shows them there):
    // the profiles a station holds (also kept as records beside the
    // device model, `device_model::profiles`), a limit set outside the CSMS (an
    // energy manager, a local controller) and its end, customer
    // information, the firmware it publishes to others. A monitoring
    // report's monitors are also kept beside the device model (`monitors`).
    async fn report_charging_profiles(&self, pile: &Pile, req: ReportChargingProfilesRequest) -> Result<ReportChargingProfilesResponse, CallError> {
        super::device_model::profiles::reported(self, &pile.id, &req).await.map_err(internal)?;
        Ok(ReportChargingProfilesResponse { custom_data: None })
    }
    async fn notify_charging_limit(&self, _pile: &Pile, _req: NotifyChargingLimitRequest) -> Result<NotifyChargingLimitResponse, CallError> {
        Ok(NotifyChargingLimitResponse { custom_data: None })
    }
    async fn cleared_charging_limit(&self, _pile: &Pile, _req: ClearedChargingLimitRequest) -> Result<ClearedChargingLimitResponse, CallError> {
        Ok(ClearedChargingLimitResponse { custom_data: None })
    }
    async fn notify_monitoring_report(&self, pile: &Pile, req: NotifyMonitoringReportRequest) -> Result<NotifyMonitoringReportResponse, CallError> {
        super::device_model::monitors::reported(self, &pile.id, &req).await.map_err(internal)?;
        Ok(NotifyMonitoringReportResponse { custom_data: None })
    }
    async fn notify_customer_information(&self, _pile: &Pile, _req: NotifyCustomerInformationRequest) -> Result<NotifyCustomerInformationResponse, CallError> {
        Ok(NotifyCustomerInformationResponse { custom_data: None })
    }
    async fn publish_firmware_status_notification(&self, _pile: &Pile, _req: PublishFirmwareStatusNotificationRequest) -> Result<PublishFirmwareStatusNotificationResponse, CallError> {
        Ok(PublishFirmwareStatusNotificationResponse { custom_data: None })
    }

    // ISO 15118 (Plug & Charge): the product computes no schedule from an
    // EV's needs and holds no contract certificates or OCSP responder, so
    // it says so in the answers each message defines for that, rather than
    // a CALLERROR the station would retry.
    async fn notify_ev_charging_needs(&self, _pile: &Pile, _req: NotifyEVChargingNeedsRequest) -> Result<NotifyEVChargingNeedsResponse, CallError> {
        Ok(NotifyEVChargingNeedsResponse { custom_data: None, status: NotifyEVChargingNeedsStatusEnum::Rejected, status_info: Some(no_iso15118("NoSchedule")) })
    }
    async fn notify_ev_charging_schedule(&self, _pile: &Pile, _req: NotifyEVChargingScheduleRequest) -> Result<NotifyEVChargingScheduleResponse, CallError> {
        Ok(NotifyEVChargingScheduleResponse { custom_data: None, status: GenericStatusEnum::Accepted, status_info: None })
    }
    async fn get_15118_ev_certificate(&self, _pile: &Pile, _req: Get15118EVCertificateRequest) -> Result<Get15118EVCertificateResponse, CallError> {
        Ok(Get15118EVCertificateResponse { custom_data: None, status: Iso15118EVCertificateStatusEnum::Failed, status_info: Some(no_iso15118("NoCertificate")), exi_response: String::new() })
    }
    async fn get_certificate_status(&self, _pile: &Pile, _req: GetCertificateStatusRequest) -> Result<GetCertificateStatusResponse, CallError> {
        Ok(GetCertificateStatusResponse { custom_data: None, status: GetCertificateStatusEnum::Failed, status_info: Some(no_iso15118("NoOcspResponder")), ocsp_result: None })
    }

    /// The messages a station shows (GetDisplayMessages' answer), kept in
    /// the message log.
    async fn notify_display_messages(&self, _pile: &Pile, _req: NotifyDisplayMessagesRequest) -> Result<NotifyDisplayMessagesResponse, CallError> {
        Ok(NotifyDisplayMessagesResponse { custom_data: None })
    }

    async fn reservation_status_update(&self, _pile: &Pile, req: ReservationStatusUpdateRequest) -> Result<ReservationStatusUpdateResponse, CallError> {
        use super::reservations::{self, ReservationStatus};
        // Expired or Removed: the connector is no longer held either way;
        // the station's word is kept as the reservation's answer.
        reservations::set_status(self, req.reservation_id, ReservationStatus::Cancelled, Some(req.reservation_update_status.as_str())).await.map_err(internal)?;
        Ok(ReservationStatusUpdateResponse { custom_data: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ocpp::schema::{parse, Mode};
    use serde_json::json;

    #[test]
    fn a_transactions_begin_and_end_registers_are_read_from_their_context() {
        let req: MeterValuesRequest = parse(
            &json!({"evseId": 1, "meterValue": [
                {"timestamp": "2025-03-10T08:00:00Z", "sampledValue": [{"value": 7.0, "measurand": "Power.Active.Import", "unitOfMeasure": {"unit": "kW"}}, {"value": 1.2, "context": "Transaction.Begin", "unitOfMeasure": {"unit": "kWh"}}]},
                {"timestamp": "2025-03-10T09:00:00Z", "sampledValue": [{"value": 8200, "context": "Sample.Periodic"}]}
            ]}),
            Mode::Charger,
        )
        .expect("meter values");
        let values = &req.meter_value;
        let now = 1_800_000_000;
        assert_eq!(register_in(values, "Transaction.Begin", now), Some(1200));
        assert_eq!(register_in(values, "Transaction.End", now), Some(8200), "no End reading: the last register");
        let r = readings(values, now);
        assert_eq!((r[0].power_w, r[0].register_wh, r[1].register_wh), (Some(7000), Some(1200), Some(8200)));
    }

    #[test]
    fn stopped_reasons_become_the_orders_reasons() {
        assert_eq!(stop_reason(Some(&ReasonEnum::EVDisconnected)).as_deref(), Some("EVDisconnected"));
        assert_eq!(stop_reason(Some(&ReasonEnum::EnergyLimitReached)).as_deref(), Some("Other"));
        assert_eq!(stop_reason(None), None);
    }
}
