//! Remote operations: staff act on a connected charger (OCPP 1.6 calls from
//! the central system). Each route checks its input (a 400 naming the field,
//! nothing queued), queues the call and answers the command at once
//! (queued / sent / offline); the page follows it with `/charger/command`
//! until the charger's answer, a CALLERROR, the 30 s timeout or offline.
//! Who may do what is the route table's permission: everyday operations
//! need write:system (Admin, Editor), the ones that change how a charger
//! works need configure:charger (Admin).

use envelope::{msg, ApiError};
use ocpp::schema::{DateTime, FromJson, Mode};
use charging::pile::OcppVersion;
use ocpp::v16::{self, Action, Request};
use ocpp::v201;
use permission::{CHARGER_CONFIGURE, SYSTEM_READ, SYSTEM_WRITE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ctx::AppCtx;
use crate::domain::assets::piles::{self, Pile};
use crate::domain::cards;
use crate::domain::chargers::certificates;
use crate::domain::chargers::commands::{self, Command};
use crate::domain::chargers::ykc_platform::calls as ykc_calls;
use crate::domain::chargers::{sessions, smart_v201};
use crate::domain::orders;
use crate::reply::Reply;
use crate::request::{field_invalid, Call};
use crate::routes::{route, Access::Permission, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): remote operations: commands, the pile's in-flight slot and queue, reservations, the message log; the pile and its link, the cards (local list, reservations), transactions, the connectors' open sessions and orders (remote stop); the pile's password (a key rotation keeps the new key's hash beside it, and its answer makes it the password); the pile's certificates (certificate calls name one of its list); a 2.0.1 station's device model (read, and its variables' values once answered).
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(&[COMMANDS_BY_PILE, COMMAND_QUEUE, RESERVATIONS_BY_PILE, CARD, CARD_LIST, CARD_COUNT, OCPP_TRANSACTION, OCPP_OPEN, ORDER, CHARGER_CERTIFICATE], &[PILE, COMMAND, COMMAND_SLOT, RESERVATION, OCPP_SEQUENCE, MESSAGE_LOG, DEVICE_MODEL])
};

pub fn routes() -> Vec<Route> {
    vec![
        route!(POST "/charger/remoteStart" => "charger_remote_start", Permission(SYSTEM_WRITE), audited, "Start charging on a connector for a card (RemoteStartTransaction, optional power limit)", remote_start, body = RemoteStartBody, data = Command; errors = &[404]),
        route!(POST "/charger/remoteStop" => "charger_remote_stop", Permission(SYSTEM_WRITE), audited, "Stop a running session (RemoteStopTransaction) by order, transaction or connector", remote_stop, body = RemoteStopBody, data = Command; errors = &[404]),
        route!(POST "/charger/unlock" => "charger_unlock", Permission(SYSTEM_WRITE), audited, "Unlock a connector (UnlockConnector)", unlock, body = ConnectorBody, data = Command; errors = &[404]),
        route!(POST "/charger/availability" => "charger_availability", Permission(SYSTEM_WRITE), audited, "Make a connector or the whole charger (connector 0) operative or inoperative (ChangeAvailability)", availability, body = AvailabilityBody, data = Command; errors = &[404]),
        route!(POST "/charger/trigger" => "charger_trigger", Permission(SYSTEM_WRITE), audited, "Ask the charger to send a message now (TriggerMessage)", trigger, body = TriggerBody, data = Command; errors = &[404]),
        route!(POST "/charger/reset" => "charger_reset", Permission(CHARGER_CONFIGURE), audited, "Reset a charger, soft or hard (Reset)", reset, body = ResetBody, data = Command; errors = &[404]),
        route!(POST "/charger/getConfiguration" => "charger_get_configuration", Permission(CHARGER_CONFIGURE), audited, "Read the charger's configuration keys (GetConfiguration)", get_configuration, body = GetConfigurationBody, data = Command; errors = &[404]),
        route!(POST "/charger/changeConfiguration" => "charger_change_configuration", Permission(CHARGER_CONFIGURE), audited, "Change a configuration key (ChangeConfiguration)", change_configuration, body = ChangeConfigurationBody, data = Command; errors = &[404]),
        route!(POST "/charger/rotateAuthorizationKey" => "charger_rotate_authorization_key", Permission(CHARGER_CONFIGURE), audited, "Give the charger a new password over OCPP (ChangeConfiguration AuthorizationKey): generated or typed, stored hashed, in force once the charger accepts it; never shown", rotate_authorization_key, body = RotateKeyBody, data = Command; errors = &[404, 409]),
        route!(POST "/charger/clearCache" => "charger_clear_cache", Permission(CHARGER_CONFIGURE), audited, "Clear the charger's authorization cache (ClearCache)", clear_cache, body = PileBody, data = Command; errors = &[404]),
        route!(POST "/charger/dataTransfer" => "charger_data_transfer", Permission(CHARGER_CONFIGURE), audited, "Send a vendor-specific DataTransfer", data_transfer, body = DataTransferBody, data = Command; errors = &[404]),
        route!(POST "/charger/reserveNow" => "charger_reserve_now", Permission(SYSTEM_WRITE), audited, "Reserve a connector for a card until a time (ReserveNow)", reserve_now, body = ReserveBody, data = Command; errors = &[404]),
        route!(POST "/charger/cancelReservation" => "charger_cancel_reservation", Permission(SYSTEM_WRITE), audited, "Cancel a reservation (CancelReservation)", cancel_reservation, body = CancelReservationBody, data = Command; errors = &[404]),
        route!(GET "/charger/reservations" => "charger_reservations", Permission(SYSTEM_READ), unaudited, "A charger's reservations with their status, newest first", reservation_list, query = PileQuery, data = ReservationList; errors = &[404]),
        route!(POST "/charger/updateFirmware" => "charger_update_firmware", Permission(CHARGER_CONFIGURE), audited, "Have the charger fetch and install firmware from a URL (UpdateFirmware)", update_firmware, body = FirmwareBody, data = Command; errors = &[404]),
        route!(POST "/charger/getDiagnostics" => "charger_get_diagnostics", Permission(CHARGER_CONFIGURE), audited, "Have the charger upload its diagnostics to a URL (GetDiagnostics)", get_diagnostics, body = DiagnosticsBody, data = Command; errors = &[404]),
        route!(POST "/charger/sendLocalList" => "charger_send_local_list", Permission(CHARGER_CONFIGURE), audited, "Send the charging cards to the charger as its local list, full or differential (SendLocalList)", send_local_list, body = LocalListBody, data = Command; errors = &[404]),
        route!(POST "/charger/getLocalListVersion" => "charger_get_local_list_version", Permission(CHARGER_CONFIGURE), audited, "Read the charger's local list version (GetLocalListVersion)", get_local_list_version, body = PileBody, data = Command; errors = &[404]),
        route!(POST "/charger/setChargingProfile" => "charger_set_charging_profile", Permission(CHARGER_CONFIGURE), audited, "Limit a charger's or a connector's power with a schedule (SetChargingProfile)", set_charging_profile, body = ProfileBody, data = Command; errors = &[404]),
        route!(POST "/charger/clearChargingProfile" => "charger_clear_charging_profile", Permission(CHARGER_CONFIGURE), audited, "Remove charging profiles (ClearChargingProfile)", clear_charging_profile, body = ClearProfileBody, data = Command; errors = &[404]),
        route!(POST "/charger/getCompositeSchedule" => "charger_get_composite_schedule", Permission(CHARGER_CONFIGURE), audited, "Read the schedule a connector will follow (GetCompositeSchedule)", get_composite_schedule, body = CompositeBody, data = Command; errors = &[404]),
        route!(POST "/charger/installCertificate" => "charger_install_certificate", Permission(CHARGER_CONFIGURE), audited, "Send a root certificate (PEM) for the charger to trust (InstallCertificate): the central system's or the manufacturer's; recorded once the charger accepts it", install_certificate, body = InstallCertificateBody, data = Command; errors = &[404]),
        route!(POST "/charger/getInstalledCertificateIds" => "charger_get_installed_certificate_ids", Permission(CHARGER_CONFIGURE), audited, "Ask which root certificates of a kind the charger holds (GetInstalledCertificateIds): its answer becomes the pile's certificate list", get_installed_certificate_ids, body = CertificateKindBody, data = Command; errors = &[404]),
        route!(POST "/charger/deleteCertificate" => "charger_delete_certificate", Permission(CHARGER_CONFIGURE), audited, "Have the charger delete a root certificate of the pile's list, by serial (DeleteCertificate)", delete_certificate, body = CertificateSerialBody, data = Command; errors = &[404]),
        route!(POST "/charger/extendedTrigger" => "charger_extended_trigger", Permission(CHARGER_CONFIGURE), audited, "Ask the charger to send a message now, including the security extension's (ExtendedTriggerMessage: a new CSR, LogStatusNotification, ...)", extended_trigger, body = ExtendedTriggerBody, data = Command; errors = &[404]),
        route!(POST "/charger/getLog" => "charger_get_log", Permission(CHARGER_CONFIGURE), audited, "Have the charger upload its diagnostics or security log to a URL (GetLog); LogStatusNotification follows it", get_log, body = GetLogBody, data = Command; errors = &[404]),
        route!(POST "/charger/signedUpdateFirmware" => "charger_signed_update_firmware", Permission(CHARGER_CONFIGURE), audited, "Have the charger fetch, verify and install signed firmware (SignedUpdateFirmware, with the signing certificate and signature); SignedFirmwareStatusNotification follows it", signed_update_firmware, body = SignedFirmwareBody, data = Command; errors = &[404]),
        route!(POST "/charger/certificateSigned" => "charger_certificate_signed", Permission(CHARGER_CONFIGURE), audited, "Send the charger a certificate the product's CA issued for it, with the CA's (CertificateSigned)", certificate_signed, body = CertificateSerialBody, data = Command; errors = &[404, 501, 503]),
        route!(POST "/charger/getVariables" => "charger_get_variables", Permission(CHARGER_CONFIGURE), audited, "Read variables of an OCPP 2.0.1 station's device model (GetVariables): each component and variable answered with its value or why not", super::device_model::get_variables, body = super::device_model::GetVariablesBody, data = Command; errors = &[404]),
        route!(POST "/charger/setVariables" => "charger_set_variables", Permission(CHARGER_CONFIGURE), audited, "Change variables of an OCPP 2.0.1 station's device model (SetVariables), each answered on its own; never its password", super::device_model::set_variables, body = super::device_model::SetVariablesBody, data = Command; errors = &[404]),
        route!(GET "/charger/deviceModel" => "charger_device_model", Permission(SYSTEM_READ), unaudited, "An OCPP 2.0.1 station's device model as it last reported it (NotifyReport) and answered (GetVariables, SetVariables): each variable with its attributes and characteristics, by component, its monitors, reported charging profiles and latest events (NotifyEvent); q filters by name", super::device_model::reported, query = super::device_model::DeviceModelQuery, data = super::device_model::DeviceModelView; errors = &[404]),
        route!(POST "/charger/getBaseReport" => "charger_get_base_report", Permission(CHARGER_CONFIGURE), audited, "Ask an OCPP 2.0.1 station for its device model (GetBaseReport); the report follows in NotifyReport pages, in the message log", super::device_model::get_base_report, body = super::device_model::BaseReportBody, data = Command; errors = &[404]),
        route!(POST "/charger/setDisplayMessage" => "charger_set_display_message", Permission(SYSTEM_WRITE), audited, "Show a message on an OCPP 2.0.1 station's screens (SetDisplayMessage): text, priority, from and until when", super::device_model::set_display_message, body = super::device_model::DisplayMessageBody, data = Command; errors = &[404]),
        route!(POST "/charger/clearDisplayMessage" => "charger_clear_display_message", Permission(SYSTEM_WRITE), audited, "Take a message off an OCPP 2.0.1 station's screens by its id (ClearDisplayMessage)", super::device_model::clear_display_message, body = super::device_model::DisplayMessageIdBody, data = Command; errors = &[404]),
        route!(POST "/charger/getDisplayMessages" => "charger_get_display_messages", Permission(SYSTEM_WRITE), audited, "Ask an OCPP 2.0.1 station which messages its screens hold (GetDisplayMessages: all, one by id, or by priority or state); they follow in NotifyDisplayMessages, in the message log", super::device_model::get_display_messages, body = super::device_model::DisplayMessagesQueryBody, data = Command; errors = &[404]),
        route!(POST "/charger/setVariableMonitoring" => "charger_set_variable_monitoring", Permission(CHARGER_CONFIGURE), audited, "Set monitors on variables of an OCPP 2.0.1 station (SetVariableMonitoring: upper or lower threshold, delta, periodic), each answered on its own with the station's monitor id; a monitor that trips sends NotifyEvent", super::monitoring::set_variable_monitoring, body = super::monitoring::SetMonitoringBody, data = Command; errors = &[404]),
        route!(POST "/charger/clearVariableMonitoring" => "charger_clear_variable_monitoring", Permission(CHARGER_CONFIGURE), audited, "Remove monitors from an OCPP 2.0.1 station by their ids (ClearVariableMonitoring)", super::monitoring::clear_variable_monitoring, body = super::monitoring::ClearMonitoringBody, data = Command; errors = &[404]),
        route!(POST "/charger/getMonitoringReport" => "charger_get_monitoring_report", Permission(CHARGER_CONFIGURE), audited, "Ask an OCPP 2.0.1 station which monitors it has (GetMonitoringReport, by kind or component); they follow in NotifyMonitoringReport pages, in the message log", super::monitoring::get_monitoring_report, body = super::monitoring::MonitoringReportBody, data = Command; errors = &[404]),
        route!(POST "/charger/getChargingProfiles" => "charger_get_charging_profiles", Permission(CHARGER_CONFIGURE), audited, "Ask an OCPP 2.0.1 station which charging profiles it holds (GetChargingProfiles, by EVSE, purpose, stack level, id or limit source); they follow in ReportChargingProfiles, in the message log", super::commands_v201::get_charging_profiles, body = super::commands_v201::ChargingProfilesQueryBody, data = Command; errors = &[404]),
        route!(POST "/charger/customerInformation" => "charger_customer_information", Permission(CHARGER_CONFIGURE), audited, "Have an OCPP 2.0.1 station report or delete what it keeps about a customer, by card or customer identifier (CustomerInformation); the report follows in NotifyCustomerInformation, in the message log", super::commands_v201::customer_information, body = super::commands_v201::CustomerInformationBody, data = Command; errors = &[404]),
        route!(POST "/charger/publishFirmware" => "charger_publish_firmware", Permission(CHARGER_CONFIGURE), audited, "Have an OCPP 2.0.1 local controller fetch firmware (MD5-checked) and serve it to the stations behind it (PublishFirmware); PublishFirmwareStatusNotification follows", super::commands_v201::publish_firmware, body = super::commands_v201::PublishFirmwareBody, data = Command; errors = &[404]),
        route!(POST "/charger/setNetworkProfile" => "charger_set_network_profile", Permission(CHARGER_CONFIGURE), audited, "Store a connection profile in a slot of an OCPP 2.0.1 station (SetNetworkProfile: CSMS address, security profile, interface, optional VPN and APN); the station uses it once the slot is in its NetworkConfigurationPriority. VPN and APN secrets are sent, never stored", super::commands_v201::set_network_profile, body = super::commands_v201::NetworkProfileBody, data = Command; errors = &[404, 409]),
        route!(POST "/charger/parkingLock" => "charger_parking_lock", Permission(SYSTEM_WRITE), audited, "Raise or lower the parking lock in front of a YKC pile's gun (0x62); the pile answers whether it moved", super::commands_ykc::parking_lock, body = super::commands_ykc::ParkingLockBody, data = Command; errors = &[404]),
        route!(POST "/charger/balanceUpdate" => "charger_balance_update", Permission(SYSTEM_WRITE), audited, "Send a YKC pile the balance the card charging on a gun has now, after a top-up say (0x42); the pile answers whether it took it", super::commands_ykc::balance_update, body = super::commands_ykc::BalanceUpdateBody, data = Command; errors = &[404]),
        route!(POST "/charger/offlineCardQuery" => "charger_offline_card_query", Permission(CHARGER_CONFIGURE), audited, "Ask a YKC pile which of these cards (1-26) it holds for starts while offline (0x48); the answer lists each card and whether the pile holds it", super::commands_ykc::offline_card_query, body = super::commands_ykc::OfflineCardQueryBody, data = Command; errors = &[404]),
        route!(GET "/charger/commands" => "charger_commands", Permission(SYSTEM_READ), unaudited, "A charger's remote operations, newest first, with their state and answers", command_list, query = CommandListQuery, data = CommandList; errors = &[404]),
        route!(GET "/charger/command" => "charger_command", Permission(SYSTEM_READ), unaudited, "One remote operation's state and answer (poll until it ends)", command_get, query = crate::params::IdQuery, data = Command; errors = &[404]),
    ]
}

