//! The charger link's application layer: the back-office as the `ocpp`
//! crate's application. [`Link`] (who a charger is, its connections, the
//! message log, the answers to our calls, the close) and
//! [`CentralSystem`] (what each OCPP 1.6 message a charger sends does
//! here) are implemented over the domain, so the protocol crate knows
//! nothing of piles, cards, orders or the store. The transports (the local
//! gateway's socket, the AWS `$connect`/`$default`/`$disconnect`
//! functions) hand frames to `ocpp::Session` with the context as the
//! application.

use async_trait::async_trait;
use envelope::ApiError;
use ocpp::frame::{CallError, ErrorCode};
use ocpp::link::{self as contract, Answer, Exchange, Failure, Known, Link, LinkError, Refusal, TakeOver};
use ocpp::schema::{DateTime, Violation};
use ocpp::v16::{self, *};
use serde_json::Value;

use super::guard::{self, Verdict};
use super::log::{self, LoggedError, MessageLogEntry};
use super::sessions::{self, Reading, StartRequest, StopRequest, Stopped};
use super::status::{self, StatusReport};
use super::station_reports::{self, Progress, SIGN_CERTIFICATE_BY};
use super::{budget, commands, least_security_profile, link, plausible_time};
use crate::ctx::AppCtx;
use crate::domain::assets::piles::{find_by_code, get_pile, Pile, RegistrationStatus};
use crate::domain::cards::{self, CardStatus, IdTagInfo as CardAnswer};

/// An idTag is CiString20Type.
const ID_TAG: usize = 20;

/// A store failure while a charger's message is handled: logged, and the
/// charger is told to send it again later (InternalError).
pub(super) fn internal(e: ApiError) -> CallError {
    tracing::error!(error = %e.msg.en, "charger message could not be handled");
    CallError::internal()
}

fn link_error(e: ApiError) -> LinkError {
    LinkError(e.msg.en)
}

fn connection_record(pile: &Pile, c: &contract::Connection) -> link::Connection {
    link::Connection {
        connection_id: c.connection_id.clone(),
        pile_id: pile.id.clone(),
        protocol: c.protocol.into(),
        connected_at_ms: c.connected_at_ms,
        queue_started: false,
        pending: false,
        remote_address: c.remote_address.clone(),
        instance: None,
        close_requested: false,
    }
}

fn logged(e: Failure) -> LoggedError {
    LoggedError { code: e.code, description: e.description }
}

impl From<Exchange> for MessageLogEntry {
    fn from(x: Exchange) -> Self {
        MessageLogEntry {
            at: x.at,
            direction: match x.direction {
                contract::Direction::In => log::Direction::In,
                contract::Direction::Out => log::Direction::Out,
            },
            message_id: x.message_id,
            action: x.action,
            request: x.request,
            response: x.response,
            error: x.error.map(logged),
            answered_at: x.answered_at,
            raw: None,
        }
    }
}

#[async_trait]
impl Link for AppCtx {
    type Charger = Pile;

    fn now(&self) -> i64 {
        AppCtx::now(self)
    }

