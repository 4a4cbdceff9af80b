//! The simulator's OCPP 2.0.1 charging station (subprotocol `ocpp2.0.1`),
//! through the protocol layer's 2.0.1 types (`ocpp::v201`). Its EVSEs are
//! numbered 1..n with one connector each. It boots (reason PowerUp, or
//! RemoteReset after a reset), reports each EVSE's status, heartbeats, and
//! runs its transactions as 2.0.1 does: the station names them, Authorize
//! then TransactionEvent Started (the idToken, the EVSE, the register at
//! Transaction.Begin), Updated every meter interval (the energy register
//! in Wh and the power), Ended (the register at Transaction.End), seqNo
//! counting each transaction's events from 0. It answers the CSMS's calls:
//! RequestStart/StopTransaction start or stop a transaction, Reset,
//! UnlockConnector, ChangeAvailability, TriggerMessage, GetVariables and
//! SetVariables on a small device model (GetBaseReport reports it),
//! SetNetworkProfile (kept per slot), a reset of one EVSE, ClearCache and
//! DataTransfer; what it does not do gets its schema's
//! rejected answer (ReserveNow, charging profiles, firmware, logs, the
//! local list, display messages, certificates), anything else a
//! NotSupported CALLERROR.

use std::collections::VecDeque;

use ocpp::frame::{CallError, ErrorCode};
use ocpp::schema::DateTime;
use ocpp::v201::{self as m, Action};
use ocpp::{Sender, Version};
use serde_json::Value;

use super::{now, strict, Base, Flow, Interval, Link, Station};

/// A transaction as the station knows it: the id it gave it and the
/// number of its next event.
pub(super) struct Tx {
    id: String,
    seq: i64,
}

/// What the CSMS asked for, done after answering it.
enum Pending {
    Start { evse: usize, token: m::IdToken, remote_start_id: i64 },
    Stop(String),
    /// StatusNotification of one EVSE (index) or of all.
    Status(Option<usize>),
    Trigger(m::MessageTriggerEnum, Option<usize>),
    Report(i64, m::ReportBaseEnum),
    /// One EVSE reset (index): its transaction ends, it goes unavailable
    /// and comes back; OnIdle waits until that EVSE's transaction ends.
    ResetEvse(usize, m::ResetEnum),
}

/// One variable of the station's device model.
struct Var {
    component: &'static str,
    variable: &'static str,
    value: String,
    mutability: m::MutabilityEnum,
}

pub(super) struct Station201 {
    base: Base<Tx>,
    pending: VecDeque<Pending>,
    /// A reset the CSMS asked for: now (Immediate) or once no transaction runs (OnIdle).
    reset: Option<m::ResetEnum>,
    boot_reason: m::BootReasonEnum,
    variables: Vec<Var>,
    /// Connection profiles by slot (SetNetworkProfile): kept, never used
    /// (the simulator stays on the address it was started with).
    network_profiles: std::collections::BTreeMap<i64, m::NetworkConnectionProfile>,
}

/// Slots of connection profiles the simulated station has (its
/// NetworkConfigurationPriority could list them).
const NETWORK_SLOTS: std::ops::RangeInclusive<i64> = 1..=3;

impl Station201 {
    pub(super) fn new(base: Base<Tx>) -> Station201 {
        let var = |component, variable, value: String, mutability| Var { component, variable, value, mutability };
        use m::MutabilityEnum::{ReadOnly, ReadWrite, WriteOnly};
        let variables = vec![
            var("ChargingStation", "Model", MODEL.into(), ReadOnly),
            var("ChargingStation", "VendorName", VENDOR.into(), ReadOnly),
            var("DeviceDataCtrlr", "ItemsPerMessage", "20".into(), ReadOnly),
            // The intervals' values are the base's (`value`): the loop reads them there.
            var("OCPPCommCtrlr", "HeartbeatInterval", String::new(), ReadWrite),
            var("SampledDataCtrlr", "TxUpdatedInterval", String::new(), ReadWrite),
            var("SampledDataCtrlr", "TxUpdatedMeasurands", "Energy.Active.Import.Register,Power.Active.Import,SoC".into(), ReadWrite),
            var("AuthCtrlr", "AuthorizeRemoteStart", "false".into(), ReadWrite),
            var("TxCtrlr", "EVConnectionTimeOut", "60".into(), ReadWrite),
            var("SecurityCtrlr", "SecurityProfile", "1".into(), ReadOnly),
            // The simulator keeps the password it was started with: it
            // refuses a new one (it could not connect after a restart).
            var("SecurityCtrlr", "BasicAuthPassword", String::new(), WriteOnly),
        ];
        Station201 { base, pending: VecDeque::new(), reset: None, boot_reason: m::BootReasonEnum::PowerUp, variables, network_profiles: Default::default() }
    }