/// The OCPP 1.6 call each remote operation sends; who may send it is the
/// route's permission. The one list the message log's filter
/// (`actions::logged`), the SPA's operations (`web/src/api/chargerOperations.ts`,
/// written from it and the route table by the test
/// `the_spas_operations_are_the_route_tables`) and each handler read: a
/// handler sending another call than its route's is a logged 500.
pub const OPERATIONS: &[(&str, Action)] = &[
    ("/charger/remoteStart", Action::RemoteStartTransaction),
    ("/charger/remoteStop", Action::RemoteStopTransaction),
    ("/charger/unlock", Action::UnlockConnector),
    ("/charger/availability", Action::ChangeAvailability),
    ("/charger/trigger", Action::TriggerMessage),
    ("/charger/reset", Action::Reset),
    ("/charger/getConfiguration", Action::GetConfiguration),
    ("/charger/changeConfiguration", Action::ChangeConfiguration),
    ("/charger/rotateAuthorizationKey", Action::ChangeConfiguration),
    ("/charger/clearCache", Action::ClearCache),
    ("/charger/dataTransfer", Action::DataTransfer),
    ("/charger/reserveNow", Action::ReserveNow),
    ("/charger/cancelReservation", Action::CancelReservation),
    ("/charger/updateFirmware", Action::UpdateFirmware),
    ("/charger/getDiagnostics", Action::GetDiagnostics),
    ("/charger/sendLocalList", Action::SendLocalList),
    ("/charger/getLocalListVersion", Action::GetLocalListVersion),
    ("/charger/setChargingProfile", Action::SetChargingProfile),
    ("/charger/clearChargingProfile", Action::ClearChargingProfile),
    ("/charger/getCompositeSchedule", Action::GetCompositeSchedule),
    ("/charger/installCertificate", Action::InstallCertificate),
    ("/charger/getInstalledCertificateIds", Action::GetInstalledCertificateIds),
    ("/charger/deleteCertificate", Action::DeleteCertificate),
    ("/charger/extendedTrigger", Action::ExtendedTriggerMessage),
    ("/charger/getLog", Action::GetLog),
    ("/charger/signedUpdateFirmware", Action::SignedUpdateFirmware),
    ("/charger/certificateSigned", Action::CertificateSigned),
];

/// The YKC command a remote operation sends to a YKC pile; the routes not
/// listed have no YKC frame (refused for a YKC pile, naming it).
pub const OPERATIONS_YKC: &[(&str, &str)] = &[
    ("/charger/remoteStart", ykc_calls::REMOTE_START),
    ("/charger/remoteStop", ykc_calls::REMOTE_STOP),
    ("/charger/reset", ykc_calls::REBOOT),
    ("/charger/availability", ykc_calls::WORK_PARAMS),
    // A gun's real-time data, which carries its status and meter.
    ("/charger/trigger", ykc_calls::READ_REALTIME),
    ("/charger/updateFirmware", ykc_calls::UPDATE),
    // With OfflineCardClear for the cards a differential list takes away.
    ("/charger/sendLocalList", ykc_calls::OFFLINE_CARD_SYNC),
    // Only a YKC pile takes these.
    ("/charger/parkingLock", ykc_calls::PARKING_LOCK),
    ("/charger/balanceUpdate", ykc_calls::BALANCE_UPDATE),
    ("/charger/offlineCardQuery", ykc_calls::OFFLINE_CARD_QUERY),
];

/// The OCPP 2.0.1 call a remote operation sends to a 2.0.1 charger; the
/// routes not listed are 1.6's only (refused for a 2.0.1 pile, naming it).
pub const OPERATIONS_V201: &[(&str, v201::Action)] = &[
    ("/charger/remoteStart", v201::Action::RequestStartTransaction),
    ("/charger/remoteStop", v201::Action::RequestStopTransaction),
    ("/charger/unlock", v201::Action::UnlockConnector),
    ("/charger/availability", v201::Action::ChangeAvailability),
    ("/charger/trigger", v201::Action::TriggerMessage),
    ("/charger/reset", v201::Action::Reset),
    ("/charger/clearCache", v201::Action::ClearCache),
    ("/charger/dataTransfer", v201::Action::DataTransfer),
    ("/charger/reserveNow", v201::Action::ReserveNow),
    ("/charger/cancelReservation", v201::Action::CancelReservation),
    ("/charger/updateFirmware", v201::Action::UpdateFirmware),
    ("/charger/sendLocalList", v201::Action::SendLocalList),
    ("/charger/getLocalListVersion", v201::Action::GetLocalListVersion),
    ("/charger/getLog", v201::Action::GetLog),
    ("/charger/rotateAuthorizationKey", v201::Action::SetVariables),
    ("/charger/setChargingProfile", v201::Action::SetChargingProfile),
    ("/charger/clearChargingProfile", v201::Action::ClearChargingProfile),
    ("/charger/getCompositeSchedule", v201::Action::GetCompositeSchedule),
    ("/charger/signedUpdateFirmware", v201::Action::UpdateFirmware),
    ("/charger/getVariables", v201::Action::GetVariables),
    ("/charger/setVariables", v201::Action::SetVariables),
    ("/charger/getBaseReport", v201::Action::GetBaseReport),
    ("/charger/setDisplayMessage", v201::Action::SetDisplayMessage),
    ("/charger/clearDisplayMessage", v201::Action::ClearDisplayMessage),
    ("/charger/getDisplayMessages", v201::Action::GetDisplayMessages),
    ("/charger/setVariableMonitoring", v201::Action::SetVariableMonitoring),
    ("/charger/clearVariableMonitoring", v201::Action::ClearVariableMonitoring),
    ("/charger/getMonitoringReport", v201::Action::GetMonitoringReport),
    ("/charger/getChargingProfiles", v201::Action::GetChargingProfiles),
    ("/charger/customerInformation", v201::Action::CustomerInformation),
    ("/charger/publishFirmware", v201::Action::PublishFirmware),
    ("/charger/setNetworkProfile", v201::Action::SetNetworkProfile),
    ("/charger/installCertificate", v201::Action::InstallCertificate),
    ("/charger/getInstalledCertificateIds", v201::Action::GetInstalledCertificateIds),
    ("/charger/deleteCertificate", v201::Action::DeleteCertificate),
    ("/charger/certificateSigned", v201::Action::CertificateSigned),
    ("/charger/extendedTrigger", v201::Action::TriggerMessage),
];

/// What the server sends a 2.0.1 station of its own accord, no route
/// asking (a running transaction's cost): listed in its message log's filter.
pub const SENT_UNASKED_V201: &[v201::Action] = &[v201::Action::CostUpdated];

/// The call the route at `path` sends.
pub fn operation(path: &str) -> Option<Action> {
    OPERATIONS.iter().find(|(p, _)| *p == path).map(|(_, a)| *a)
}

/// Refuses (500, logged) a call other than the one the route sends.
fn sends<R: Request>(call: &Call) -> Result<(), ApiError> {
    if operation(&call.req.path) == Some(R::ACTION) {
        return Ok(());
    }
    tracing::error!(path = %call.req.path, action = %R::ACTION, "a remote operation sends another call than commands::OPERATIONS says");
    Err(ApiError::internal())
}

/// Queues a YKC command of the route's (`OPERATIONS_YKC`).
pub(super) async fn queue_ykc(ctx: &AppCtx, call: &Call, p: &Pile, action: &str, payload: Value) -> Result<Reply, ApiError> {
    if !OPERATIONS_YKC.iter().any(|(path, a)| *path == call.req.path && *a == action) {
        tracing::error!(path = %call.req.path, action, "a remote operation sends another YKC command than commands::OPERATIONS_YKC says");
        return Err(ApiError::internal());
    }
    let c = commands::submit_ykc(ctx, &p.id, action, payload, &by(call)?).await?;
    answered_now(c)
}

/// [`sends`] for the 2.0.1 call of a route (`OPERATIONS_V201`).
pub(super) fn sends_v201<R: v201::Request>(call: &Call) -> Result<(), ApiError> {
    if OPERATIONS_V201.iter().any(|(path, a)| *path == call.req.path && *a == R::ACTION) {
        return Ok(());
    }
    tracing::error!(path = %call.req.path, action = %R::ACTION, "a remote operation sends another 2.0.1 call than commands::OPERATIONS_V201 says");
    Err(ApiError::internal())
}

/// A 400 naming the field, also in `data.fields`: the operation's dialog
/// shows the words beside that field.
pub(super) fn by(call: &Call) -> Result<String, ApiError> {
    Ok(call.caller()?.username().to_string())
}

pub(super) async fn pile(ctx: &AppCtx, id: &str) -> Result<Pile, ApiError> {
    if id.trim().is_empty() {
        return Err(field_invalid("pileId", msg::request::required()));
    }
    piles::get_pile(ctx, id.trim()).await
}

/// A connector number of the pile (`allow_zero`: 0 = the whole charger).
fn connector(p: &Pile, n: Option<i64>, allow_zero: bool) -> Result<u32, ApiError> {
    let min = if allow_zero { 0 } else { 1 };
    match n {
        Some(n) if n >= min && n <= p.connector_count as i64 => Ok(n as u32),
        Some(n) => Err(field_invalid("connectorId", msg::chargers::command::no_such_connector(&p.code, &p.connector_count, &n))),
        None => Err(field_invalid("connectorId", msg::request::required())),
    }
}

/// An optional connector of the pile (1 or more) a triggered message is about.
fn optional_connector(p: &Pile, n: Option<i64>) -> Result<Option<i64>, ApiError> {
    n.map(|_| connector(p, n, false).map(i64::from)).transpose()
}

/// A body's enumeration value as the OCPP enumeration with the same values
/// (`body_enumerations_are_the_ocpp_ones` checks each value of each).
pub(super) fn ocpp_value<B: Serialize, O: FromJson>(b: B) -> Result<O, ApiError> {
    let v = serde_json::to_value(b).unwrap_or_default();
    ocpp::schema::parse(&v, Mode::Strict).map_err(|e| {
        tracing::error!(problem = %e, "a body's value is not its OCPP enumeration's");
        ApiError::internal()
    })
}

async fn queue<R: Request>(ctx: &AppCtx, call: &Call, p: &Pile, request: &R) -> Result<Reply, ApiError> {
    sends::<R>(call)?;
    if p.ocpp_version.is_ykc() {
        return Err(crate::request::field_invalid("pileId", msg::chargers::ykc::no_such_operation(R::ACTION.name(), &p.code)));
    }
    if p.ocpp_version != OcppVersion::V16 {
        return Err(field_invalid("pileId", msg::chargers::command::v201_has_no(&R::ACTION, &p.code)));
    }
    let c = commands::send(ctx, &p.id, request, &by(call)?).await?;
    answered_now(c)
}

/// [`queue`] for a pile that speaks OCPP 2.0.1.
pub(super) async fn queue_v201<R: v201::Request>(ctx: &AppCtx, call: &Call, p: &Pile, request: &R) -> Result<Reply, ApiError> {
    sends_v201::<R>(call)?;
    let c = commands::send_v201(ctx, &p.id, request, &by(call)?).await?;
    answered_now(c)
}

pub(super) fn answered_now(c: Command) -> Result<Reply, ApiError> {
    let words = match c.status {
        commands::CommandStatus::Offline => msg::chargers::command::offline(),
        _ => msg::chargers::command::sent(),
    };
    Ok(Reply::data_with_msg(c, words))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PileBody {
    #[serde(default)]
    pile_id: String,
}

#[derive(Deserialize, JsonSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct RemoteStartBody {
    #[serde(default)]
    pile_id: String,
    /// The connector to start on; absent: the charger chooses (OCPP 1.6).
    connector_id: Option<i64>,
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    id_tag: names::CardNumber,
    /// Optional power limit for this session (W), sent as a TxProfile
    /// (Relative, id 1). Or give `chargingProfile`, not both.
    #[schemars(range(min = 1, max = 1_000_000))]
    limit_w: Option<f64>,
    /// Optional: the session's own profile, sent as a TxProfile (default
    /// kind Relative, id 1); the same fields as setChargingProfile.
    charging_profile: Option<ProfileSpec>,
}