    fn identity<'c>(&self, pile: &'c Pile) -> &'c str {
        &pile.code
    }

    async fn find_charger(&self, id: &str, address: &str) -> Result<Pile, Refusal> {
        match find_by_code(self, id).await {
            // A YKC pile logs in on the YKC port, never over OCPP.
            Ok(Some(p)) if p.ocpp_version.is_ykc() => Err(Refusal::UnknownCharger(format!("pile {id} speaks YKC: it connects on the YKC port"))),
            Ok(Some(p)) => Ok(p),
            Ok(None) => {
                // Guessing which ids exist counts against the address too.
                if let Some(wait) = guard::unknown_charger(self, address).await.map_err(|_| Refusal::Unavailable)? {
                    return Err(Refusal::TooMany(wait));
                }
                Err(Refusal::UnknownCharger(format!("no pile has the charge point id {id}")))
            }
            Err(_) => Err(Refusal::Unavailable),
        }
    }

    fn version(&self, pile: &Pile) -> ocpp::Version {
        match pile.ocpp_version {
            charging::pile::OcppVersion::V16 => ocpp::Version::V16,
            charging::pile::OcppVersion::V201 => ocpp::Version::V201,
            // Never admitted over OCPP (find_charger refuses them).
            charging::pile::OcppVersion::Ykc15 | charging::pile::OcppVersion::Ykc16 => ocpp::Version::V16,
        }
    }

    fn security_profile(&self, pile: &Pile) -> u8 {
        pile.security_profile.max(least_security_profile(self))
    }

    async fn check_password(&self, pile: &Pile, offered: Option<&str>, address: &str) -> Result<(), Refusal> {
        match guard::check(self, pile, offered, address).await.map_err(|_| Refusal::Unavailable)? {
            Verdict::Right => Ok(()),
            Verdict::Wrong => Err(Refusal::Unauthorized("wrong charge point id or password".into())),
            Verdict::Wait(secs) => Err(Refusal::TooMany(secs)),
        }
    }

    /// Profile 3 where the product holds a CA (the gateway): the chain is
    /// checked against it, the CN against the charge point id, and the
    /// serial against the revocations; a refusal is also a security event.
    #[cfg(feature = "charger-ca")]
    async fn check_client_certificate(&self, pile: &Pile, chain: &[Vec<u8>], _address: &str) -> Result<(), Refusal> {
        use super::certificates::{admit_client_certificate, ClientCertRefusal};
        match admit_client_certificate(self, pile, chain).await {
            Ok(()) => Ok(()),
            Err(ClientCertRefusal::Refused(why)) => Err(Refusal::Unauthorized(why)),
            Err(ClientCertRefusal::Unavailable) => Err(Refusal::Unavailable),
        }
    }

    async fn connection_opened(&self, pile: &Pile, c: &contract::Connection) -> Result<(), LinkError> {
        link::connected(self, pile, &connection_record(pile, c), &c.remote_address).await.map(|_| ()).map_err(link_error)
    }

    async fn connection_claimed(&self, pile: &Pile, c: &contract::Connection) -> Result<(), LinkError> {
        link::claimed(self, &connection_record(pile, c)).await.map_err(link_error)
    }

    async fn take_over(&self, pile: &Pile, connection_id: &str) -> Result<TakeOver, LinkError> {
        let Some(record) = link::connection(self, connection_id).await.map_err(link_error)? else { return Ok(TakeOver::Unknown) };
        let replaced = link::take_over(self, pile, &record).await.map_err(link_error)?;
        Ok(TakeOver::Current { replaced })
    }

    async fn close_connection(&self, pile: &Pile, connection_id: &str) {
        match self.outbound.get() {
            Some(out) => {
                if let Err(e) = link::close(self, out.as_ref(), &pile.id, connection_id).await {
                    tracing::warn!(pile = %pile.code, connection = %connection_id, error = %e.msg.en, "the replaced connection could not be closed");
                }
            }
            None => tracing::warn!(pile = %pile.code, connection = %connection_id, "the replaced connection cannot be closed from here"),
        }
    }

    async fn known_connection(&self, connection_id: &str) -> Result<Option<Known<Pile>>, LinkError> {
        let Some(c) = link::connection(self, connection_id).await.map_err(link_error)? else { return Ok(None) };
        let pile = match get_pile(self, &c.pile_id).await {
            Ok(p) => p,
            Err(e) if e.code == 404 => return Ok(None),
            Err(e) => return Err(link_error(e)),
        };
        Ok(Some(Known { charger: pile, protocol: c.protocol, started: c.queue_started, pending: c.pending }))
    }

    async fn seen(&self, pile: &Pile, at: i64) {
        if let Err(e) = link::seen(self, &pile.id, at).await {
            tracing::warn!(error = %e.msg.en, "could not record the charger's last message");
        }
    }

    async fn log(&self, pile: &Pile, exchange: Exchange) {
        if let Err(e) = log::append(self, &pile.id, exchange.into()).await {
            tracing::warn!(error = %e.msg.en, "could not write the message log");
        }
    }

    /// Completes the command (and sends the next queued one). An answer to
    /// nothing, a late one, or one to a call sent on another connection is
    /// logged and never applied.
    async fn answered(&self, pile: &Pile, connection_id: &str, message_id: &str, answer: Answer) {
        let answer = answer.map_err(logged);
        let unmatched = answer.clone();
        match commands::complete(self, &pile.id, connection_id, message_id, answer).await {
            Ok(commands::Completion::Applied(_)) => {}
            Ok(other) => {
                tracing::info!(pile = %pile.code, id = message_id, outcome = ?other, "answer for no pending call: logged, not applied");
                let (response, error) = match unmatched {
                    Ok(v) => (Some(commands::redact_passwords(v)), None),
                    Err(e) => (None, Some(e)),
                };
                let now = AppCtx::now(self);
                let entry = MessageLogEntry { at: now, direction: log::Direction::Out, message_id: Some(message_id.to_string()), action: None, request: Value::Null, response, error, answered_at: Some(now), raw: None };
                if let Err(e) = log::append(self, &pile.id, entry).await {
                    tracing::warn!(error = %e.msg.en, "could not write the message log");
                }
            }
            Err(e) => tracing::error!(error = %e.msg.en, "could not complete a command"),
        }
    }

    async fn after_reply(&self, pile: &Pile, connection_id: &str, first: bool, booted: bool) {
        if first {
            if let Err(e) = link::queue_started(self, connection_id).await {
                tracing::warn!(error = %e.msg.en, "could not record the connection's first message");
            }
        }
        // Neither first nor booted: a handler queued a call to follow its
        // answer (the session says so), which releases no hold.
        let wake = if booted {
            commands::Wake::Booted
        } else if first {
            commands::Wake::Reconnected
        } else {
            commands::Wake::Queue
        };
        if let Err(e) = commands::pump(self, &pile.id, wake).await {
            tracing::warn!(error = %e.msg.en, "could not send the charger's queued commands");
        }
        // Here, not while the BootNotification is handled: its share must
        // reach the charger after the answer that accepts it.
        if booted {
            if let Err(e) = budget::pile_booted(self, &pile.id).await {
                tracing::warn!(error = %e.msg.en, "could not send the station's power budget share");
            }
        }
    }

    async fn connection_closed(&self, pile: &Pile, connection_id: &str, claimed_only: bool) {
        if let Err(e) = link::disconnected(self, &pile.id, connection_id).await {
            tracing::warn!(error = %e.msg.en, "could not record the disconnect");
        }
        if claimed_only {
            // Never the charger's connection: nothing was sent on it.
            return;
        }
        if let Err(e) = commands::connection_ended(self, &pile.id, connection_id).await {
            tracing::warn!(error = %e.msg.en, "could not end the call in flight on a closed connection");
        }
    }
}