    async fn call<R: m::Request>(&mut self, link: &mut Link, request: R) -> Result<R::Response, String> {
        let payload = serde_json::to_value(&request).map_err(|e| e.to_string())?;
        link.call(self, R::ACTION.name(), payload).await
    }

    /// Reads the CSMS's request strictly and answers it with `handle`.
    fn serve<R: m::Request>(&mut self, payload: &Value, handle: impl FnOnce(&mut Station201, R) -> R::Response) -> Result<Value, CallError> {
        let request = strict::<R>(payload)?;
        serde_json::to_value(handle(self, request)).map_err(|_| CallError::internal())
    }

    fn evses(&self) -> usize {
        self.base.connectors.len()
    }

    /// The EVSE index an `evseId` names, if the station has it.
    fn evse(&self, id: i64) -> Option<usize> {
        usize::try_from(id).ok().filter(|n| *n >= 1 && *n <= self.evses()).map(|n| n - 1)
    }

    fn connector_status(&self, i: usize) -> m::ConnectorStatusEnum {
        match &self.base.connectors[i] {
            c if c.session.is_some() => m::ConnectorStatusEnum::Occupied,
            c if !c.available => m::ConnectorStatusEnum::Unavailable,
            _ => m::ConnectorStatusEnum::Available,
        }
    }

    async fn status(&mut self, link: &mut Link, i: usize) -> Result<(), String> {
        let connector_status = self.connector_status(i);
        let r = m::StatusNotificationRequest { custom_data: None, timestamp: DateTime::from_unix(now()), connector_status, evse_id: i as i64 + 1, connector_id: 1 };
        self.call(link, r).await.map(|_| ())
    }

    async fn statuses(&mut self, link: &mut Link, which: Option<usize>) -> Result<(), String> {
        let all: Vec<usize> = match which {
            Some(i) => vec![i],
            None => (0..self.evses()).collect(),
        };
        for i in all {
            self.status(link, i).await?;
        }
        Ok(())
    }

    fn boot_request(&self) -> m::BootNotificationRequest {
        m::BootNotificationRequest {
            custom_data: None,
            charging_station: m::ChargingStation { custom_data: None, serial_number: None, model: MODEL.into(), modem: None, vendor_name: VENDOR.into(), firmware_version: Some("2.0.1-sim".into()) },
            reason: self.boot_reason.clone(),
        }
    }

    /// The id and seqNo of the next event of EVSE `i`'s transaction.
    fn next_event(&mut self, i: usize) -> Option<(String, i64)> {
        let s = self.base.connectors[i].session.as_mut()?;
        let seq = s.tx.seq;
        s.tx.seq += 1;
        Some((s.tx.id.clone(), seq))
    }

    /// EVSE `i` starts a transaction for `token` (authorized already, or
    /// started by the CSMS): Occupied, then TransactionEvent Started. A
    /// token the CSMS refuses in its answer ends it at once.
    async fn begin(&mut self, link: &mut Link, i: usize, token: m::IdToken, trigger: m::TriggerReasonEnum, remote_start_id: Option<i64>) -> Result<(), String> {
        let id = uuid::Uuid::now_v7().to_string();
        self.base.begin(i, Tx { id: id.clone(), seq: 0 });
        self.status(link, i).await?;
        let Some((_, seq_no)) = self.next_event(i) else { return Ok(()) };
        let register = self.base.connectors[i].register_wh;
        let info = m::Transaction { remote_start_id, ..transaction(id, Some(m::ChargingStateEnum::Charging)) };
        let r = m::TransactionEventRequest {
            evse: Some(m::EVSE { custom_data: None, id: i as i64 + 1, connector_id: Some(1) }),
            id_token: Some(token),
            ..event(m::TransactionEventEnum::Started, trigger, seq_no, info, vec![sample(register.round(), m::MeasurandEnum::EnergyActiveImportRegister, "Wh", m::ReadingContextEnum::TransactionBegin)])
        };
        let answer = self.call(link, r).await?;
        if answer.id_token_info.is_some_and(|t| t.status != m::AuthorizationStatusEnum::Accepted) {
            self.stop(link, i, m::TriggerReasonEnum::Deauthorized, m::ReasonEnum::DeAuthorized).await?;
        }
        Ok(())
    }