/// The RemoteStartTransaction for connector `n` (None: the charger chooses),
/// with its TxProfile when one is asked for.
fn remote_start_request(b: &RemoteStartBody, now: i64, n: Option<u32>, tag: &str) -> Result<v16::RemoteStartTransactionRequest, ApiError> {
    let charging_profile = match (b.limit_w, &b.charging_profile) {
        (Some(_), Some(_)) => return Err(field_invalid("chargingProfile", msg::chargers::command::limit_or_profile())),
        (Some(limit), None) => {
            if !(limit > 0.0 && limit.is_finite()) {
                return Err(field_invalid("limitW", msg::chargers::command::positive_watts()));
            }
            let limit = one_decimal("limitW", limit, MAX_LIMIT_W, RateUnit::W)?;
            let schedule = v16::ChargingSchedule {
                duration: None,
                start_schedule: None,
                charging_rate_unit: v16::ChargingRateUnitType::W,
                charging_schedule_period: vec![v16::ChargingSchedulePeriod { start_period: 0, limit, number_phases: None }],
                min_charging_rate: None,
            };
            Some(v16::ChargingProfile {
                charging_profile_id: 1,
                transaction_id: None,
                stack_level: 0,
                charging_profile_purpose: v16::ChargingProfilePurposeType::TxProfile,
                charging_profile_kind: v16::ChargingProfileKindType::Relative,
                recurrency_kind: None,
                valid_from: None,
                valid_to: None,
                charging_schedule: schedule,
            })
        }
        (None, Some(spec)) => {
            // No transaction exists yet: the charger binds the profile to the one it starts.
            Some(charging_profile(spec, ProfilePurpose::TxProfile, now, None, 1, ProfileKind::Relative, "chargingProfile.")?)
        }
        (None, None) => None,
    };
    Ok(v16::RemoteStartTransactionRequest { connector_id: n.map(i64::from), id_tag: tag.to_string(), charging_profile })
}

/// POST /charger/remoteStart {pileId, connectorId?, idTag, limitW? | chargingProfile?}
async fn remote_start(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: RemoteStartBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let n = match b.connector_id {
        Some(_) => Some(connector(&p, b.connector_id, false)?),
        None => None,
    };
    let tag = b.id_tag.trim();
    if cards::get(ctx, tag).await?.is_none() {
        return Err(field_invalid("idTag", msg::cards::not_found(&tag)));
    }
    if p.ocpp_version.is_ykc() {
        let gun = n.ok_or_else(|| field_invalid("connectorId", msg::chargers::command::ykc_gun_required()))?;
        if b.charging_profile.is_some() || b.limit_w.is_some() {
            let field = if b.limit_w.is_some() { "limitW" } else { "chargingProfile" };
            return Err(crate::request::field_invalid(field, msg::chargers::ykc::no_power_limit(&p.code)));
        }
        if ykc_calls::physical_card(tag).is_err() {
            return Err(crate::request::field_invalid("idTag", msg::chargers::ykc::bad_card(tag)));
        }
        let start = crate::domain::chargers::ykc_platform::remote_start_call(ctx, &p, gun, tag).await?;
        return queue_ykc(ctx, &call, &p, ykc_calls::REMOTE_START, serde_json::to_value(start).map_err(|_| ApiError::internal())?).await;
    }
    if p.ocpp_version == OcppVersion::V201 {
        let request = request_start_v201(&b, n, tag, commands::next_request_id(ctx).await?)?;
        return queue_v201(ctx, &call, &p, &request).await;
    }
    let request = remote_start_request(&b, ctx.now(), n, tag)?;
    queue(ctx, &call, &p, &request).await
}