pub(super) fn authorization_status(s: CardStatus) -> AuthorizationStatus {
    match s {
        CardStatus::Accepted => AuthorizationStatus::Accepted,
        CardStatus::Blocked => AuthorizationStatus::Blocked,
        CardStatus::Expired => AuthorizationStatus::Expired,
        CardStatus::Invalid => AuthorizationStatus::Invalid,
    }
}

/// What a charger is told about a card.
pub fn id_tag_info(info: &CardAnswer) -> IdTagInfo {
    IdTagInfo { status: authorization_status(info.status), expiry_date: info.expiry_date.map(DateTime::from_unix), parent_id_tag: info.parent_id_tag.clone() }
}

fn invalid() -> IdTagInfo {
    IdTagInfo { status: AuthorizationStatus::Invalid, expiry_date: None, parent_id_tag: None }
}

fn connector_of(id: i64) -> Result<u32, CallError> {
    u32::try_from(id).map_err(|_| CallError::new(ErrorCode::PropertyConstraintViolation, "connectorId must be 0 or more"))
}

/// One reading from its samples, each as (value, measurand, unit, of one
/// phase), whatever the OCPP version: the energy register in Wh, power in
/// W, SoC; a time a charger's unset clock gave is the arrival time.
pub(super) fn reading_of<'a>(reported_at: i64, now: i64, values: impl IntoIterator<Item = (f64, &'a str, &'a str, bool)>) -> Reading {
    let (at, _) = plausible_time(Some(reported_at), now);
    let mut r = Reading { at, ..Reading::default() };
    for (value, measurand, unit, per_phase) in values {
        let scale = if unit == "kWh" || unit == "kW" { 1000.0 } else { 1.0 };
        match measurand {
            "Energy.Active.Import.Register" if !per_phase || r.register_wh.is_none() => r.register_wh = Some((value * scale).round() as i64),
            "Power.Active.Import" if !per_phase || r.power_w.is_none() => r.power_w = Some((value * scale).round() as i64),
            "SoC" => r.soc = Some(value.clamp(0.0, 100.0).round() as u8),
            _ => {}
        }
    }
    r
}