    /// EVSE `i`'s transaction ends: TransactionEvent Ended, then its status.
    async fn stop(&mut self, link: &mut Link, i: usize, trigger: m::TriggerReasonEnum, reason: m::ReasonEnum) -> Result<(), String> {
        let Some(session) = self.base.finish(i) else { return Ok(()) };
        let register = self.base.connectors[i].register_wh;
        let info = m::Transaction { stopped_reason: Some(reason), ..transaction(session.tx.id, Some(m::ChargingStateEnum::EVConnected)) };
        let r = event(m::TransactionEventEnum::Ended, trigger, session.tx.seq, info, vec![sample(register.round(), m::MeasurandEnum::EnergyActiveImportRegister, "Wh", m::ReadingContextEnum::TransactionEnd)]);
        let ended = self.call(link, r).await?;
        tracing::debug!(total_cost = ?ended.total_cost, "2.0.1 transaction ended");
        self.status(link, i).await
    }

    /// One TransactionEvent Updated of EVSE `i`'s transaction, its meter a
    /// further interval on (or as it is, for a trigger).
    async fn updated(&mut self, link: &mut Link, i: usize, trigger: m::TriggerReasonEnum) -> Result<(), String> {
        let reading = match trigger {
            m::TriggerReasonEnum::MeterValuePeriodic => self.base.sample(i),
            _ => self.reading(i),
        };
        let Some((register, power, soc)) = reading else { return Ok(()) };
        let Some((id, seq_no)) = self.next_event(i) else { return Ok(()) };
        let context = if trigger == m::TriggerReasonEnum::Trigger { m::ReadingContextEnum::Trigger } else { m::ReadingContextEnum::SamplePeriodic };
        let r = event(m::TransactionEventEnum::Updated, trigger, seq_no, transaction(id, Some(m::ChargingStateEnum::Charging)), readings(register, power, soc, context));
        self.call(link, r).await.map(|_| ())
    }

    /// EVSE `i`'s meter now, without advancing it.
    fn reading(&self, i: usize) -> Option<(f64, f64, f64)> {
        let c = &self.base.connectors[i];
        c.session.as_ref().map(|s| (c.register_wh, s.power_w, s.soc))
    }

    async fn triggered(&mut self, link: &mut Link, message: m::MessageTriggerEnum, evse: Option<usize>) -> Result<(), String> {
        use m::MessageTriggerEnum as T;
        let which: Vec<usize> = match evse {
            Some(i) => vec![i],
            None => (0..self.evses()).collect(),
        };
        match message {
            T::BootNotification => {
                let r = m::BootNotificationRequest { reason: m::BootReasonEnum::Triggered, ..self.boot_request() };
                self.call(link, r).await.map(|_| ())
            }
            T::Heartbeat => self.call(link, m::HeartbeatRequest { custom_data: None }).await.map(|_| ()),
            T::StatusNotification => self.statuses(link, evse).await,
            T::TransactionEvent => {
                for i in which {
                    self.updated(link, i, m::TriggerReasonEnum::Trigger).await?;
                }
                Ok(())
            }
            T::MeterValues => {
                for i in which {
                    let (register, power, soc) = self.reading(i).unwrap_or((self.base.connectors[i].register_wh, 0.0, 0.0));
                    let values = readings(register, power, soc, m::ReadingContextEnum::Trigger);
                    let r = m::MeterValuesRequest { custom_data: None, evse_id: i as i64 + 1, meter_value: vec![meter_value(values)] };
                    self.call(link, r).await?;
                }
                Ok(())
            }
            T::FirmwareStatusNotification => {
                self.call(link, m::FirmwareStatusNotificationRequest { custom_data: None, status: m::FirmwareStatusEnum::Idle, request_id: None }).await.map(|_| ())
            }
            T::LogStatusNotification => self.call(link, m::LogStatusNotificationRequest { custom_data: None, status: m::UploadLogStatusEnum::Idle, request_id: None }).await.map(|_| ()),
            // Answered NotImplemented or Rejected: nothing to send.
            _ => Ok(()),
        }
    }

    /// The device model in one NotifyReport (what `base` asks for).
    async fn report(&mut self, link: &mut Link, request_id: i64, base: m::ReportBaseEnum) -> Result<(), String> {
        let configuration = base == m::ReportBaseEnum::ConfigurationInventory;
        let data: Vec<m::ReportData> = self
            .variables
            .iter()
            .enumerate()
            .filter(|(_, v)| !configuration || v.mutability != m::MutabilityEnum::ReadOnly)
            .map(|(i, v)| m::ReportData {
                custom_data: None,
                component: component(v.component),
                variable: variable(v.variable),
                variable_attribute: vec![m::VariableAttribute {
                    custom_data: None,
                    r#type: Some(m::AttributeEnum::Actual),
                    value: (v.mutability != m::MutabilityEnum::WriteOnly).then(|| self.value(i)),
                    mutability: Some(v.mutability.clone()),
                    persistent: Some(true),
                    constant: Some(v.mutability == m::MutabilityEnum::ReadOnly),
                }],
                variable_characteristics: None,
            })
            .collect();
        let r = m::NotifyReportRequest { custom_data: None, request_id, generated_at: DateTime::from_unix(now()), report_data: Some(data), tbc: Some(false), seq_no: 0 };
        self.call(link, r).await.map(|_| ())
    }