/// 2.0.1's RequestStartTransaction for EVSE `n` (None: the station
/// chooses), the card as a Central idToken, with a power limit as a
/// TxProfile when one is asked for.
fn request_start_v201(b: &RemoteStartBody, n: Option<u32>, tag: &str, remote_start_id: i64) -> Result<v201::RequestStartTransactionRequest, ApiError> {
    if b.charging_profile.is_some() {
        return Err(field_invalid("chargingProfile", msg::chargers::command::profile_at_start_v16_only()));
    }
    let charging_profile = match b.limit_w {
        Some(limit) if !(limit > 0.0 && limit.is_finite()) => return Err(field_invalid("limitW", msg::chargers::command::positive_watts())),
        Some(limit) => Some(v201::ChargingProfile {
            custom_data: None,
            id: 1,
            stack_level: 0,
            charging_profile_purpose: v201::ChargingProfilePurposeEnum::TxProfile,
            charging_profile_kind: v201::ChargingProfileKindEnum::Relative,
            recurrency_kind: None,
            valid_from: None,
            valid_to: None,
            charging_schedule: vec![v201::ChargingSchedule {
                custom_data: None,
                id: 1,
                start_schedule: None,
                duration: None,
                charging_rate_unit: v201::ChargingRateUnitEnum::W,
                charging_schedule_period: vec![v201::ChargingSchedulePeriod { custom_data: None, start_period: 0, limit: one_decimal("limitW", limit, MAX_LIMIT_W, RateUnit::W)?, number_phases: None, phase_to_use: None }],
                min_charging_rate: None,
                sales_tariff: None,
            }],
            transaction_id: None,
        }),
        None => None,
    };
    Ok(v201::RequestStartTransactionRequest {
        custom_data: None,
        evse_id: n.map(i64::from),
        group_id_token: None,
        id_token: v201::IdToken { custom_data: None, additional_info: None, id_token: tag.to_string(), r#type: v201::IdTokenEnum::Central },
        remote_start_id,
        charging_profile,
    })
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemoteStopBody {
    /// The order of the running session (or give `transactionId`, or
    /// `pileId` with `connectorId`).
    order_no: Option<String>,
    transaction_id: Option<i64>,
    /// With `connectorId`: the session running on that connector.
    pile_id: Option<String>,
    connector_id: Option<i64>,
}

/// POST /charger/remoteStop {orderNo} or {transactionId} or {pileId, connectorId}
async fn remote_stop(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: RemoteStopBody = call.req.payload()?;
    let pile_id = b.pile_id.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let tx = match (b.order_no.as_deref().map(str::trim).filter(|s| !s.is_empty()), b.transaction_id) {
        (None, None) if pile_id.is_some() => {
            let p = pile(ctx, pile_id.unwrap_or_default()).await?;
            let n = connector(&p, b.connector_id, false)?;
            match sessions::open_on(ctx, &p.id, n).await? {
                Some(t) => t.transaction_id,
                None => return Err(field_invalid("connectorId", msg::chargers::command::no_session_on(&p.code, &n))),
            }
        }
        (Some(no), _) => {
            let row = orders::load(ctx, &no.to_uppercase()).await?;
            if row.order.status != charging::orders::OrderStatus::Charging {
                return Err(field_invalid("orderNo", msg::chargers::command::order_not_charging(&no)));
            }
            row.transaction_id.ok_or_else(|| field_invalid("orderNo", msg::chargers::command::order_not_from_charger(&no)))?
        }
        (None, Some(id)) => id,
        (None, None) => return Err(field_invalid("orderNo", msg::chargers::command::which_session())),
    };
    let t = sessions::get_transaction(ctx, tx).await?.ok_or_else(|| field_invalid("transactionId", msg::chargers::command::no_transaction(&tx)))?;
    if t.stop_ts.is_some() {
        return Err(field_invalid("transactionId", msg::chargers::command::transaction_stopped(&tx)));
    }
    let p = piles::get_pile(ctx, &t.pile_id).await?;
    if p.ocpp_version.is_ykc() {
        let stop = ykc_calls::RemoteStopCall { gun: t.connector };
        return queue_ykc(ctx, &call, &p, ykc_calls::REMOTE_STOP, serde_json::to_value(stop).map_err(|_| ApiError::internal())?).await;
    }
    if let Some(id) = t.charger_transaction_id.filter(|_| p.ocpp_version == OcppVersion::V201) {
        return queue_v201(ctx, &call, &p, &v201::RequestStopTransactionRequest { custom_data: None, transaction_id: id }).await;
    }
    queue(ctx, &call, &p, &v16::RemoteStopTransactionRequest { transaction_id: tx }).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectorBody {
    #[serde(default)]
    pile_id: String,
    connector_id: Option<i64>,
}

/// POST /charger/unlock {pileId, connectorId}
async fn unlock(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ConnectorBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let n = connector(&p, b.connector_id, false)?;
    if p.ocpp_version == OcppVersion::V201 {
        // One connector per EVSE: EVSE n's connector 1.
        return queue_v201(ctx, &call, &p, &v201::UnlockConnectorRequest { custom_data: None, evse_id: n.into(), connector_id: 1 }).await;
    }
    queue(ctx, &call, &p, &v16::UnlockConnectorRequest { connector_id: n.into() }).await
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum AvailabilityType {
    Operative,
    Inoperative,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AvailabilityBody {
    #[serde(default)]
    pile_id: String,
    /// 0 = the whole charger.
    connector_id: Option<i64>,
    #[serde(rename = "type")]
    kind: Option<AvailabilityType>,
}

/// POST /charger/availability {pileId, connectorId, type}
async fn availability(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: AvailabilityBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let n = connector(&p, b.connector_id, true)?;
    let kind = b.kind.ok_or_else(|| field_invalid("type", msg::chargers::command::availability_type_required()))?;
    if p.ocpp_version.is_ykc() {
        // YKC puts the whole pile in or out of service (0x52), never one gun.
        if n != 0 {
            return Err(crate::request::field_invalid("connectorId", msg::chargers::ykc::whole_pile_only(&p.code)));
        }
        let allowed = ocpp_value::<_, v16::AvailabilityType>(kind)? == v16::AvailabilityType::Operative;
        let call_body = ykc_calls::WorkParamsCall { allowed, max_power_percent: 100 };
        return queue_ykc(ctx, &call, &p, ykc_calls::WORK_PARAMS, serde_json::to_value(call_body).map_err(|_| ApiError::internal())?).await;
    }
    if p.ocpp_version == OcppVersion::V201 {
        // Connector 0 is the whole station (no EVSE named).
        let evse = (n > 0).then(|| v201::EVSE { custom_data: None, id: n.into(), connector_id: None });
        return queue_v201(ctx, &call, &p, &v201::ChangeAvailabilityRequest { custom_data: None, evse, operational_status: ocpp_value(kind)? }).await;
    }
    queue(ctx, &call, &p, &v16::ChangeAvailabilityRequest { connector_id: n.into(), r#type: ocpp_value(kind)? }).await
}

/// The messages a charger can be asked to send (OCPP 1.6 MessageTrigger).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum TriggerMessage {
    BootNotification,
    DiagnosticsStatusNotification,
    FirmwareStatusNotification,
    Heartbeat,
    MeterValues,
    StatusNotification,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TriggerBody {
    #[serde(default)]
    pile_id: String,
    requested_message: Option<TriggerMessage>,
    /// Optional: the connector the message is about.
    connector_id: Option<i64>,
}

/// POST /charger/trigger {pileId, requestedMessage, connectorId?}
async fn trigger(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: TriggerBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let message = b.requested_message.ok_or_else(|| field_invalid("requestedMessage", msg::request::required()))?;
    let connector_id = optional_connector(&p, b.connector_id)?;
    if p.ocpp_version.is_ykc() {
        return super::commands_ykc::trigger(ctx, &call, &p, message, connector_id).await;
    }
    if p.ocpp_version == OcppVersion::V201 {
        if matches!(message, TriggerMessage::DiagnosticsStatusNotification) {
            return Err(field_invalid("requestedMessage", msg::chargers::command::no_diagnostics_status()));
        }
        // A StatusNotification is of one connector: EVSE n's connector 1.
        let one_connector = matches!(message, TriggerMessage::StatusNotification).then_some(1);
        let evse = connector_id.map(|n| v201::EVSE { custom_data: None, id: n, connector_id: one_connector });
        return queue_v201(ctx, &call, &p, &v201::TriggerMessageRequest { custom_data: None, evse, requested_message: ocpp_value(message)? }).await;
    }
    queue(ctx, &call, &p, &v16::TriggerMessageRequest { requested_message: ocpp_value(message)?, connector_id }).await
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum ResetType {
    Soft,
    Hard,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResetBody {
    #[serde(default)]
    pile_id: String,
    #[serde(rename = "type")]
    kind: Option<ResetType>,
    /// OCPP 2.0.1 only: reset this EVSE alone (1 or more; Reset's `evseId`),
    /// not the whole station. A 1.6 or YKC pile refuses it.
    #[schemars(range(min = 1))]
    evse_id: Option<i64>,
}

/// An EVSE of a 2.0.1 station (one connector each: EVSE n is connector n),
/// or a 400 naming `field`: a 1.6 or YKC pile has none.
fn evse_of_v201(p: &Pile, field: &str, n: Option<i64>) -> Result<Option<i64>, ApiError> {
    let Some(n) = n else { return Ok(None) };
    if p.ocpp_version != OcppVersion::V201 {
        return Err(field_invalid(field, msg::chargers::command::evse_v201_only(&p.code)));
    }
    if n < 1 || n > p.connector_count as i64 {
        return Err(crate::request::field_invalid(field, msg::chargers::variables::no_such_evse(&p.code, &n, &p.connector_count)));
    }
    Ok(Some(n))
}

/// POST /charger/reset {pileId, type, evseId?}
async fn reset(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ResetBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let kind = b.kind.ok_or_else(|| field_invalid("type", msg::chargers::command::reset_type_required()))?;
    let evse_id = evse_of_v201(&p, "evseId", b.evse_id)?;
    if p.ocpp_version.is_ykc() {
        // YKC restarts now (Hard) or once no gun charges (Soft).
        let reboot = ykc_calls::RebootCall { now: matches!(kind, ResetType::Hard) };
        return queue_ykc(ctx, &call, &p, ykc_calls::REBOOT, serde_json::to_value(reboot).map_err(|_| ApiError::internal())?).await;
    }
    if p.ocpp_version == OcppVersion::V201 {
        // 2.0.1 resets at once (Hard) or once idle (Soft: no session is cut),
        // the whole station or one EVSE.
        let r#type = match kind {
            ResetType::Hard => v201::ResetEnum::Immediate,
            ResetType::Soft => v201::ResetEnum::OnIdle,
        };
        return queue_v201(ctx, &call, &p, &v201::ResetRequest { custom_data: None, r#type, evse_id }).await;
    }
    queue(ctx, &call, &p, &v16::ResetRequest { r#type: ocpp_value(kind)? }).await
}

/// OCPP 1.6 configuration keys are CiString50.
const MAX_KEY: usize = 50;
const MAX_VALUE: usize = 500;

fn config_key(field: &str, k: &str) -> Result<String, ApiError> {
    let k = k.trim();
    if k.is_empty() || k.chars().count() > MAX_KEY || !k.chars().all(|c| c.is_ascii_graphic()) {
        return Err(field_invalid(field, msg::chargers::command::bad_config_key(&format!("{k:?}"), &MAX_KEY)));
    }
    Ok(k.to_string())
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GetConfigurationBody {
    #[serde(default)]
    pile_id: String,
    /// Keys to read; empty = all.
    #[serde(default)]
    #[schemars(length(max = 50))]
    keys: Vec<String>,
}

/// POST /charger/getConfiguration {pileId, keys?}
async fn get_configuration(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: GetConfigurationBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    if b.keys.len() > 50 {
        return Err(field_invalid("keys", msg::chargers::command::too_many_keys(&50)));
    }
    let keys = b.keys.iter().enumerate().map(|(i, k)| config_key(&format!("keys[{i}]"), k)).collect::<Result<Vec<_>, _>>()?;
    let key = (!keys.is_empty()).then_some(keys);
    queue(ctx, &call, &p, &v16::GetConfigurationRequest { key }).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangeConfigurationBody {
    #[serde(default)]
    pile_id: String,
    #[serde(default)]
    #[schemars(length(min = 1, max = 50))]
    key: String,
    #[serde(default)]
    #[schemars(length(max = 500))]
    value: String,
}

/// POST /charger/changeConfiguration {pileId, key, value}
async fn change_configuration(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ChangeConfigurationBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let key = config_key("key", &b.key)?;
    if commands::is_authorization_key(&key) {
        // Sent here it would be stored and shown in clear, and the stored
        // password would not follow: the charger would be locked out.
        return Err(field_invalid("key", msg::chargers::command::authorization_key_is_password()));
    }
    if b.value.chars().count() > MAX_VALUE {
        return Err(field_invalid("value", msg::chargers::command::at_most_chars(&MAX_VALUE)));
    }
    queue(ctx, &call, &p, &v16::ChangeConfigurationRequest { key, value: b.value }).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RotateKeyBody {
    #[serde(default)]
    pile_id: String,
    /// A key to use (16-40 printable ASCII characters, hard to guess);
    /// omitted or empty: the server generates one (40 hexadecimal digits).
    #[schemars(length(min = 16, max = 40))]
    new_key: Option<String>,
}

/// POST /charger/rotateAuthorizationKey {pileId, newKey?}: the key goes to
/// the charger in a ChangeConfiguration sent at once (never queued, so it
/// is never stored in clear); the command, the message log and the system
/// log show `***`. The key's hash becomes the pile's password when the
/// charger answers Accepted (or connects with it); until then the old
/// password keeps working, and a refusal or no call leaves it alone.
async fn rotate_authorization_key(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    use crate::domain::chargers::secret;
    let b: RotateKeyBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let key = match b.new_key.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
        Some(k) => {
            // An AuthorizationKey is the charger's password: the same rules (16-40
            // characters, as the 1.6 security whitepaper asks of it, and hard to guess).
            if let Some(why) = secret::problem(k, &[&p.code]) {
                return Err(field_invalid("newKey", why));
            }
            k.to_string()
        }
        None => secret::generate_key(),
    };
    let phc = secret::hash(&key).await?;
    let c = if p.ocpp_version == OcppVersion::V201 {
        // 2.0.1's password is the variable SecurityCtrlr.BasicAuthPassword.
        let set = |value: String| v201::SetVariablesRequest {
            custom_data: None,
            set_variable_data: vec![v201::SetVariableData {
                custom_data: None,
                attribute_type: None,
                attribute_value: value,
                component: v201::Component { custom_data: None, evse: None, name: commands::BASIC_AUTH_PASSWORD.0.into(), instance: None },
                variable: v201::Variable { custom_data: None, name: commands::BASIC_AUTH_PASSWORD.1.into(), instance: None },
            }],
        };
        sends_v201::<v201::SetVariablesRequest>(&call)?;
        commands::send_now_v201(ctx, &p.id, &set(commands::REDACTED.into()), &set(key), Some(&phc), &by(&call)?).await?
    } else {
        rotate_v16(ctx, &call, &p, key, &phc).await?
    };
    let words = match c.status {
        commands::CommandStatus::Offline => msg::chargers::command::rotate_offline(),
        _ => msg::chargers::command::rotate_sent(),
    };
    Ok(Reply::data_with_msg(c, words))
}

async fn rotate_v16(ctx: &AppCtx, call: &Call, p: &Pile, key: String, phc: &str) -> Result<Command, ApiError> {
    let stored = v16::ChangeConfigurationRequest { key: commands::AUTHORIZATION_KEY.into(), value: commands::REDACTED.into() };
    let wire = v16::ChangeConfigurationRequest { key: commands::AUTHORIZATION_KEY.into(), value: key };
    sends::<v16::ChangeConfigurationRequest>(call)?;
    commands::send_now(ctx, &p.id, &stored, &wire, Some(phc), &by(call)?).await
}

/// POST /charger/clearCache {pileId}
async fn clear_cache(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: PileBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    if p.ocpp_version == OcppVersion::V201 {
        return queue_v201(ctx, &call, &p, &v201::ClearCacheRequest { custom_data: None }).await;
    }
    queue(ctx, &call, &p, &v16::ClearCacheRequest {}).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataTransferBody {
    #[serde(default)]
    pile_id: String,
    #[serde(default)]
    #[schemars(length(min = 1, max = 255))]
    vendor_id: String,
    #[schemars(length(max = 50))]
    message_id: Option<String>,
    data: Option<String>,
}

/// POST /charger/dataTransfer {pileId, vendorId, messageId?, data?}
async fn data_transfer(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: DataTransferBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let vendor = b.vendor_id.trim();
    if vendor.is_empty() || vendor.chars().count() > 255 {
        return Err(field_invalid("vendorId", msg::chargers::command::length_range(&255, &1)));
    }
    let message_id = b.message_id.as_deref().map(str::trim).filter(|m| !m.is_empty());
    if message_id.is_some_and(|m| m.chars().count() > 50) {
        return Err(field_invalid("messageId", msg::chargers::command::at_most_chars(&50)));
    }
    if p.ocpp_version == OcppVersion::V201 {
        // 2.0.1's data is any JSON; the text goes as a string, as in 1.6.
        let request = v201::DataTransferRequest { custom_data: None, message_id: message_id.map(String::from), data: b.data.map(Value::String), vendor_id: vendor.to_string() };
        return queue_v201(ctx, &call, &p, &request).await;
    }
    let request = v16::DataTransferRequest { vendor_id: vendor.to_string(), message_id: message_id.map(String::from), data: b.data };
    queue(ctx, &call, &p, &request).await
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommandListQuery {
    pile_id: String,
    #[schemars(range(min = 1, max = 200))]
    page_size: Option<u32>,
    cursor: Option<String>,
}

#[derive(Serialize, JsonSchema)]
pub struct CommandList {
    list: Vec<Command>,
    cursor: Option<String>,
}

/// GET /charger/commands?pileId=&pageSize=&cursor=
async fn command_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: CommandListQuery = call.query()?;
    let size = q.page_size.unwrap_or(20);
    if !(1..=200).contains(&size) {
        return Err(field_invalid("pageSize", msg::chargers::command::range(&200, &1)));
    }
    let p = pile(ctx, &q.pile_id).await?;
    let (list, cursor) = commands::list(ctx, &p.id, size, q.cursor).await?;
    Ok(Reply::data(CommandList { list, cursor }))
}

/// GET /charger/command?id=
async fn command_get(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let crate::params::IdQuery { id } = call.query()?;
    let c = commands::get(ctx, &id).await?.ok_or_else(|| ApiError::not_found(msg::chargers::command::no_such_command(&id)))?;
    Ok(Reply::data(c))
}


fn future_time(ctx: &AppCtx, field: &str, ts: Option<i64>) -> Result<i64, ApiError> {
    match ts {
        Some(t) if t > ctx.now() && t < ctx.now() + 366 * 86_400 => Ok(t),
        Some(_) => Err(field_invalid(field, msg::chargers::command::future_within_year())),
        None => Err(field_invalid(field, msg::request::required())),
    }
}

/// A location the charger fetches from or uploads to: http(s) or ftp(s).
pub(super) fn location(field: &str, raw: &str) -> Result<String, ApiError> {
    let ok = url::Url::parse(raw.trim()).ok().filter(|u| matches!(u.scheme(), "http" | "https" | "ftp" | "ftps") && u.host().is_some());
    match ok {
        Some(u) if raw.len() <= 512 => Ok(u.to_string()),
        _ => Err(field_invalid(field, msg::chargers::command::url())),
    }
}

/// The connector types a 2.0.1 reservation may ask for (its ConnectorEnum).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum ConnectorType {
    #[serde(rename = "cCCS1")]
    CCCS1,
    #[serde(rename = "cCCS2")]
    CCCS2,
    #[serde(rename = "cG105")]
    CG105,
    #[serde(rename = "cTesla")]
    CTesla,
    #[serde(rename = "cType1")]
    CType1,
    #[serde(rename = "cType2")]
    CType2,
    #[serde(rename = "s309-1P-16A")]
    S3091P16A,
    #[serde(rename = "s309-1P-32A")]
    S3091P32A,
    #[serde(rename = "s309-3P-16A")]
    S3093P16A,
    #[serde(rename = "s309-3P-32A")]
    S3093P32A,
    #[serde(rename = "sBS1361")]
    SBS1361,
    #[serde(rename = "sCEE-7-7")]
    SCEE77,
    #[serde(rename = "sType2")]
    SType2,
    #[serde(rename = "sType3")]
    SType3,
    #[serde(rename = "Other1PhMax16A")]
    Other1PhMax16A,
    #[serde(rename = "Other1PhOver16A")]
    Other1PhOver16A,
    #[serde(rename = "Other3Ph")]
    Other3Ph,
    #[serde(rename = "Pan")]
    Pan,
    #[serde(rename = "wInductive")]
    WInductive,
    #[serde(rename = "wResonant")]
    WResonant,
    #[serde(rename = "Undetermined")]
    Undetermined,
    #[serde(rename = "Unknown")]
    Unknown,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReserveBody {
    #[serde(default)]
    pile_id: String,
    /// 0 = any connector of the charger.
    connector_id: Option<i64>,
    /// OCPP 2.0.1 only: reserve a connector of this type (ReserveNow's
    /// `connectorType`), on the EVSE named or any. A 1.6 pile refuses it.
    connector_type: Option<ConnectorType>,
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    id_tag: names::CardNumber,
    /// Until when (unix seconds).
    expires_at: Option<i64>,
}

/// POST /charger/reserveNow {pileId, connectorId, idTag, expiresAt}
async fn reserve_now(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    use crate::domain::chargers::reservations::{self, Reservation, ReservationStatus};
    let b: ReserveBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let n = connector(&p, b.connector_id, true)?;
    if b.connector_type.is_some() && p.ocpp_version != OcppVersion::V201 {
        return Err(field_invalid("connectorType", msg::chargers::command::connector_type_v201_only(&p.code)));
    }
    let connector_type: Option<v201::ConnectorEnum> = b.connector_type.map(ocpp_value).transpose()?;
    let tag = b.id_tag.trim();
    let Some(card) = cards::get(ctx, tag).await? else {
        return Err(field_invalid("idTag", msg::cards::not_found(&tag)));
    };
    let until = future_time(ctx, "expiresAt", b.expires_at)?;
    let id = reservations::next_id(ctx).await?;
    let r = Reservation {
        id,
        pile_id: p.id.clone(),
        connector: n,
        connector_type: connector_type.as_ref().map(|t| t.as_str().to_string()),
        id_tag: card.id_tag.clone(),
        expires_at: until,
        status: ReservationStatus::Requested,
        answer: None,
        created_at: ctx.now(),
        created_by: by(&call)?,
    };
    reservations::create(ctx, &r).await?;
    if p.ocpp_version == OcppVersion::V201 {
        // 2.0.1 names the reservation `id`, an EVSE (none: any), the card as an idToken.
        let token = |t: String| v201::IdToken { custom_data: None, additional_info: None, id_token: t, r#type: v201::IdTokenEnum::Central };
        let request = v201::ReserveNowRequest {
            custom_data: None,
            id,
            expiry_date_time: DateTime::from_unix(until),
            connector_type,
            id_token: token(card.id_tag),
            evse_id: (n > 0).then_some(i64::from(n)),
            group_id_token: card.parent_id_tag.map(token),
        };
        return queue_v201(ctx, &call, &p, &request).await;
    }
    let request = v16::ReserveNowRequest { connector_id: n.into(), expiry_date: DateTime::from_unix(until), id_tag: card.id_tag, parent_id_tag: card.parent_id_tag, reservation_id: id };
    queue(ctx, &call, &p, &request).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CancelReservationBody {
    reservation_id: Option<i64>,
}

/// POST /charger/cancelReservation {reservationId}
async fn cancel_reservation(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    use crate::domain::chargers::reservations;
    let b: CancelReservationBody = call.req.payload()?;
    let id = b.reservation_id.ok_or_else(|| field_invalid("reservationId", msg::request::required()))?;
    let r = reservations::get(ctx, id).await?.ok_or_else(|| ApiError::not_found(msg::chargers::command::no_such_reservation(&id)))?;
    let p = piles::get_pile(ctx, &r.pile_id).await?;
    if p.ocpp_version == OcppVersion::V201 {
        return queue_v201(ctx, &call, &p, &v201::CancelReservationRequest { custom_data: None, reservation_id: id }).await;
    }
    queue(ctx, &call, &p, &v16::CancelReservationRequest { reservation_id: id }).await
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PileQuery {
    pile_id: String,
}

#[derive(Serialize, JsonSchema)]
pub struct ReservationList {
    list: Vec<crate::domain::chargers::reservations::Reservation>,
}

/// GET /charger/reservations?pileId=
async fn reservation_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: PileQuery = call.query()?;
    let p = pile(ctx, &q.pile_id).await?;
    let list = crate::domain::chargers::reservations::list(ctx, &p.id, 100).await?;
    Ok(Reply::data(ReservationList { list }))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FirmwareBody {
    #[serde(default)]
    pile_id: String,
    /// Where the charger fetches the firmware (http, https, ftp, ftps).
    #[serde(default)]
    #[schemars(length(min = 1, max = 512))]
    location: String,
    /// When to fetch it (unix seconds; default now).
    retrieve_at: Option<i64>,
    #[schemars(range(min = 0, max = 10))]
    retries: Option<u32>,
    #[schemars(range(min = 0, max = 86400))]
    retry_interval_secs: Option<u32>,
}

/// POST /charger/updateFirmware {pileId, location, retrieveAt?, retries?, retryIntervalSecs?}
async fn update_firmware(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: FirmwareBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let location = location("location", &b.location)?;
    let at = match b.retrieve_at {
        Some(t) if t < ctx.now() - 60 => return Err(field_invalid("retrieveAt", msg::chargers::command::not_in_past())),
        Some(t) => t,
        None => ctx.now(),
    };
    if p.ocpp_version.is_ykc() {
        // YKC fetches now, over FTP, with the location's parts in fixed fields.
        let update = ykc_calls::update_call(&location, p.pile_type == charging::connector::PileType::Dc, p.rated_power_kw)
            .map_err(|_| crate::request::field_invalid("location", msg::chargers::ykc::bad_firmware_location(16, 32)))?;
        return queue_ykc(ctx, &call, &p, ykc_calls::UPDATE, serde_json::to_value(update).map_err(|_| ApiError::internal())?).await;
    }
    if p.ocpp_version == OcppVersion::V201 {
        let firmware = v201::Firmware { custom_data: None, location, retrieve_date_time: DateTime::from_unix(at), install_date_time: None, signing_certificate: None, signature: None };
        let (retries, retry_interval) = (b.retries.filter(|r| *r <= 10).map(i64::from), b.retry_interval_secs.filter(|i| *i <= 86_400).map(i64::from));
        let request = v201::UpdateFirmwareRequest { custom_data: None, retries, retry_interval, request_id: commands::next_request_id(ctx).await?, firmware };
        return queue_v201(ctx, &call, &p, &request).await;
    }
    let request = v16::UpdateFirmwareRequest {
        location,
        retries: b.retries.filter(|r| *r <= 10).map(i64::from),
        retrieve_date: DateTime::from_unix(at),
        retry_interval: b.retry_interval_secs.filter(|i| *i <= 86_400).map(i64::from),
    };
    queue(ctx, &call, &p, &request).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiagnosticsBody {
    #[serde(default)]
    pile_id: String,
    /// Where the charger uploads (http, https, ftp, ftps).
    #[serde(default)]
    #[schemars(length(min = 1, max = 512))]
    location: String,
    /// Logs from / to (unix seconds), optional.
    start_at: Option<i64>,
    stop_at: Option<i64>,
}

/// POST /charger/getDiagnostics {pileId, location, startAt?, stopAt?}
async fn get_diagnostics(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: DiagnosticsBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let location = location("location", &b.location)?;
    if let (Some(a), Some(z)) = (b.start_at, b.stop_at) {
        if a > z {
            return Err(field_invalid("stopAt", msg::chargers::command::after(&"startAt")));
        }
    }
    let request = v16::GetDiagnosticsRequest { location, retries: None, retry_interval: None, start_time: b.start_at.map(DateTime::from_unix), stop_time: b.stop_at.map(DateTime::from_unix) };
    queue(ctx, &call, &p, &request).await
}

/// The root certificates a charger holds: OCPP 1.6's CertificateUseEnumType
/// (a 2.0.1 station is sent CentralSystemRootCertificate as its
/// CSMSRootCertificate), and the V2G and MO roots only 2.0.1 stations hold.
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum CertificateUse {
    CentralSystemRootCertificate,
    ManufacturerRootCertificate,
    V2GRootCertificate,
    MORootCertificate,
}

impl From<CertificateUse> for certificates::CertificateType {
    fn from(u: CertificateUse) -> Self {
        match u {
            CertificateUse::CentralSystemRootCertificate => certificates::CertificateType::CentralSystemRootCertificate,
            CertificateUse::ManufacturerRootCertificate => certificates::CertificateType::ManufacturerRootCertificate,
            CertificateUse::V2GRootCertificate => certificates::CertificateType::V2GRootCertificate,
            CertificateUse::MORootCertificate => certificates::CertificateType::MORootCertificate,
        }
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstallCertificateBody {
    #[serde(default)]
    pile_id: String,
    certificate_type: Option<CertificateUse>,
    /// The root certificate, PEM.
    #[serde(default)]
    #[schemars(length(min = 1, max = 5500))]
    certificate: String,
}

/// POST /charger/installCertificate {pileId, certificateType, certificate}
async fn install_certificate(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: InstallCertificateBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let kind = b.certificate_type.ok_or_else(|| field_invalid("certificateType", msg::request::required()))?;
    if b.certificate.trim().is_empty() {
        return Err(field_invalid("certificate", msg::request::required()));
    }
    if p.ocpp_version == OcppVersion::V201 {
        return queue_v201(ctx, &call, &p, &certificates::install_certificate_request_v201(kind.into(), &b.certificate)?).await;
    }
    let request = certificates::install_certificate_request(kind.into(), &b.certificate)?;
    queue(ctx, &call, &p, &request).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateKindBody {
    #[serde(default)]
    pile_id: String,
    certificate_type: Option<CertificateUse>,
}

/// POST /charger/getInstalledCertificateIds {pileId, certificateType}
async fn get_installed_certificate_ids(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: CertificateKindBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let kind = b.certificate_type.ok_or_else(|| field_invalid("certificateType", msg::request::required()))?;
    if p.ocpp_version == OcppVersion::V201 {
        let asked: v201::GetCertificateIdUseEnum = ocpp_value(certificates::certificate_use_v201(kind.into())?)?;
        return queue_v201(ctx, &call, &p, &v201::GetInstalledCertificateIdsRequest { custom_data: None, certificate_type: Some(vec![asked]) }).await;
    }
    queue(ctx, &call, &p, &v16::GetInstalledCertificateIdsRequest { certificate_type: ocpp_value(certificates::certificate_use(kind.into())?)? }).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateSerialBody {
    #[serde(default)]
    pile_id: String,
    /// The certificate's serial number (hex) in the pile's list.
    #[serde(default)]
    #[schemars(length(min = 1, max = 40))]
    serial: String,
}

/// POST /charger/deleteCertificate {pileId, serial}
async fn delete_certificate(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: CertificateSerialBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    if b.serial.trim().is_empty() {
        return Err(field_invalid("serial", msg::request::required()));
    }
    let c = certificates::find_by_serial(ctx, &p.id, &b.serial).await?;
    if c.origin == certificates::Origin::Issued {
        return Err(field_invalid("serial", msg::chargers::command::own_certificate()));
    }
    let payload = certificates::delete_certificate_payload(&c)?;
    let unreadable = |e: ocpp::schema::Violation| field_invalid("serial", msg::chargers::command::unreadable_certificate(&e));
    if p.ocpp_version == OcppVersion::V201 {
        let request: v201::DeleteCertificateRequest = ocpp::schema::parse(&payload, Mode::Strict).map_err(unreadable)?;
        return queue_v201(ctx, &call, &p, &request).await;
    }
    let request: v16::DeleteCertificateRequest = ocpp::schema::parse(&payload, Mode::Strict).map_err(unreadable)?;
    queue(ctx, &call, &p, &request).await
}

/// POST /charger/certificateSigned {pileId, serial}
async fn certificate_signed(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: CertificateSerialBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    if b.serial.trim().is_empty() {
        return Err(field_invalid("serial", msg::request::required()));
    }
    let c = certificates::find_by_serial(ctx, &p.id, &b.serial).await?;
    let chain = certificates::issued_chain(ctx, &c)?;
    if p.ocpp_version == OcppVersion::V201 {
        let request = v201::CertificateSignedRequest { custom_data: None, certificate_chain: chain, certificate_type: Some(v201::CertificateSigningUseEnum::ChargingStationCertificate) };
        return queue_v201(ctx, &call, &p, &request).await;
    }
    queue(ctx, &call, &p, &v16::CertificateSignedRequest { certificate_chain: chain }).await
}

/// The messages ExtendedTriggerMessage can ask for (OCPP 1.6 security
/// whitepaper MessageTriggerEnumType).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum ExtendedTrigger {
    BootNotification,
    LogStatusNotification,
    FirmwareStatusNotification,
    Heartbeat,
    MeterValues,
    SignChargePointCertificate,
    StatusNotification,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtendedTriggerBody {
    #[serde(default)]
    pile_id: String,
    requested_message: Option<ExtendedTrigger>,
    /// Optional: the connector the message is about.
    connector_id: Option<i64>,
}

/// POST /charger/extendedTrigger {pileId, requestedMessage, connectorId?}
async fn extended_trigger(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ExtendedTriggerBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let message = b.requested_message.ok_or_else(|| field_invalid("requestedMessage", msg::request::required()))?;
    let connector_id = optional_connector(&p, b.connector_id)?;
    if p.ocpp_version == OcppVersion::V201 {
        // 2.0.1's TriggerMessage takes the extended messages, the CSR under its 2.0.1 name.
        let requested_message = match message {
            ExtendedTrigger::SignChargePointCertificate => v201::MessageTriggerEnum::SignChargingStationCertificate,
            other => ocpp_value(other)?,
        };
        let one_connector = matches!(message, ExtendedTrigger::StatusNotification).then_some(1);
        let evse = connector_id.map(|n| v201::EVSE { custom_data: None, id: n, connector_id: one_connector });
        return queue_v201(ctx, &call, &p, &v201::TriggerMessageRequest { custom_data: None, evse, requested_message }).await;
    }
    queue(ctx, &call, &p, &v16::ExtendedTriggerMessageRequest { requested_message: ocpp_value(message)?, connector_id }).await
}

/// Which log GetLog asks for (OCPP 1.6 security whitepaper LogEnumType).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum LogType {
    DiagnosticsLog,
    SecurityLog,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GetLogBody {
    #[serde(default)]
    pile_id: String,
    log_type: Option<LogType>,
    /// Where the charger uploads (http, https, ftp, ftps).
    #[serde(default)]
    #[schemars(length(min = 1, max = 512))]
    location: String,
    /// The oldest and latest entries wanted (unix seconds), optional.
    oldest_at: Option<i64>,
    latest_at: Option<i64>,
    #[schemars(range(min = 0, max = 10))]
    retries: Option<u32>,
    #[schemars(range(min = 0, max = 86400))]
    retry_interval_secs: Option<u32>,
}

/// The `retries` and `retryIntervalSecs` of an upload or download: a 400
/// naming the field past its range.
pub(super) fn retries(retries: Option<u32>, interval: Option<u32>) -> Result<(Option<i64>, Option<i64>), ApiError> {
    if retries.is_some_and(|r| r > 10) {
        return Err(field_invalid("retries", msg::chargers::command::range(&10, &0)));
    }
    if interval.is_some_and(|i| i > 86_400) {
        return Err(field_invalid("retryIntervalSecs", msg::chargers::command::range(&86400, &0)));
    }
    Ok((retries.map(i64::from), interval.map(i64::from)))
}

/// POST /charger/getLog {pileId, logType, location, oldestAt?, latestAt?, retries?, retryIntervalSecs?}
async fn get_log(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: GetLogBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let log_type = b.log_type.ok_or_else(|| field_invalid("logType", msg::request::required()))?;
    let remote_location = location("location", &b.location)?;
    if let (Some(a), Some(z)) = (b.oldest_at, b.latest_at) {
        if a > z {
            return Err(field_invalid("latestAt", msg::chargers::command::after(&"oldestAt")));
        }
    }
    let (retries, retry_interval) = retries(b.retries, b.retry_interval_secs)?;
    if p.ocpp_version == OcppVersion::V201 {
        let log = v201::LogParameters { custom_data: None, remote_location, oldest_timestamp: b.oldest_at.map(DateTime::from_unix), latest_timestamp: b.latest_at.map(DateTime::from_unix) };
        let request = v201::GetLogRequest { custom_data: None, log, log_type: ocpp_value(log_type)?, request_id: commands::next_request_id(ctx).await?, retries, retry_interval };
        return queue_v201(ctx, &call, &p, &request).await;
    }
    let request = v16::GetLogRequest {
        log: v16::LogParameters { remote_location, oldest_timestamp: b.oldest_at.map(DateTime::from_unix), latest_timestamp: b.latest_at.map(DateTime::from_unix) },
        log_type: ocpp_value(log_type)?,
        request_id: commands::next_request_id(ctx).await?,
        retries,
        retry_interval,
    };
    queue(ctx, &call, &p, &request).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignedFirmwareBody {
    #[serde(default)]
    pile_id: String,
    /// Where the charger fetches the firmware (http, https, ftp, ftps).
    #[serde(default)]
    #[schemars(length(min = 1, max = 512))]
    location: String,
    /// When to fetch it (unix seconds; default now).
    retrieve_at: Option<i64>,
    /// When to install it (unix seconds; default: once fetched and verified).
    install_at: Option<i64>,
    /// The certificate that signed the firmware, PEM (the charger checks it
    /// against its ManufacturerRootCertificate).
    #[serde(default)]
    #[schemars(length(min = 1, max = 5500))]
    signing_certificate: String,
    /// The firmware's signature, base64.
    #[serde(default)]
    #[schemars(length(min = 1, max = 800))]
    signature: String,
    #[schemars(range(min = 0, max = 10))]
    retries: Option<u32>,
    #[schemars(range(min = 0, max = 86400))]
    retry_interval_secs: Option<u32>,
}

/// POST /charger/signedUpdateFirmware {pileId, location, retrieveAt?, installAt?, signingCertificate, signature, retries?, retryIntervalSecs?}
async fn signed_update_firmware(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    use base64::Engine as _;
    let b: SignedFirmwareBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let location = location("location", &b.location)?;
    let retrieve_at = match b.retrieve_at {
        Some(t) if t < ctx.now() - 60 => return Err(field_invalid("retrieveAt", msg::chargers::command::not_in_past())),
        Some(t) => t,
        None => ctx.now(),
    };
    if b.install_at.is_some_and(|t| t < retrieve_at) {
        return Err(field_invalid("installAt", msg::chargers::command::not_before(&"retrieveAt")));
    }
    let signing_certificate = b.signing_certificate.trim();
    if signing_certificate.is_empty() {
        return Err(field_invalid("signingCertificate", msg::request::required()));
    }
    certificates::check_certificate_pem("signingCertificate", signing_certificate, certificates::MAX_CERTIFICATE_CHARS, false)?;
    let signature = b.signature.trim();
    if signature.is_empty() || signature.len() > 800 || base64::engine::general_purpose::STANDARD.decode(signature).is_err() {
        return Err(field_invalid("signature", msg::chargers::command::signature(&800)));
    }
    let (retries, retry_interval) = retries(b.retries, b.retry_interval_secs)?;
    if p.ocpp_version == OcppVersion::V201 {
        // 2.0.1 has one UpdateFirmware, signed or not.
        let firmware = v201::Firmware {
            custom_data: None,
            location,
            retrieve_date_time: DateTime::from_unix(retrieve_at),
            install_date_time: b.install_at.map(DateTime::from_unix),
            signing_certificate: Some(signing_certificate.to_string()),
            signature: Some(signature.to_string()),
        };
        let request = v201::UpdateFirmwareRequest { custom_data: None, retries, retry_interval, request_id: commands::next_request_id(ctx).await?, firmware };
        return queue_v201(ctx, &call, &p, &request).await;
    }
    let request = v16::SignedUpdateFirmwareRequest {
        retries,
        retry_interval,
        request_id: commands::next_request_id(ctx).await?,
        firmware: v16::Firmware {
            location,
            retrieve_date_time: DateTime::from_unix(retrieve_at),
            install_date_time: b.install_at.map(DateTime::from_unix),
            signing_certificate: signing_certificate.to_string(),
            signature: signature.to_string(),
        },
    };
    queue(ctx, &call, &p, &request).await
}

/// A YKC pile's offline cards: the usable cards (Full: all; Differential:
/// those changed since its last accepted sync) go in sync frames of 15,
/// a differential list's unusable ones in clear frames of 24, each its own
/// command (the queue sends them one after the other). Cards whose number
/// is not hex cannot be sent and are left out.
async fn ykc_local_list(ctx: &AppCtx, call: &Call, p: &Pile, kind: UpdateType) -> Result<Reply, ApiError> {
    let (recent, _) = commands::list(ctx, &p.id, 200, None).await?;
    let synced = |c: &&Command| c.action == ykc_calls::OFFLINE_CARD_SYNC && c.status == commands::CommandStatus::Answered && c.response.as_ref().and_then(|r| r.get("status")).and_then(Value::as_str) == Some("Accepted");
    let since = match kind {
        UpdateType::Full => 0,
        UpdateType::Differential => recent.iter().find(synced).and_then(|c| c.answered_at).unwrap_or(0),
    };
    let (all, total) = cards::list(ctx, None, None, 1, MAX_LOCAL_LIST).await?;
    if total > MAX_LOCAL_LIST as u64 && kind == UpdateType::Full {
        return Err(field_invalid("updateType", msg::chargers::command::full_list_too_long(&MAX_LOCAL_LIST, &total)));
    }
    let (now, minimum) = (ctx.now(), charging::Fen(crate::domain::operations::current(ctx).await?.prepaid_minimum_fen));
    let (mut add, mut remove) = (Vec::new(), Vec::new());
    for view in all.iter().filter(|v| kind == UpdateType::Full || v.card.updated_at >= since) {
        let tag = view.card.id_tag.clone();
        if ykc_calls::physical_card(&tag).is_err() {
            continue;
        }
        match cards::judge(Some(view), now, minimum).status {
            cards::CardStatus::Accepted => add.push(tag),
            _ if kind == UpdateType::Differential => remove.push(tag),
            _ => {}
        }
    }
    if add.is_empty() && remove.is_empty() {
        return Err(crate::request::field_invalid("updateType", msg::chargers::ykc::no_cards_to_send()));
    }
    let by = by(call)?;
    let mut last = None;
    for chunk in add.chunks(ykc_calls::CARDS_PER_SYNC) {
        let payload = serde_json::to_value(ykc_calls::OfflineCardSyncCall { id_tags: chunk.to_vec() }).map_err(|_| ApiError::internal())?;
        last = Some(commands::submit_ykc(ctx, &p.id, ykc_calls::OFFLINE_CARD_SYNC, payload, &by).await?);
    }
    for chunk in remove.chunks(ykc_calls::CARDS_PER_CLEAR) {
        let payload = serde_json::to_value(ykc_calls::OfflineCardClearCall { id_tags: chunk.to_vec() }).map_err(|_| ApiError::internal())?;
        last = Some(commands::submit_ykc(ctx, &p.id, ykc_calls::OFFLINE_CARD_CLEAR, payload, &by).await?);
    }
    answered_now(last.ok_or_else(ApiError::internal)?)
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq)]
pub enum UpdateType {
    Full,
    Differential,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LocalListBody {
    #[serde(default)]
    pile_id: String,
    update_type: Option<UpdateType>,
    /// The list version the charger ends up with (must grow; default: the last sent + 1).
    #[schemars(range(min = 1))]
    list_version: Option<i64>,
}

/// The most cards one local list carries.
const MAX_LOCAL_LIST: u32 = 1000;

/// POST /charger/sendLocalList {pileId, updateType, listVersion?}: Full sends
/// every card (up to 1000); Differential the cards changed since the last
/// list this charger accepted.
async fn send_local_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: LocalListBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let kind = b.update_type.ok_or_else(|| field_invalid("updateType", msg::chargers::command::update_type_required()))?;
    if p.ocpp_version.is_ykc() {
        return ykc_local_list(ctx, &call, &p, kind).await;
    }
    // The last list this charger accepted, from its commands.
    let (recent, _) = commands::list(ctx, &p.id, 200, None).await?;
    let last = recent.iter().find(|c| c.action == "SendLocalList" && c.status == commands::CommandStatus::Answered && c.response.as_ref().and_then(|r| r.get("status")).and_then(Value::as_str) == Some("Accepted"));
    // 1.6 says listVersion, 2.0.1 versionNumber.
    let last_version = last.and_then(|c| c.payload.get("listVersion").or_else(|| c.payload.get("versionNumber"))).and_then(Value::as_i64).unwrap_or(0);
    let since = last.and_then(|c| c.answered_at).unwrap_or(0);
    let version = b.list_version.unwrap_or(last_version + 1);
    if version <= last_version {
        return Err(field_invalid("listVersion", msg::chargers::command::list_version_above(&last_version)));
    }
    let (all, total) = cards::list(ctx, None, None, 1, MAX_LOCAL_LIST).await?;
    if total > MAX_LOCAL_LIST as u64 && kind == UpdateType::Full {
        return Err(field_invalid("updateType", msg::chargers::command::full_list_too_long(&MAX_LOCAL_LIST, &total)));
    }
    // A prepaid card short of the minimum is listed Blocked, as Authorize answers.
    let (now, minimum) = (ctx.now(), charging::Fen(crate::domain::operations::current(ctx).await?.prepaid_minimum_fen));
    let judged: Vec<(String, Option<cards::TokenType>, cards::IdTagInfo)> = all
        .iter()
        .filter(|c| kind == UpdateType::Full || c.card.updated_at >= since)
        .map(|view| {
            let c = &view.card;
            (c.id_tag.clone(), c.token_type, cards::IdTagInfo { status: cards::judge(Some(view), now, minimum).status, expiry_date: c.expires_at, parent_id_tag: c.parent_id_tag.clone() })
        })
        .collect();
    if p.ocpp_version == OcppVersion::V201 {
        // A station matches a presented token by number and type: a typed
        // card goes as its type, one of no type as Central (the product's).
        let list = judged
            .into_iter()
            .map(|(tag, token_type, info)| v201::AuthorizationData {
                custom_data: None,
                id_token: v201::IdToken { custom_data: None, additional_info: None, id_token: tag, r#type: crate::domain::chargers::v201::token_type_of(token_type) },
                id_token_info: Some(crate::domain::chargers::v201::id_token_info(&info)),
            })
            .collect();
        let request = v201::SendLocalListRequest { custom_data: None, local_authorization_list: Some(list), version_number: version, update_type: ocpp_value(kind)? };
        return queue_v201(ctx, &call, &p, &request).await;
    }
    let entries: Vec<v16::AuthorizationData> = judged
        .into_iter()
        .map(|(id_tag, _, info)| v16::AuthorizationData { id_tag, id_tag_info: Some(crate::domain::chargers::application::id_tag_info(&info)) })
        .collect();
    let request = v16::SendLocalListRequest { list_version: version, local_authorization_list: Some(entries), update_type: ocpp_value(kind)? };
    queue(ctx, &call, &p, &request).await
}

/// POST /charger/getLocalListVersion {pileId}
async fn get_local_list_version(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: PileBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    if p.ocpp_version == OcppVersion::V201 {
        return queue_v201(ctx, &call, &p, &v201::GetLocalListVersionRequest { custom_data: None }).await;
    }
    queue(ctx, &call, &p, &v16::GetLocalListVersionRequest {}).await
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProfilePurpose {
    /// The default for new sessions on the connector (or all, connector 0).
    TxDefaultProfile,
    /// The whole charger's limit (connector 0 only).
    ChargePointMaxProfile,
    /// The running session's limit (a connector with a session only).
    TxProfile,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProfileKind {
    /// The schedule starts at `startSchedule` (default now).
    Absolute,
    /// The schedule starts again every day or week from `startSchedule`.
    Recurring,
    /// The schedule starts when the session starts (no `startSchedule`).
    Relative,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
pub enum RecurrencyKind {
    Daily,
    Weekly,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
pub enum RateUnit {
    W,
    A,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Period {
    /// Seconds from the start of the schedule.
    pub start_period: i64,
    /// The limit in the schedule's unit (W or A), one decimal at most.
    pub limit: f64,
    /// Phases the charger may use in this period (1-3; absent: 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 3))]
    pub number_phases: Option<i64>,
}

#[derive(Deserialize, JsonSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct ProfileBody {
    #[serde(default)]
    pile_id: String,
    /// 0 = the whole charger.
    connector_id: Option<i64>,
    purpose: Option<ProfilePurpose>,
    /// TxProfile only: the running transaction it limits (default: the one
    /// open on the connector; refused when none is).
    transaction_id: Option<i64>,
    #[serde(flatten)]
    profile: ProfileSpec,
}

/// A charging profile's own fields (SetChargingProfile, and the TxProfile of
/// a remote start).
#[derive(Deserialize, JsonSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct ProfileSpec {
    /// The profile's id on the charger (1-2147483647; default 100 for a
    /// ChargePointMaxProfile, 200 + the connector for the others, 1 on a
    /// remote start). The charger replaces a profile it holds with the same
    /// id, or with the same purpose and stack level on the same connector:
    /// choosing the id chooses what is replaced.
    #[schemars(range(min = 1, max = 2147483647))]
    charging_profile_id: Option<i64>,
    /// 0-99 (default 0): of the profiles of one purpose in force, the
    /// charger follows the highest level.
    #[schemars(range(min = 0, max = 99))]
    stack_level: Option<i64>,
    /// Default Absolute (Relative on a remote start).
    kind: Option<ProfileKind>,
    /// Required with kind Recurring (and only then).
    recurrency_kind: Option<RecurrencyKind>,
    /// From when the profile is in force (unix seconds; default: at once).
    valid_from: Option<i64>,
    /// Until when the profile is in force (unix seconds, after validFrom and
    /// after now; default: until replaced or cleared).
    valid_to: Option<i64>,
    /// When the schedule starts (unix seconds): Absolute and Recurring only
    /// (default now); a Relative schedule starts with the session.
    start_schedule: Option<i64>,
    /// How long the schedule lasts (seconds, 1 s to one year; at most a day
    /// for Daily and a week for Weekly recurrence; default: the last period
    /// goes on until the profile ends).
    #[schemars(range(min = 1, max = 31536000))]
    duration: Option<i64>,
    /// The lowest rate the vehicle draws efficiently, in the schedule's unit
    /// (one decimal at most).
    #[schemars(range(min = 0))]
    min_charging_rate: Option<f64>,
    /// W (default) or A.
    unit: Option<RateUnit>,
    /// At least one period; the first starts at 0; starts grow (and stay
    /// below the duration).
    #[schemars(length(min = 1, max = 48))]
    periods: Vec<Period>,
}

/// The largest stack level accepted (chargers advertise their own maximum as
/// ChargeProfileMaxStackLevel; 99 is above any seen and keeps typos out).
pub(super) const MAX_STACK_LEVEL: i64 = 99;
/// A limit above these is a typo (2 MW, 2 kA), not a charger.
const MAX_LIMIT_W: f64 = 2_000_000.0;
const MAX_LIMIT_A: f64 = 2_000.0;

/// A rate with at most one decimal (the schema's multipleOf 0.1), sent rounded
/// so the float's binary noise never reaches the charger.
fn one_decimal(field: &str, v: f64, max: f64, unit: RateUnit) -> Result<f64, ApiError> {
    let unit = if unit == RateUnit::A { "A" } else { "W" };
    if !(v.is_finite() && v >= 0.0) {
        return Err(field_invalid(field, msg::chargers::command::not_negative()));
    }
    if v > max {
        return Err(field_invalid(field, msg::chargers::command::at_most(&max, &unit)));
    }
    let tenths = (v * 10.0).round();
    if (tenths - v * 10.0).abs() > 1e-6 {
        return Err(field_invalid(field, msg::chargers::command::one_decimal()));
    }
    Ok(tenths / 10.0)
}

/// A unix time the charger can be sent (year 2000 to 9999).
fn timestamp(field: &str, ts: i64) -> Result<DateTime, ApiError> {
    if !(946_684_800..253_402_300_800).contains(&ts) {
        return Err(field_invalid(field, msg::chargers::command::time()));
    }
    Ok(DateTime::from_unix(ts))
}

/// The `csChargingProfiles` of a SetChargingProfile for connector `n`
/// (`tx`: the transaction a TxProfile limits, found by the handler).
fn profile_for(b: &ProfileBody, now: i64, n: u32, tx: Option<i64>) -> Result<v16::ChargingProfile, ApiError> {
    let purpose = profile_target(b, n)?;
    if purpose == ProfilePurpose::TxProfile && tx.is_none() {
        return Err(field_invalid("transactionId", msg::chargers::command::tx_profile_needs_transaction()));
    }
    let default_id = if purpose == ProfilePurpose::ChargePointMaxProfile { 100 } else { 200 + n as i64 };
    charging_profile(&b.profile, purpose, now, tx, default_id, ProfileKind::Absolute, "")
}

/// A charging profile checked field by field (a 400 naming the first bad
/// one, under `at`: the path of the profile in the body, `chargingProfile.`
/// inside a remote start, nothing in a SetChargingProfile): the ids and kind
/// not given take the defaults passed.
fn charging_profile(b: &ProfileSpec, purpose: ProfilePurpose, now: i64, tx: Option<i64>, default_id: i64, default_kind: ProfileKind, at: &str) -> Result<v16::ChargingProfile, ApiError> {
    let field = |name: &str| format!("{at}{name}");
    let id = match b.charging_profile_id {
        Some(id) if (1..=i32::MAX as i64).contains(&id) => id,
        Some(_) => return Err(field_invalid(&field("chargingProfileId"), msg::chargers::command::range(&i32::MAX, &1))),
        None => default_id,
    };
    let level = b.stack_level.unwrap_or(0);
    if !(0..=MAX_STACK_LEVEL).contains(&level) {
        return Err(field_invalid(&field("stackLevel"), msg::chargers::command::range(&MAX_STACK_LEVEL, &0)));
    }
    let kind = b.kind.unwrap_or(default_kind);
    let recurrency_kind = match (kind, b.recurrency_kind) {
        (ProfileKind::Recurring, Some(r)) => Some(ocpp_value(r)?),
        (ProfileKind::Recurring, None) => return Err(field_invalid(&field("recurrencyKind"), msg::chargers::command::recurrency_required())),
        (_, Some(_)) => return Err(field_invalid(&field("recurrencyKind"), msg::chargers::command::recurrency_recurring_only())),
        (_, None) => None,
    };
    let valid_from = b.valid_from.map(|from| timestamp(&field("validFrom"), from)).transpose()?;
    let valid_to = match b.valid_to {
        Some(to) => {
            let at = timestamp(&field("validTo"), to)?;
            if to <= now {
                return Err(field_invalid(&field("validTo"), msg::chargers::command::in_future()));
            }
            if b.valid_from.is_some_and(|from| from >= to) {
                return Err(field_invalid(&field("validTo"), msg::chargers::command::after(&"validFrom")));
            }
            Some(at)
        }
        None => None,
    };
    let unit = b.unit.unwrap_or(RateUnit::W);
    let start_schedule = match (kind, b.start_schedule) {
        (ProfileKind::Relative, Some(_)) => return Err(field_invalid(&field("startSchedule"), msg::chargers::command::relative_no_start())),
        (ProfileKind::Relative, None) => None,
        (_, at) => Some(timestamp(&field("startSchedule"), at.unwrap_or(now))?),
    };
    if let Some(d) = b.duration {
        let most = match b.recurrency_kind {
            Some(RecurrencyKind::Daily) if kind == ProfileKind::Recurring => 86_400,
            Some(RecurrencyKind::Weekly) if kind == ProfileKind::Recurring => 604_800,
            _ => 31_536_000,
        };
        if !(1..=most).contains(&d) {
            return Err(field_invalid(&field("duration"), msg::chargers::command::range_seconds(&most, &1)));
        }
    }
    let max = if unit == RateUnit::A { MAX_LIMIT_A } else { MAX_LIMIT_W };
    let min_charging_rate = b.min_charging_rate.map(|rate| one_decimal(&field("minChargingRate"), rate, max, unit)).transpose()?;
    if b.periods.is_empty() || b.periods.len() > 48 {
        return Err(field_invalid(&field("periods"), msg::chargers::command::period_count(&48)));
    }
    let mut periods = Vec::with_capacity(b.periods.len());
    for (i, pr) in b.periods.iter().enumerate() {
        let limit = one_decimal(&format!("{at}periods[{i}].limit"), pr.limit, max, unit)?;
        let ordered = if i == 0 { pr.start_period == 0 } else { pr.start_period > b.periods[i - 1].start_period };
        if !ordered {
            return Err(field_invalid(&format!("{at}periods[{i}].startPeriod"), msg::chargers::command::period_order()));
        }
        if b.duration.is_some_and(|d| pr.start_period >= d) {
            return Err(field_invalid(&format!("{at}periods[{i}].startPeriod"), msg::chargers::command::period_within_duration()));
        }
        let number_phases = match pr.number_phases {
            Some(ph) if (1..=3).contains(&ph) => Some(ph),
            Some(_) => return Err(field_invalid(&format!("{at}periods[{i}].numberPhases"), msg::chargers::command::number_phases())),
            None => None,
        };
        periods.push(v16::ChargingSchedulePeriod { start_period: pr.start_period, limit, number_phases });
    }
    Ok(v16::ChargingProfile {
        charging_profile_id: id,
        transaction_id: tx,
        stack_level: level,
        charging_profile_purpose: ocpp_value(purpose)?,
        charging_profile_kind: ocpp_value(kind)?,
        recurrency_kind,
        valid_from,
        valid_to,
        charging_schedule: v16::ChargingSchedule { duration: b.duration, start_schedule, charging_rate_unit: ocpp_value(unit)?, charging_schedule_period: periods, min_charging_rate },
    })
}

/// The profile's purpose, checked against the connector it is sent to.
fn profile_target(b: &ProfileBody, n: u32) -> Result<ProfilePurpose, ApiError> {
    let purpose = b.purpose.ok_or_else(|| field_invalid("purpose", msg::chargers::command::purpose_required()))?;
    match purpose {
        ProfilePurpose::ChargePointMaxProfile if n != 0 => Err(field_invalid("connectorId", msg::chargers::command::max_profile_connector_zero())),
        ProfilePurpose::TxProfile if n == 0 => Err(field_invalid("connectorId", msg::chargers::command::tx_profile_connector())),
        _ if purpose != ProfilePurpose::TxProfile && b.transaction_id.is_some() => Err(field_invalid("transactionId", msg::chargers::command::tx_profile_only())),
        _ => Ok(purpose),
    }
}

/// POST /charger/setChargingProfile {pileId, connectorId, purpose, periods, ...}
async fn set_charging_profile(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ProfileBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let n = connector(&p, b.connector_id, true)?;
    let tx = match profile_target(&b, n)? {
        ProfilePurpose::TxProfile => Some(running_transaction(ctx, &p, n, b.transaction_id).await?),
        _ => None,
    };
    let profile = profile_for(&b, ctx.now(), n, tx)?;
    let request = v16::SetChargingProfileRequest { connector_id: n.into(), cs_charging_profiles: profile };
    if p.ocpp_version == OcppVersion::V201 {
        // A TxProfile names the station's own id of the transaction.
        let transaction = match tx {
            Some(id) => sessions::get_transaction(ctx, id).await?.and_then(|t| t.charger_transaction_id),
            None => None,
        };
        return queue_v201(ctx, &call, &p, &smart_v201::set_request(&request, transaction)).await;
    }
    queue(ctx, &call, &p, &request).await
}

/// The transaction running on connector `n` of `p`: the one named (checked to
/// be there and running) or the connector's open one.
async fn running_transaction(ctx: &AppCtx, p: &Pile, n: u32, named: Option<i64>) -> Result<i64, ApiError> {
    match named {
        Some(id) => match sessions::get_transaction(ctx, id).await? {
            Some(t) if t.pile_id == p.id && t.connector == n && t.stop_ts.is_none() => Ok(id),
            Some(t) if t.stop_ts.is_some() => Err(field_invalid("transactionId", msg::chargers::command::transaction_stopped(&id))),
            Some(_) => Err(field_invalid("transactionId", msg::chargers::command::transaction_not_on(&p.code, &n, &id))),
            None => Err(field_invalid("transactionId", msg::chargers::command::no_transaction(&id))),
        },
        None => match sessions::open_on(ctx, &p.id, n).await? {
            Some(t) => Ok(t.transaction_id),
            None => Err(field_invalid("connectorId", msg::chargers::command::no_session_for_tx_profile(&p.code, &n))),
        },
    }
}

#[derive(Deserialize, JsonSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct ClearProfileBody {
    #[serde(default)]
    pile_id: String,
    /// The profile with this id (1-2147483647). A charger given an id clears
    /// that profile and ignores the other criteria (OCPP 1.6).
    #[schemars(range(min = 1, max = 2147483647))]
    id: Option<i64>,
    /// The profiles of this connector (0 = those of the whole charger).
    connector_id: Option<i64>,
    /// The profiles of this purpose.
    purpose: Option<ProfilePurpose>,
    /// The profiles at this stack level (0-99).
    #[schemars(range(min = 0, max = 99))]
    stack_level: Option<i64>,
}

/// The criteria of a ClearChargingProfile (`connector`: already checked
/// against the pile); none at all clears every profile the charger holds.
fn clear_criteria(b: &ClearProfileBody, connector: Option<u32>) -> Result<v16::ClearChargingProfileRequest, ApiError> {
    let id = match b.id {
        Some(id) if (1..=i32::MAX as i64).contains(&id) => Some(id),
        Some(_) => return Err(field_invalid("id", msg::chargers::command::range(&i32::MAX, &1))),
        None => None,
    };
    let stack_level = match b.stack_level {
        Some(level) if (0..=MAX_STACK_LEVEL).contains(&level) => Some(level),
        Some(_) => return Err(field_invalid("stackLevel", msg::chargers::command::range(&MAX_STACK_LEVEL, &0))),
        None => None,
    };
    let charging_profile_purpose = b.purpose.map(ocpp_value).transpose()?;
    Ok(v16::ClearChargingProfileRequest { id, connector_id: connector.map(i64::from), charging_profile_purpose, stack_level })
}

/// POST /charger/clearChargingProfile {pileId, id?, connectorId?, purpose?, stackLevel?}
async fn clear_charging_profile(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ClearProfileBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let n = match b.connector_id {
        Some(_) => Some(connector(&p, b.connector_id, true)?),
        None => None,
    };
    let request = clear_criteria(&b, n)?;
    if p.ocpp_version == OcppVersion::V201 {
        return queue_v201(ctx, &call, &p, &smart_v201::clear_request(&request)).await;
    }
    queue(ctx, &call, &p, &request).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompositeBody {
    #[serde(default)]
    pile_id: String,
    connector_id: Option<i64>,
    /// Seconds ahead (default one day).
    #[schemars(range(min = 60, max = 604800))]
    duration_secs: Option<i64>,
    unit: Option<RateUnit>,
}

/// POST /charger/getCompositeSchedule {pileId, connectorId, durationSecs?, unit?}
async fn get_composite_schedule(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: CompositeBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let n = connector(&p, b.connector_id, true)?;
    let duration = b.duration_secs.unwrap_or(86_400);
    if !(60..=604_800).contains(&duration) {
        return Err(field_invalid("durationSecs", msg::chargers::command::duration_secs()));
    }
    let request = v16::GetCompositeScheduleRequest { connector_id: n.into(), duration, charging_rate_unit: b.unit.map(ocpp_value).transpose()? };
    if p.ocpp_version == OcppVersion::V201 {
        return queue_v201(ctx, &call, &p, &smart_v201::composite_request(&request)).await;
    }
    queue(ctx, &call, &p, &request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NOW: i64 = 1_790_000_000;

    fn body(v: Value) -> ProfileBody {
        serde_json::from_value(v).expect("a body")
    }

    fn built(v: Value, n: u32, tx: Option<i64>) -> Value {
        serde_json::to_value(profile_for(&body(v), NOW, n, tx).unwrap_or_else(|e| panic!("refused: {}", e.msg.en))).unwrap()
    }

    fn iso(ts: i64) -> String {
        v16::iso(ts)
    }

    /// The field a refusal names, in both languages.
    fn refused(v: Value, n: u32, tx: Option<i64>) -> String {
        let b = body(v);
        let e = profile_for(&b, NOW, n, tx).err().expect("refused");
        assert_eq!(e.code, 400);
        let field = e.msg.en.split(':').next().unwrap_or_default().to_string();
        assert!(e.msg.zh.starts_with(&format!("{field}：")), "zh names {field}: {}", e.msg.zh);
        field
    }

    #[test]
    fn an_absolute_profile_keeps_the_defaults_and_starts_now() {
        let p = built(json!({"purpose": "TxDefaultProfile", "periods": [{"startPeriod": 0, "limit": 11000}]}), 1, None);
        assert_eq!(
            p,
            json!({"chargingProfileId": 201, "stackLevel": 0, "chargingProfilePurpose": "TxDefaultProfile", "chargingProfileKind": "Absolute",
                "chargingSchedule": {"chargingRateUnit": "W", "startSchedule": iso(NOW), "chargingSchedulePeriod": [{"startPeriod": 0, "limit": 11000.0}]}})
        );
        let max = built(json!({"purpose": "ChargePointMaxProfile", "periods": [{"startPeriod": 0, "limit": 22000}]}), 0, None);
        assert_eq!(max["chargingProfileId"], 100);
    }

    #[test]
    fn every_field_the_operator_chooses_reaches_the_profile() {
        let p = built(
            json!({"purpose": "TxDefaultProfile", "chargingProfileId": 7, "stackLevel": 3, "kind": "Recurring", "recurrencyKind": "Daily",
                "validFrom": NOW - 60, "validTo": NOW + 86_400, "startSchedule": NOW - 3600, "duration": 86_400, "minChargingRate": 6.1,
                "unit": "A", "periods": [{"startPeriod": 0, "limit": 16, "numberPhases": 3}, {"startPeriod": 3600, "limit": 7.3, "numberPhases": 1}]}),
            2,
            None,
        );
        assert_eq!(
            p,
            json!({"chargingProfileId": 7, "stackLevel": 3, "chargingProfilePurpose": "TxDefaultProfile", "chargingProfileKind": "Recurring", "recurrencyKind": "Daily",
                "validFrom": iso(NOW - 60), "validTo": iso(NOW + 86_400),
                "chargingSchedule": {"chargingRateUnit": "A", "startSchedule": iso(NOW - 3600), "duration": 86_400, "minChargingRate": 6.1,
                    "chargingSchedulePeriod": [{"startPeriod": 0, "limit": 16.0, "numberPhases": 3}, {"startPeriod": 3600, "limit": 7.3, "numberPhases": 1}]}})
        );
    }

    #[test]
    fn a_tx_profile_names_its_transaction_and_a_relative_one_has_no_start() {
        let p = built(json!({"purpose": "TxProfile", "kind": "Relative", "chargingProfileId": 9, "periods": [{"startPeriod": 0, "limit": 7400}]}), 1, Some(42));
        assert_eq!(p["transactionId"], 42);
        assert_eq!(p["chargingProfileKind"], "Relative");
        assert!(p["chargingSchedule"].get("startSchedule").is_none());
        let weekly = built(json!({"purpose": "TxDefaultProfile", "kind": "Recurring", "recurrencyKind": "Weekly", "duration": 604_800, "periods": [{"startPeriod": 0, "limit": 1}]}), 0, None);
        assert_eq!(weekly["recurrencyKind"], "Weekly");
    }

    #[test]
    fn each_bad_field_is_refused_by_name() {
        let ok = |extra: Value| {
            let mut v = json!({"purpose": "TxDefaultProfile", "periods": [{"startPeriod": 0, "limit": 100}]});
            for (k, x) in extra.as_object().unwrap() {
                v[k] = x.clone();
            }
            v
        };
        for (extra, n, tx, field) in [
            (json!({"purpose": null}), 1, None, "purpose"),
            (json!({"purpose": "ChargePointMaxProfile"}), 1, None, "connectorId"),
            (json!({"purpose": "TxProfile"}), 0, None, "connectorId"),
            (json!({"purpose": "TxProfile"}), 1, None, "transactionId"),
            (json!({"transactionId": 5}), 1, None, "transactionId"),
            (json!({"chargingProfileId": 0}), 1, None, "chargingProfileId"),
            (json!({"chargingProfileId": 2_147_483_648i64}), 1, None, "chargingProfileId"),
            (json!({"stackLevel": -1}), 1, None, "stackLevel"),
            (json!({"stackLevel": 100}), 1, None, "stackLevel"),
            (json!({"kind": "Recurring"}), 1, None, "recurrencyKind"),
            (json!({"recurrencyKind": "Daily"}), 1, None, "recurrencyKind"),
            (json!({"validFrom": NOW + 100, "validTo": NOW + 100}), 1, None, "validTo"),
            (json!({"validTo": NOW - 1}), 1, None, "validTo"),
            (json!({"validFrom": 5}), 1, None, "validFrom"),
            (json!({"kind": "Relative", "startSchedule": NOW}), 1, None, "startSchedule"),
            (json!({"startSchedule": -1}), 1, None, "startSchedule"),
            (json!({"duration": 0}), 1, None, "duration"),
            (json!({"kind": "Recurring", "recurrencyKind": "Daily", "duration": 86_401}), 1, None, "duration"),
            (json!({"minChargingRate": -1}), 1, None, "minChargingRate"),
            (json!({"minChargingRate": 1.25}), 1, None, "minChargingRate"),
            (json!({"periods": []}), 1, None, "periods"),
            (json!({"periods": [{"startPeriod": 0, "limit": -1}]}), 1, None, "periods[0].limit"),
            (json!({"periods": [{"startPeriod": 0, "limit": 10.05}]}), 1, None, "periods[0].limit"),
            (json!({"unit": "A", "periods": [{"startPeriod": 0, "limit": 2001}]}), 1, None, "periods[0].limit"),
            (json!({"periods": [{"startPeriod": 5, "limit": 1}]}), 1, None, "periods[0].startPeriod"),
            (json!({"periods": [{"startPeriod": 0, "limit": 1}, {"startPeriod": 0, "limit": 1}]}), 1, None, "periods[1].startPeriod"),
            (json!({"duration": 60, "periods": [{"startPeriod": 0, "limit": 1}, {"startPeriod": 60, "limit": 1}]}), 1, None, "periods[1].startPeriod"),
            (json!({"periods": [{"startPeriod": 0, "limit": 1, "numberPhases": 4}]}), 1, None, "periods[0].numberPhases"),
        ] {
            let v = ok(extra.clone());
            let v = if extra.get("purpose") == Some(&Value::Null) { json!({"periods": v["periods"].clone()}) } else { v };
            assert_eq!(refused(v, n, tx), field, "{extra}");
        }
    }

    #[test]
    fn a_remote_start_may_leave_the_connector_to_the_charger_and_carry_a_tx_profile() {
        let start = |v: Value, n: Option<u32>| remote_start_request(&serde_json::from_value(v).expect("a body"), NOW, n, "CARD1").map(|r| serde_json::to_value(r).unwrap());
        assert_eq!(start(json!({}), None).ok(), Some(json!({"idTag": "CARD1"})), "no connector: the charger chooses");
        assert_eq!(start(json!({}), Some(2)).ok(), Some(json!({"idTag": "CARD1", "connectorId": 2})));
        let p = start(json!({"chargingProfile": {"chargingProfileId": 5, "stackLevel": 1, "unit": "A", "periods": [{"startPeriod": 0, "limit": 16}]}}), None).expect("built");
        assert_eq!(
            p["chargingProfile"],
            json!({"chargingProfileId": 5, "stackLevel": 1, "chargingProfilePurpose": "TxProfile", "chargingProfileKind": "Relative",
                "chargingSchedule": {"chargingRateUnit": "A", "chargingSchedulePeriod": [{"startPeriod": 0, "limit": 16.0}]}})
        );
        let limited = start(json!({"limitW": 11000}), Some(1)).expect("built");
        assert_eq!(limited["chargingProfile"]["chargingProfileId"], 1);
        for (v, field) in [
            (json!({"limitW": 11000, "chargingProfile": {"periods": [{"startPeriod": 0, "limit": 1}]}}), "chargingProfile"),
            (json!({"limitW": -1}), "limitW"),
            (json!({"chargingProfile": {"periods": []}}), "chargingProfile.periods"),
            (json!({"chargingProfile": {"kind": "Relative", "startSchedule": NOW, "periods": [{"startPeriod": 0, "limit": 1}]}}), "chargingProfile.startSchedule"),
        ] {
            let e = start(v.clone(), None).err().expect("refused");
            assert!(e.code == 400 && e.msg.en.starts_with(&format!("{field}:")) && e.msg.zh.starts_with(&format!("{field}：")), "{v}: {}", e.msg.en);
        }
    }

    #[test]
    fn clearing_takes_any_combination_of_the_four_criteria() {
        let clear = |v: Value, n: Option<u32>| clear_criteria(&serde_json::from_value(v).expect("a body"), n).map(|r| serde_json::to_value(r).unwrap());
        assert_eq!(clear(json!({}), None).ok(), Some(json!({})), "nothing named: every profile");
        assert_eq!(clear(json!({"id": 7}), None).ok(), Some(json!({"id": 7})));
        assert_eq!(
            clear(json!({"purpose": "TxDefaultProfile", "stackLevel": 2}), Some(1)).ok(),
            Some(json!({"connectorId": 1, "chargingProfilePurpose": "TxDefaultProfile", "stackLevel": 2}))
        );
        assert_eq!(
            clear(json!({"id": 3, "purpose": "TxProfile", "stackLevel": 0}), Some(0)).ok(),
            Some(json!({"id": 3, "connectorId": 0, "chargingProfilePurpose": "TxProfile", "stackLevel": 0}))
        );
        for (v, field) in [(json!({"id": 0}), "id"), (json!({"id": 2_147_483_648i64}), "id"), (json!({"stackLevel": -1}), "stackLevel"), (json!({"stackLevel": 100}), "stackLevel")] {
            let e = clear(v.clone(), None).err().expect("refused");
            assert!(e.code == 400 && e.msg.en.starts_with(&format!("{field}:")) && e.msg.zh.starts_with(&format!("{field}：")), "{v}: {}", e.msg.en);
        }
    }

    /// Each enumeration a body takes is the OCPP 1.6 one of the field it
    /// fills: the same values (`ocpp_value` turns one into the other).
    #[test]
    fn body_enumerations_are_the_ocpp_ones() {
        fn values<T: JsonSchema>() -> Vec<String> {
            let schema = serde_json::to_value(schemars::schema_for!(T)).unwrap();
            let mut v: Vec<String> = schema["enum"].as_array().or_else(|| schema["oneOf"].as_array()).expect("an enumeration").iter().map(|x| x.as_str().map(String::from).unwrap_or_else(|| x["const"].as_str().or_else(|| x["enum"][0].as_str()).unwrap_or_default().to_string())).collect();
            v.sort();
            v
        }
        fn ocpp(list: &[&str]) -> Vec<String> {
            let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
            v.sort();
            v
        }
        assert_eq!(values::<AvailabilityType>(), ocpp(v16::AvailabilityType::VALUES));
        assert_eq!(values::<TriggerMessage>(), ocpp(v16::MessageTrigger::VALUES));
        assert_eq!(values::<ResetType>(), ocpp(v16::ResetType::VALUES));
        assert_eq!(values::<UpdateType>(), ocpp(v16::UpdateType::VALUES));
        assert_eq!(values::<ProfilePurpose>(), ocpp(v16::ChargingProfilePurposeType::VALUES));
        assert_eq!(values::<ProfileKind>(), ocpp(v16::ChargingProfileKindType::VALUES));
        // The roots: 1.6's, then those only 2.0.1 stations hold (its
        // CSMSRootCertificate is 1.6's CentralSystemRootCertificate).
        let mut roots = ocpp(v16::CertificateUseEnum::VALUES);
        roots.extend(v201::InstallCertificateUseEnum::VALUES.iter().filter(|v| **v != "CSMSRootCertificate").map(|v| v.to_string()));
        roots.sort();
        roots.dedup();
        assert_eq!(values::<CertificateUse>(), roots);
        for root in [CertificateUse::CentralSystemRootCertificate, CertificateUse::ManufacturerRootCertificate, CertificateUse::V2GRootCertificate, CertificateUse::MORootCertificate] {
            let sent = certificates::certificate_use_v201(root.into()).expect("every root goes to a 2.0.1 station");
            let _: v201::GetCertificateIdUseEnum = ocpp_value(sent).expect("and can be asked about");
        }
        assert_eq!(values::<ExtendedTrigger>(), ocpp(v16::MessageTriggerEnum::VALUES));
        assert_eq!(values::<LogType>(), ocpp(v16::LogEnum::VALUES));
        assert_eq!(values::<RecurrencyKind>(), ocpp(v16::RecurrencyKindType::VALUES));
        assert_eq!(values::<RateUnit>(), ocpp(v16::ChargingRateUnitType::VALUES));
        assert_eq!(ocpp_value::<_, v16::ResetType>(ResetType::Hard).ok(), Some(v16::ResetType::Hard));
        // The operations only 2.0.1 stations take.
        use super::super::{commands_v201, monitoring};
        assert_eq!(values::<monitoring::MonitorType>(), ocpp(v201::MonitorEnum::VALUES));
        assert_eq!(values::<monitoring::MonitoringCriterion>(), ocpp(v201::MonitoringCriterionEnum::VALUES));
        assert_eq!(values::<commands_v201::ProfilePurposeV201>(), ocpp(v201::ChargingProfilePurposeEnum::VALUES));
        assert_eq!(values::<commands_v201::LimitSource>(), ocpp(v201::ChargingLimitSourceEnum::VALUES));
        assert_eq!(values::<commands_v201::IdTokenType>(), ocpp(v201::IdTokenEnum::VALUES));
        // A card's kind is every token type but the lack of one.
        let card_kinds: Vec<&str> = v201::IdTokenEnum::VALUES.iter().copied().filter(|v| *v != "NoAuthorization").collect();
        assert_eq!(values::<cards::TokenType>(), ocpp(&card_kinds));
        assert_eq!(values::<ConnectorType>(), ocpp(v201::ConnectorEnum::VALUES));
        assert_eq!(values::<commands_v201::OcppVersionName>(), ocpp(v201::OCPPVersionEnum::VALUES));
        assert_eq!(values::<commands_v201::OcppTransport>(), ocpp(v201::OCPPTransportEnum::VALUES));
        assert_eq!(values::<commands_v201::OcppInterface>(), ocpp(v201::OCPPInterfaceEnum::VALUES));
        assert_eq!(values::<commands_v201::VpnType>(), ocpp(v201::VPNEnum::VALUES));
        assert_eq!(values::<commands_v201::ApnAuthentication>(), ocpp(v201::APNAuthenticationEnum::VALUES));
    }

    /// The SPA's copy of the operations: each route's call and permission,
    /// and the values of the OCPP enumerations its forms offer. Written
    /// from the route table and the OCPP types; with
    /// `BACKOFFICE_UPDATE_OPENAPI=1` the test writes it again instead of
    /// failing on a difference (as the OpenAPI document's test does).
    #[test]
    fn the_spas_operations_are_the_route_tables() {
        let routes = routes();
        let posts: Vec<&str> = routes.iter().filter(|r| r.method == http::Method::POST).map(|r| r.path).collect();
        let only_v201 = OPERATIONS_V201.iter().filter(|(p, _)| operation(p).is_none()).map(|(p, _)| *p);
        let only_ykc = OPERATIONS_YKC.iter().filter(|(p, _)| operation(p).is_none() && !OPERATIONS_V201.iter().any(|(q, _)| q == p)).map(|(p, _)| *p);
        let listed: Vec<&str> = OPERATIONS.iter().map(|(p, _)| *p).chain(only_v201).chain(only_ykc).collect();
        assert_eq!(posts, listed, "every remote operation sends one listed call (1.6, else 2.0.1, else YKC), in the route table's order");
        let mut ts = String::from(
            "// @generated from the route table (shared/backoffice/src/handlers/commands.rs, OPERATIONS)\n\
             // and the OCPP 1.6 types (shared/ocpp): do not edit. `BACKOFFICE_UPDATE_OPENAPI=1\n\
             // cargo test -p backoffice --lib the_spas_operations` writes it again.\n\n\
             /** Each remote operation (by its route's last segment): its route, the call it sends to an OCPP 1.6 charger (`action`), to a 2.0.1 one (`v201`) and the command to a YKC pile (`ykc`; null: not to that protocol), the permission it needs. */\n\
             export const CHARGER_OPERATIONS = {\n",
        );
        for path in &listed {
            let (action, action_v201) = (operation(path), OPERATIONS_V201.iter().find(|(p, _)| p == path).map(|(_, a)| *a));
            let quoted = |a: Option<String>| a.map_or("null".to_string(), |a| format!("'{a}'"));
            let route = routes.iter().find(|r| r.path == *path).expect("a route");
            let permission = match route.access {
                crate::routes::Access::Permission(p) => p,
                _ => panic!("{path} is not guarded by a permission"),
            };
            let key = path.rsplit('/').next().unwrap_or_default();
            let action_ykc = OPERATIONS_YKC.iter().find(|(p, _)| p == path).map(|(_, a)| a.to_string());
            let (action, v201, ykc) = (quoted(action.map(|a| a.to_string())), quoted(action_v201.map(|a| a.to_string())), quoted(action_ykc));
            ts.push_str(&format!("  {key}: {{ path: '{path}', action: {action}, v201: {v201}, ykc: {ykc}, permission: '{permission}' }},\n"));
        }
        ts.push_str("} as const;\n\n/** The values of the OCPP 1.6 enumerations the operations' forms choose from, in the schema's order; `…V201`: what a form offers a 2.0.1 station instead. */\nexport const OCPP_VALUES = {\n");
        // The body's roots, as declared: all of them go to a 2.0.1 station.
        let roots_v201: Vec<String> = serde_json::to_value(schemars::schema_for!(CertificateUse)).unwrap()["enum"].as_array().expect("an enumeration").iter().filter_map(|v| v.as_str().map(String::from)).collect();
        let roots_v201: Vec<&str> = roots_v201.iter().map(String::as_str).collect();
        let lock_moves: Vec<String> = serde_json::to_value(schemars::schema_for!(crate::handlers::commands_ykc::LockMove)).unwrap()["enum"].as_array().expect("an enumeration").iter().filter_map(|v| v.as_str().map(String::from)).collect();
        let lock_moves: Vec<&str> = lock_moves.iter().map(String::as_str).collect();
        for (name, values) in [
            ("AvailabilityType", v16::AvailabilityType::VALUES),
            ("CertificateUseEnum", v16::CertificateUseEnum::VALUES),
            ("ChargingProfileKindType", v16::ChargingProfileKindType::VALUES),
            ("ChargingProfilePurposeType", v16::ChargingProfilePurposeType::VALUES),
            ("ChargingRateUnitType", v16::ChargingRateUnitType::VALUES),
            ("LogEnum", v16::LogEnum::VALUES),
            ("MessageTrigger", v16::MessageTrigger::VALUES),
            ("MessageTriggerEnum", v16::MessageTriggerEnum::VALUES),
            ("RecurrencyKindType", v16::RecurrencyKindType::VALUES),
            ("ResetType", v16::ResetType::VALUES),
            ("UpdateType", v16::UpdateType::VALUES),
            ("CertificateUseEnumV201", roots_v201.as_slice()),
            // The parking lock's moves (a YKC pile's, no OCPP enumeration).
            ("ParkingLockMove", lock_moves.as_slice()),
            // Enumerations of the operations only 2.0.1 stations take.
            ("ChargingProfilePurposeEnum", v201::ChargingProfilePurposeEnum::VALUES),
            ("ConnectorEnum", v201::ConnectorEnum::VALUES),
            ("OCPPInterfaceEnum", v201::OCPPInterfaceEnum::VALUES),
            ("OCPPTransportEnum", v201::OCPPTransportEnum::VALUES),
            ("OCPPVersionEnum", v201::OCPPVersionEnum::VALUES),
            ("IdTokenEnum", v201::IdTokenEnum::VALUES),
            ("MonitorEnum", v201::MonitorEnum::VALUES),
            ("MonitoringCriterionEnum", v201::MonitoringCriterionEnum::VALUES),
        ] {
            let quoted: Vec<String> = values.iter().map(|v| format!("'{v}'")).collect();
            ts.push_str(&format!("  {name}: [{}],\n", quoted.join(", ")));
        }
        ts.push_str("} as const;\n");
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/api/chargerOperations.ts");
        if std::env::var("BACKOFFICE_UPDATE_OPENAPI").as_deref() == Ok("1") {
            std::fs::write(&file, &ts).expect("the SPA's file");
        }
        let committed = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(committed == ts, "web/src/api/chargerOperations.ts differs from the route table: run BACKOFFICE_UPDATE_OPENAPI=1 cargo test -p backoffice --lib the_spas_operations");
    }
}