fn reading(samples: &Samples<'_>, now: i64) -> Reading {
    let values = samples.values.iter().filter(|s| !s.signed).filter_map(|s| Some((s.value.trim().parse::<f64>().ok()?, s.measurand, s.unit, s.phase.is_some())));
    reading_of(samples.timestamp.unix(), now, values)
}

/// The readings of MeterValues or a stop's transactionData (energy
/// register in Wh, power in W, SoC); a value that is no number is skipped.
pub fn readings(samples: &[Samples<'_>], now: i64) -> Vec<Reading> {
    samples.iter().map(|s| reading(s, now)).collect()
}

#[async_trait]
impl CentralSystem for AppCtx {
    /// OCPP 1.6 Core, Firmware Management, DataTransfer and the security
    /// whitepaper's (edition 3) charger-initiated messages.
    const ANSWERED: &'static [Action] = &[
        Action::Authorize,
        Action::BootNotification,
        Action::DataTransfer,
        Action::DiagnosticsStatusNotification,
        Action::FirmwareStatusNotification,
        Action::Heartbeat,
        Action::LogStatusNotification,
        Action::MeterValues,
        Action::SecurityEventNotification,
        Action::SignCertificate,
        Action::SignedFirmwareStatusNotification,
        Action::StartTransaction,
        Action::StatusNotification,
        Action::StopTransaction,
    ];

    async fn log_status_notification(&self, pile: &Pile, req: LogStatusNotificationRequest) -> Result<LogStatusNotificationResponse, CallError> {
        station_reports::progress(self, pile, Progress::Log, req.status.as_str(), req.request_id).await?;
        Ok(LogStatusNotificationResponse {})
    }

    async fn security_event_notification(&self, pile: &Pile, req: SecurityEventNotificationRequest) -> Result<SecurityEventNotificationResponse, CallError> {
        station_reports::security_event(self, pile, req.r#type, req.timestamp.unix(), req.tech_info).await?;
        Ok(SecurityEventNotificationResponse {})
    }

    /// Signed by the product's CA; the chain goes out in CertificateSigned
    /// once the charger has the Accepted. A CSR the CA refuses is answered
    /// Rejected and kept as a security event of the pile.
    async fn sign_certificate(&self, pile: &Pile, req: SignCertificateRequest) -> Result<SignCertificateResponse, CallError> {
        let Some(certificate_chain) = station_reports::signed_chain(self, pile, &req.csr).await? else {
            return Ok(SignCertificateResponse { status: GenericStatusEnum::Rejected });
        };
        commands::send_after_reply(self, &pile.id, &CertificateSignedRequest { certificate_chain }, SIGN_CERTIFICATE_BY).await.map_err(internal)?;
        Ok(SignCertificateResponse { status: GenericStatusEnum::Accepted })
    }

    async fn signed_firmware_status_notification(&self, pile: &Pile, req: SignedFirmwareStatusNotificationRequest) -> Result<SignedFirmwareStatusNotificationResponse, CallError> {
        station_reports::progress(self, pile, Progress::Firmware, req.status.as_str(), req.request_id).await?;
        Ok(SignedFirmwareStatusNotificationResponse {})
    }

    async fn authorize(&self, _pile: &Pile, req: AuthorizeRequest) -> Result<AuthorizeResponse, CallError> {
        let info = cards::authorize(self, &req.id_tag).await.map_err(internal)?;
        Ok(AuthorizeResponse { id_tag_info: id_tag_info(&info) })
    }

    async fn boot_notification(&self, pile: &Pile, req: BootNotificationRequest) -> Result<BootNotificationResponse, CallError> {
        let boot = link::BootInfo {
            vendor: req.charge_point_vendor,
            model: req.charge_point_model,
            serial_number: req.charge_point_serial_number.or(req.charge_box_serial_number),
            firmware_version: req.firmware_version,
            iccid: req.iccid,
            imsi: req.imsi,
            meter_type: req.meter_type,
            meter_serial_number: req.meter_serial_number,
            reason: None,
            at: AppCtx::now(self),
        };
        // Read again: an operator may have changed the status or the interval
        // since the charger connected.
        let pile = get_pile(self, &pile.id).await.map_err(internal)?;
        link::booted(self, &pile, &boot).await.map_err(internal)?;
        let status = match pile.registration_status {
            RegistrationStatus::Accepted => v16::RegistrationStatus::Accepted,
            RegistrationStatus::Pending => v16::RegistrationStatus::Pending,
            RegistrationStatus::Rejected => v16::RegistrationStatus::Rejected,
        };
        // The pile's interval, held within the edge's window (AWS: under API
        // Gateway's 10-minute idle limit); the offline window counts in it too.
        let ops = crate::domain::operations::current(self).await.map_err(internal)?;
        Ok(BootNotificationResponse { status, current_time: DateTime::from_unix(AppCtx::now(self)), interval: ops.told_heartbeat_secs(pile.heartbeat_interval_secs) })
    }

    async fn data_transfer(&self, _pile: &Pile, _req: DataTransferRequest) -> Result<DataTransferResponse, CallError> {
        Ok(DataTransferResponse { status: DataTransferStatus::UnknownVendorId, data: None })
    }

    async fn diagnostics_status_notification(&self, pile: &Pile, req: DiagnosticsStatusNotificationRequest) -> Result<DiagnosticsStatusNotificationResponse, CallError> {
        link::report(self, pile, "diagnosticsStatus", req.status.as_str(), AppCtx::now(self), None).await.map_err(internal)?;
        Ok(DiagnosticsStatusNotificationResponse {})
    }

    async fn firmware_status_notification(&self, pile: &Pile, req: FirmwareStatusNotificationRequest) -> Result<FirmwareStatusNotificationResponse, CallError> {
        station_reports::progress(self, pile, Progress::Firmware, req.status.as_str(), None).await?;
        Ok(FirmwareStatusNotificationResponse {})
    }

    async fn heartbeat(&self, _pile: &Pile, _req: HeartbeatRequest) -> Result<HeartbeatResponse, CallError> {
        Ok(HeartbeatResponse { current_time: DateTime::from_unix(AppCtx::now(self)) })
    }

    async fn meter_values(&self, pile: &Pile, req: MeterValuesRequest) -> Result<MeterValuesResponse, CallError> {
        let connector = connector_of(req.connector_id)?;
        let readings = readings(&meter_samples(&req.meter_value), AppCtx::now(self));
        sessions::meter(self, pile, connector, req.transaction_id, &readings).await.map_err(internal)?;
        Ok(MeterValuesResponse {})
    }

    async fn start_transaction(&self, pile: &Pile, req: StartTransactionRequest) -> Result<StartTransactionResponse, CallError> {
        let connector = connector_of(req.connector_id)?;
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
        let r = StartRequest {
            connector,
            id_tag: req.id_tag,
            meter_start: req.meter_start,
            timestamp: Some(req.timestamp.unix()),
            timestamp_text: req.timestamp.as_str().to_string(),
            reservation_id: req.reservation_id,
            charger_transaction_id: None,
        };
        let started = sessions::start(self, pile, &r).await.map_err(internal)?;
        Ok(StartTransactionResponse { id_tag_info: id_tag_info(&started.id_tag_info), transaction_id: started.transaction_id })
    }

    async fn status_notification(&self, pile: &Pile, req: StatusNotificationRequest) -> Result<StatusNotificationResponse, CallError> {
        let connector = connector_of(req.connector_id)?;
        let (at, _) = plausible_time(req.timestamp.as_ref().map(DateTime::unix), AppCtx::now(self));
        let r = StatusReport { connector, status: req.status.as_str().to_string(), error_code: req.error_code.as_str().to_string(), at, keeps_session_state: false };
        status::apply(self, pile, &r).await.map_err(internal)?;
        Ok(StatusNotificationResponse {})
    }

    /// Always confirmed: what is wrong is recorded on the order instead. A
    /// replaced idTag (past its 20 characters) is no card: answered Invalid.
    async fn stop_transaction(&self, pile: &Pile, req: StopTransactionRequest, replaced: &[Violation]) -> Result<StopTransactionResponse, CallError> {
        let was_replaced = |field: &str| replaced.iter().any(|v| v.top_field() == Some(field));
        let now = AppCtx::now(self);
        let r = StopRequest {
            transaction_id: req.transaction_id,
            meter_stop: (!was_replaced("meterStop")).then_some(req.meter_stop),
            timestamp: Some(req.timestamp.unix()),
            reason: req.reason.as_ref().map(|r| r.as_str().to_string()),
            readings: readings(&transaction_samples(req.transaction_data.as_deref().unwrap_or_default()), now),
        };
        if !replaced.is_empty() {
            let fields: Vec<String> = replaced.iter().map(Violation::field).collect();
            tracing::info!(pile = %pile.code, transaction = r.transaction_id, replaced = %fields.join(", "), "StopTransaction read with replacements");
        }
        match sessions::stop(self, pile, &r).await.map_err(internal)? {
            Stopped::Unknown => tracing::warn!(pile = %pile.code, transaction = r.transaction_id, "StopTransaction of an unknown transaction"),
            Stopped::Repeated { order_no, problem } => tracing::info!(pile = %pile.code, order = %order_no, problem, "StopTransaction repeated"),
            Stopped::Closed { .. } => {}
        }
        match req.id_tag {
            _ if was_replaced("idTag") => Ok(StopTransactionResponse { id_tag_info: Some(invalid()) }),
            Some(tag) if tag.chars().count() > ID_TAG => Ok(StopTransactionResponse { id_tag_info: Some(invalid()) }),
            Some(tag) => {
                let info = cards::authorize(self, &tag).await.map_err(internal)?;
                Ok(StopTransactionResponse { id_tag_info: Some(id_tag_info(&info)) })
            }
            None => Ok(StopTransactionResponse { id_tag_info: None }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ocpp::schema::{parse, Mode};
    use serde_json::json;

    #[test]
    fn meter_readings_default_to_the_energy_register_in_wh() {
        let req: MeterValuesRequest = parse(
            &json!({"connectorId": 1, "meterValue": [
                {"timestamp": "2025-03-10T08:00:00Z", "sampledValue": [{"value": "1200"}]},
                {"timestamp": "2025-03-10T08:01:00.5Z", "sampledValue": [
                    {"value": "1.5", "unit": "kWh", "measurand": "Energy.Active.Import.Register", "context": "Sample.Periodic"},
                    {"value": "7.2", "unit": "kW", "measurand": "Power.Active.Import"},
                    {"value": "55", "measurand": "SoC", "unit": "Percent"},
                    {"value": "x"}
                ]},
                {"timestamp": "1970-01-01T00:00:00Z", "sampledValue": [{"value": "1600", "context": "Sample.Clock"}]}
            ]}),
            Mode::Charger,
        )
        .expect("a MeterValues");
        let now = 1_800_000_000;
        let r = readings(&meter_samples(&req.meter_value), now);
        assert_eq!(r[0], Reading { at: 1_741_593_600, register_wh: Some(1200), power_w: None, soc: None });
        assert_eq!(r[1], Reading { at: 1_741_593_660, register_wh: Some(1500), power_w: Some(7200), soc: Some(55) });
        assert_eq!(r[2].at, now, "a 1970 sample is recorded at arrival");
    }

    #[test]
    fn cards_answer_as_id_tag_info() {
        let info = CardAnswer { status: CardStatus::Blocked, expiry_date: Some(1_741_593_600), parent_id_tag: Some("GROUP".into()) };
        assert_eq!(serde_json::to_value(id_tag_info(&info)).unwrap(), json!({"status": "Blocked", "expiryDate": "2025-03-10T08:00:00Z", "parentIdTag": "GROUP"}));
    }
}