    // The CSMS's calls.

    fn request_start(&mut self, r: m::RequestStartTransactionRequest) -> m::RequestStartTransactionResponse {
        let evse = match r.evse_id {
            Some(id) => self.evse(id),
            None => self.base.connectors.iter().position(|c| c.session.is_none() && c.available),
        };
        let free = evse.filter(|i| {
            let c = &self.base.connectors[*i];
            c.session.is_none() && c.available && !self.pending.iter().any(|p| matches!(p, Pending::Start { evse, .. } if evse == i))
        });
        if let Some(i) = free {
            self.pending.push_back(Pending::Start { evse: i, token: r.id_token, remote_start_id: r.remote_start_id });
        }
        let status = if free.is_some() { m::RequestStartStopStatusEnum::Accepted } else { m::RequestStartStopStatusEnum::Rejected };
        m::RequestStartTransactionResponse { custom_data: None, status, status_info: None, transaction_id: None }
    }

    fn request_stop(&mut self, r: m::RequestStopTransactionRequest) -> m::RequestStopTransactionResponse {
        let running = self.base.with_tx(|tx| tx.id == r.transaction_id).is_some();
        if running {
            self.pending.push_back(Pending::Stop(r.transaction_id));
        }
        let status = if running { m::RequestStartStopStatusEnum::Accepted } else { m::RequestStartStopStatusEnum::Rejected };
        m::RequestStopTransactionResponse { custom_data: None, status, status_info: None }
    }

    fn reset(&mut self, r: m::ResetRequest) -> m::ResetResponse {
        if let Some(id) = r.evse_id {
            // One EVSE (B11.FR.08): an EVSE the station lacks is Rejected.
            let status = match (self.evse(id), &r.r#type) {
                (None, _) | (_, m::ResetEnum::Unlisted(_)) => m::ResetStatusEnum::Rejected,
                (Some(i), kind) => {
                    self.pending.push_back(Pending::ResetEvse(i, kind.clone()));
                    match kind {
                        m::ResetEnum::OnIdle if self.base.connectors[i].session.is_some() => m::ResetStatusEnum::Scheduled,
                        _ => m::ResetStatusEnum::Accepted,
                    }
                }
            };
            return m::ResetResponse { custom_data: None, status, status_info: None };
        }
        let status = match &r.r#type {
            m::ResetEnum::Unlisted(_) => m::ResetStatusEnum::Rejected,
            m::ResetEnum::OnIdle if self.base.charging() => m::ResetStatusEnum::Scheduled,
            _ => m::ResetStatusEnum::Accepted,
        };
        if status != m::ResetStatusEnum::Rejected {
            self.reset = Some(r.r#type);
        }
        m::ResetResponse { custom_data: None, status, status_info: None }
    }

    /// An EVSE reset now: its transaction ends (ImmediateReset), it is
    /// unavailable while it restarts and available again.
    async fn reset_evse(&mut self, link: &mut Link, i: usize) -> Result<(), String> {
        self.stop(link, i, m::TriggerReasonEnum::ResetCommand, m::ReasonEnum::ImmediateReset).await?;
        let was = self.base.connectors[i].available;
        self.base.connectors[i].available = false;
        self.status(link, i).await?;
        self.base.connectors[i].available = was;
        self.status(link, i).await
    }

    /// SetNetworkProfile (B09): a slot the station has takes the profile.
    fn set_network_profile(&mut self, r: m::SetNetworkProfileRequest) -> m::SetNetworkProfileResponse {
        let status = if NETWORK_SLOTS.contains(&r.configuration_slot) {
            self.network_profiles.insert(r.configuration_slot, r.connection_data);
            m::SetNetworkProfileStatusEnum::Accepted
        } else {
            m::SetNetworkProfileStatusEnum::Rejected
        };
        m::SetNetworkProfileResponse { custom_data: None, status, status_info: None }
    }

    fn unlock(&mut self, r: m::UnlockConnectorRequest) -> m::UnlockConnectorResponse {
        let status = match self.evse(r.evse_id).filter(|_| r.connector_id == 1) {
            None => m::UnlockStatusEnum::UnknownConnector,
            Some(i) if self.base.connectors[i].session.is_some() => m::UnlockStatusEnum::OngoingAuthorizedTransaction,
            Some(_) => m::UnlockStatusEnum::Unlocked,
        };
        m::UnlockConnectorResponse { custom_data: None, status, status_info: None }
    }

    fn change_availability(&mut self, r: m::ChangeAvailabilityRequest) -> m::ChangeAvailabilityResponse {
        let answer = |status| m::ChangeAvailabilityResponse { custom_data: None, status, status_info: None };
        let operative = match r.operational_status {
            m::OperationalStatusEnum::Operative => true,
            m::OperationalStatusEnum::Inoperative => false,
            m::OperationalStatusEnum::Unlisted(_) => return answer(m::ChangeAvailabilityStatusEnum::Rejected),
        };
        let which: Option<usize> = match &r.evse {
            None => None,
            Some(e) if e.id == 0 => None,
            Some(e) => match self.evse(e.id).filter(|_| e.connector_id.is_none_or(|c| c == 1)) {
                Some(i) => Some(i),
                None => return answer(m::ChangeAvailabilityStatusEnum::Rejected),
            },
        };
        let mut busy = false;
        for (i, c) in self.base.connectors.iter_mut().enumerate() {
            if which.is_none_or(|w| w == i) {
                c.available = operative;
                busy |= c.session.is_some();
            }
        }
        self.pending.push_back(Pending::Status(which));
        // Inoperative while charging: once the transaction ends.
        answer(if busy && !operative { m::ChangeAvailabilityStatusEnum::Scheduled } else { m::ChangeAvailabilityStatusEnum::Accepted })
    }

    fn trigger(&mut self, r: m::TriggerMessageRequest) -> m::TriggerMessageResponse {
        use m::MessageTriggerEnum as T;
        let answer = |status| m::TriggerMessageResponse { custom_data: None, status, status_info: None };
        let evse = match &r.evse {
            None => None,
            Some(e) => match self.evse(e.id) {
                Some(i) => Some(i),
                None => return answer(m::TriggerMessageStatusEnum::Rejected),
            },
        };
        let status = match r.requested_message {
            T::BootNotification | T::Heartbeat | T::StatusNotification | T::MeterValues | T::TransactionEvent | T::FirmwareStatusNotification | T::LogStatusNotification => {
                self.pending.push_back(Pending::Trigger(r.requested_message, evse));
                m::TriggerMessageStatusEnum::Accepted
            }
            // No key pair to sign with.
            T::SignChargingStationCertificate | T::SignV2GCertificate | T::SignCombinedCertificate => m::TriggerMessageStatusEnum::Rejected,
            _ => m::TriggerMessageStatusEnum::NotImplemented,
        };
        answer(status)
    }

    /// Which interval of the base a variable is, if it is one.
    fn interval(v: &Var) -> Option<Interval> {
        match (v.component, v.variable) {
            ("OCPPCommCtrlr", "HeartbeatInterval") => Some(Interval::Heartbeat),
            ("SampledDataCtrlr", "TxUpdatedInterval") => Some(Interval::Meter),
            _ => None,
        }
    }

    /// Variable `i`'s value now.
    fn value(&self, i: usize) -> String {
        let v = &self.variables[i];
        match Station201::interval(v) {
            Some(Interval::Heartbeat) => self.base.heartbeat_secs().to_string(),
            Some(Interval::Meter) => self.base.meter_secs.to_string(),
            None => v.value.clone(),
        }
    }

    fn find(&self, component: &m::Component, variable: &m::Variable) -> Result<usize, m::GetVariableStatusEnum> {
        if !self.variables.iter().any(|v| v.component == component.name) || component.evse.is_some() {
            return Err(m::GetVariableStatusEnum::UnknownComponent);
        }
        self.variables.iter().position(|v| v.component == component.name && v.variable == variable.name).ok_or(m::GetVariableStatusEnum::UnknownVariable)
    }

    fn get_variables(&mut self, r: m::GetVariablesRequest) -> m::GetVariablesResponse {
        let results = r
            .get_variable_data
            .into_iter()
            .map(|d| {
                let (status, value) = match self.find(&d.component, &d.variable) {
                    Err(status) => (status, None),
                    Ok(_) if d.attribute_type.as_ref().is_some_and(|t| *t != m::AttributeEnum::Actual) => (m::GetVariableStatusEnum::NotSupportedAttributeType, None),
                    // A write-only variable (the password) is never read out.
                    Ok(i) if self.variables[i].mutability == m::MutabilityEnum::WriteOnly => (m::GetVariableStatusEnum::Rejected, None),
                    Ok(i) => (m::GetVariableStatusEnum::Accepted, Some(self.value(i))),
                };
                m::GetVariableResult { custom_data: None, attribute_status_info: None, attribute_status: status, attribute_type: d.attribute_type, attribute_value: value, component: d.component, variable: d.variable }
            })
            .collect();
        m::GetVariablesResponse { custom_data: None, get_variable_result: results }
    }

    fn set_variables(&mut self, r: m::SetVariablesRequest) -> m::SetVariablesResponse {
        use m::SetVariableStatusEnum as S;
        let results = r
            .set_variable_data
            .into_iter()
            .map(|d| {
                let status = match self.find(&d.component, &d.variable) {
                    Err(m::GetVariableStatusEnum::UnknownComponent) => S::UnknownComponent,
                    Err(_) => S::UnknownVariable,
                    Ok(_) if d.attribute_type.as_ref().is_some_and(|t| *t != m::AttributeEnum::Actual) => S::NotSupportedAttributeType,
                    Ok(i) => {
                        let v = &mut self.variables[i];
                        let numeric = v.variable.ends_with("Interval") || v.variable.ends_with("TimeOut");
                        match (v.mutability.clone(), Station201::interval(v)) {
                            // The loop follows the new interval from its last beat or report.
                            (m::MutabilityEnum::ReadWrite, Some(which)) if self.base.set_interval(which, &d.attribute_value) => S::Accepted,
                            (m::MutabilityEnum::ReadWrite, None) if !numeric || d.attribute_value.parse::<u32>().is_ok_and(|n| n > 0) => {
                                v.value = d.attribute_value.clone();
                                S::Accepted
                            }
                            _ => S::Rejected,
                        }
                    }
                };
                m::SetVariableResult { custom_data: None, attribute_type: d.attribute_type, attribute_status: status, attribute_status_info: None, component: d.component, variable: d.variable }
            })
            .collect();
        m::SetVariablesResponse { custom_data: None, set_variable_result: results }
    }
}

const MODEL: &str = "SIM-201";
const VENDOR: &str = "SimCharge";

fn component(name: &str) -> m::Component {
    m::Component { custom_data: None, evse: None, name: name.into(), instance: None }
}

fn variable(name: &str) -> m::Variable {
    m::Variable { custom_data: None, name: name.into(), instance: None }
}

fn transaction(id: String, state: Option<m::ChargingStateEnum>) -> m::Transaction {
    m::Transaction { custom_data: None, transaction_id: id, charging_state: state, time_spent_charging: None, stopped_reason: None, remote_start_id: None }
}

fn sample(value: f64, measurand: m::MeasurandEnum, unit: &str, context: m::ReadingContextEnum) -> m::SampledValue {
    let unit = m::UnitOfMeasure { custom_data: None, unit: Some(unit.into()), multiplier: None };
    m::SampledValue { custom_data: None, value, context: Some(context), measurand: Some(measurand), phase: None, location: None, signed_meter_value: None, unit_of_measure: Some(unit) }
}

/// The energy register (Wh), the power (W) and the car's charge (%).
fn readings(register_wh: f64, power_w: f64, soc: f64, context: m::ReadingContextEnum) -> Vec<m::SampledValue> {
    vec![
        sample(register_wh.round(), m::MeasurandEnum::EnergyActiveImportRegister, "Wh", context.clone()),
        sample(power_w.round(), m::MeasurandEnum::PowerActiveImport, "W", context.clone()),
        sample(soc.round(), m::MeasurandEnum::SoC, "Percent", context),
    ]
}

fn meter_value(values: Vec<m::SampledValue>) -> m::MeterValue {
    m::MeterValue { custom_data: None, sampled_value: values, timestamp: DateTime::from_unix(now()) }
}

fn event(kind: m::TransactionEventEnum, trigger: m::TriggerReasonEnum, seq_no: i64, info: m::Transaction, values: Vec<m::SampledValue>) -> m::TransactionEventRequest {
    m::TransactionEventRequest {
        custom_data: None,
        event_type: kind,
        meter_value: Some(vec![meter_value(values)]),
        timestamp: DateTime::from_unix(now()),
        trigger_reason: trigger,
        seq_no,
        offline: None,
        number_of_phases_used: None,
        cable_max_current: None,
        reservation_id: None,
        transaction_info: info,
        evse: None,
        id_token: None,
    }
}

/// Why the simulator refuses what it does not do (a StatusInfo reasonCode, CiString20).
fn not_simulated() -> Option<m::StatusInfo> {
    Some(m::StatusInfo { custom_data: None, reason_code: "NotSimulated".into(), additional_info: Some("the charge-point simulator does not do this".into()) })
}

/// The schema's refusing answer to a call the simulator does not do: its
/// request read strictly, then `$answer` with `status_info` and any
/// optional fields named after it set to None.
macro_rules! refuse {
    ($st:expr, $payload:expr, $request:ty, $answer:ident { status: $status:expr $(, $none:ident)* }) => {
        $st.serve($payload, |_, _: $request| m::$answer { custom_data: None, status: $status, status_info: not_simulated() $(, $none: None)* })
    };
}

#[async_trait::async_trait]
impl Station for Station201 {
    type Tx = Tx;
    const VERSION: Version = Version::V201;

    fn base(&mut self) -> &mut Base<Tx> {
        &mut self.base
    }

    fn answer(&mut self, action: &str, payload: &Value) -> Result<Value, CallError> {
        let Some(a) = Action::from_name(action) else {
            return Err(CallError::new(ErrorCode::NotImplemented, format!("unknown action {action}")));
        };
        match a {
            Action::RequestStartTransaction => self.serve(payload, Station201::request_start),
            Action::RequestStopTransaction => self.serve(payload, Station201::request_stop),
            Action::Reset => self.serve(payload, Station201::reset),
            Action::SetNetworkProfile => self.serve(payload, Station201::set_network_profile),
            Action::UnlockConnector => self.serve(payload, Station201::unlock),
            Action::ChangeAvailability => self.serve(payload, Station201::change_availability),
            Action::TriggerMessage => self.serve(payload, Station201::trigger),
            Action::GetVariables => self.serve(payload, Station201::get_variables),
            Action::SetVariables => self.serve(payload, Station201::set_variables),
            Action::GetBaseReport => self.serve(payload, |st, r: m::GetBaseReportRequest| {
                let status = match r.report_base {
                    m::ReportBaseEnum::Unlisted(_) => m::GenericDeviceModelStatusEnum::NotSupported,
                    base => {
                        st.pending.push_back(Pending::Report(r.request_id, base));
                        m::GenericDeviceModelStatusEnum::Accepted
                    }
                };
                m::GetBaseReportResponse { custom_data: None, status, status_info: None }
            }),
            Action::ClearCache => self.serve(payload, |_, _: m::ClearCacheRequest| m::ClearCacheResponse { custom_data: None, status: m::ClearCacheStatusEnum::Accepted, status_info: None }),
            // The running cost the CSMS sends while a transaction charges: taken (a real station shows it).
            Action::CostUpdated => self.serve(payload, |_, _: m::CostUpdatedRequest| m::CostUpdatedResponse { custom_data: None }),
            Action::DataTransfer => refuse!(self, payload, m::DataTransferRequest, DataTransferResponse { status: m::DataTransferStatusEnum::UnknownVendorId, data }),
            Action::GetLocalListVersion => self.serve(payload, |_, _: m::GetLocalListVersionRequest| m::GetLocalListVersionResponse { custom_data: None, version_number: 0 }),
            Action::SendLocalList => refuse!(self, payload, m::SendLocalListRequest, SendLocalListResponse { status: m::SendLocalListStatusEnum::Failed }),
            Action::ReserveNow => refuse!(self, payload, m::ReserveNowRequest, ReserveNowResponse { status: m::ReserveNowStatusEnum::Rejected }),
            Action::CancelReservation => refuse!(self, payload, m::CancelReservationRequest, CancelReservationResponse { status: m::CancelReservationStatusEnum::Rejected }),
            Action::SetChargingProfile => refuse!(self, payload, m::SetChargingProfileRequest, SetChargingProfileResponse { status: m::ChargingProfileStatusEnum::Rejected }),
            Action::ClearChargingProfile => refuse!(self, payload, m::ClearChargingProfileRequest, ClearChargingProfileResponse { status: m::ClearChargingProfileStatusEnum::Unknown }),
            Action::GetCompositeSchedule => refuse!(self, payload, m::GetCompositeScheduleRequest, GetCompositeScheduleResponse { status: m::GenericStatusEnum::Rejected, schedule }),
            Action::UpdateFirmware => refuse!(self, payload, m::UpdateFirmwareRequest, UpdateFirmwareResponse { status: m::UpdateFirmwareStatusEnum::Rejected }),
            Action::GetLog => refuse!(self, payload, m::GetLogRequest, GetLogResponse { status: m::LogStatusEnum::Rejected, filename }),
            Action::SetDisplayMessage => refuse!(self, payload, m::SetDisplayMessageRequest, SetDisplayMessageResponse { status: m::DisplayMessageStatusEnum::Rejected }),
            Action::GetDisplayMessages => refuse!(self, payload, m::GetDisplayMessagesRequest, GetDisplayMessagesResponse { status: m::GetDisplayMessagesStatusEnum::Unknown }),
            Action::ClearDisplayMessage => refuse!(self, payload, m::ClearDisplayMessageRequest, ClearDisplayMessageResponse { status: m::ClearMessageStatusEnum::Unknown }),
            Action::InstallCertificate => refuse!(self, payload, m::InstallCertificateRequest, InstallCertificateResponse { status: m::InstallCertificateStatusEnum::Rejected }),
            Action::GetInstalledCertificateIds => {
                refuse!(self, payload, m::GetInstalledCertificateIdsRequest, GetInstalledCertificateIdsResponse { status: m::GetInstalledCertificateStatusEnum::NotFound, certificate_hash_data_chain })
            }
            Action::DeleteCertificate => refuse!(self, payload, m::DeleteCertificateRequest, DeleteCertificateResponse { status: m::DeleteCertificateStatusEnum::NotFound }),
            Action::CertificateSigned => refuse!(self, payload, m::CertificateSignedRequest, CertificateSignedResponse { status: m::CertificateSignedStatusEnum::Rejected }),
            a if a.sender() == Sender::Charger => Err(CallError::new(ErrorCode::NotSupported, format!("{a} is sent by a charging station, not by the CSMS"))),
            a => Err(CallError::new(ErrorCode::NotSupported, format!("{a} is not supported by this charging station"))),
        }
    }

    async fn boot(&mut self, link: &mut Link) -> Result<u64, String> {
        let interval = loop {
            let boot = self.call(link, self.boot_request()).await?;
            let interval = u64::try_from(boot.interval).unwrap_or(60).max(1);
            if boot.status == m::RegistrationStatusEnum::Accepted {
                break interval;
            }
            tokio::time::sleep(std::time::Duration::from_secs(interval)).await;
        };
        // A connection that drops later is no reboot: the next boot is a
        // power-up again unless a reset says otherwise.
        self.boot_reason = m::BootReasonEnum::PowerUp;
        self.statuses(link, None).await?;
        Ok(interval)
    }

    async fn heartbeat(&mut self, link: &mut Link) -> Result<(), String> {
        self.call(link, m::HeartbeatRequest { custom_data: None }).await.map(|_| ())
    }

    async fn work(&mut self, link: &mut Link) -> Result<Flow, String> {
        let mut later = Vec::new();
        while let Some(p) = self.pending.pop_front() {
            match p {
                Pending::Start { evse, token, remote_start_id } => {
                    if self.base.connectors[evse].session.is_none() {
                        self.begin(link, evse, token, m::TriggerReasonEnum::RemoteStart, Some(remote_start_id)).await?;
                    }
                }
                Pending::Stop(id) => {
                    if let Some(i) = self.base.with_tx(|tx| tx.id == id) {
                        self.stop(link, i, m::TriggerReasonEnum::RemoteStop, m::ReasonEnum::Remote).await?;
                    }
                }
                Pending::Status(which) => self.statuses(link, which).await?,
                Pending::Trigger(message, evse) => self.triggered(link, message, evse).await?,
                Pending::Report(request_id, base) => self.report(link, request_id, base).await?,
                Pending::ResetEvse(i, m::ResetEnum::OnIdle) if self.base.connectors[i].session.is_some() => later.push(Pending::ResetEvse(i, m::ResetEnum::OnIdle)),
                Pending::ResetEvse(i, _) => self.reset_evse(link, i).await?,
            }
        }
        // An idle reset waits for its EVSE's transaction to end.
        self.pending.extend(later);
        let restart = match &self.reset {
            Some(m::ResetEnum::Immediate) => {
                for i in 0..self.evses() {
                    self.stop(link, i, m::TriggerReasonEnum::ResetCommand, m::ReasonEnum::ImmediateReset).await?;
                }
                true
            }
            Some(_) => !self.base.charging(),
            None => false,
        };
        if restart {
            self.reset = None;
            self.boot_reason = m::BootReasonEnum::RemoteReset;
            return Ok(Flow::Restart);
        }
        Ok(Flow::Go)
    }

    async fn start(&mut self, link: &mut Link, i: usize, tag: &str) -> Result<(), String> {
        let token = m::IdToken { custom_data: None, additional_info: None, id_token: tag.into(), r#type: m::IdTokenEnum::ISO14443 };
        let auth = self.call(link, m::AuthorizeRequest { custom_data: None, id_token: token.clone(), certificate: None, iso15118_certificate_hash_data: None }).await?;
        if auth.id_token_info.status != m::AuthorizationStatusEnum::Accepted {
            self.base.later(i);
            return Ok(());
        }
        self.begin(link, i, token, m::TriggerReasonEnum::Authorized, None).await
    }

    async fn end(&mut self, link: &mut Link, i: usize) -> Result<(), String> {
        self.stop(link, i, m::TriggerReasonEnum::StopAuthorized, m::ReasonEnum::Local).await
    }

    async fn meter(&mut self, link: &mut Link) -> Result<(), String> {
        for i in 0..self.evses() {
            self.updated(link, i, m::TriggerReasonEnum::MeterValuePeriodic).await?;
        }
        Ok(())
    }
}
