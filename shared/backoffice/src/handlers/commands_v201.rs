//! Remote operations only an OCPP 2.0.1 station takes, beside the ones
//! both versions share (`commands`): the charging profiles it holds
//! (GetChargingProfiles, answered in ReportChargingProfiles), what it
//! keeps about a customer (CustomerInformation, answered in
//! NotifyCustomerInformation) and firmware it serves to other stations
//! as a local controller (PublishFirmware). The reports follow in the
//! message log. Routes and permissions are in `commands::routes`, the
//! calls in `commands::OPERATIONS_V201`.

use envelope::{msg, ApiError};
use ocpp::v201;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::commands::{answered_now, by, location, ocpp_value, queue_v201, retries, sends_v201, MAX_STACK_LEVEL};
use super::device_model::station;
use crate::ctx::AppCtx;
use crate::domain::chargers::commands::next_request_id;
use crate::reply::Reply;
use crate::request::{field_invalid, Call};

/// A 2.0.1 profile's purpose (ChargingProfilePurposeEnum).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum ProfilePurposeV201 {
    ChargingStationExternalConstraints,
    ChargingStationMaxProfile,
    TxDefaultProfile,
    TxProfile,
}

/// Who set a limit (2.0.1's ChargingLimitSourceEnum): an energy
/// management system, the system operator, the charging station operator.
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum LimitSource {
    EMS,
    Other,
    SO,
    CSO,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChargingProfilesQueryBody {
    #[serde(default)]
    pile_id: String,
    /// The EVSE (a connector of the pile; 0: the station's own profiles); absent: all.
    evse_id: Option<i64>,
    purpose: Option<ProfilePurposeV201>,
    #[schemars(range(min = 0, max = 99))]
    stack_level: Option<i64>,
    #[schemars(length(min = 1, max = 20))]
    charging_profile_ids: Option<Vec<i64>>,
    #[schemars(length(min = 1, max = 4))]
    limit_sources: Option<Vec<LimitSource>>,
}

/// POST /charger/getChargingProfiles {pileId, evseId?, purpose?, stackLevel?, chargingProfileIds?, limitSources?}:
/// the station answers Accepted (its profiles follow in
/// ReportChargingProfiles) or NoProfiles.
pub(super) async fn get_charging_profiles(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ChargingProfilesQueryBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    if let Some(n) = b.evse_id.filter(|n| *n < 0 || *n > i64::from(p.connector_count)) {
        return Err(field_invalid("evseId", msg::chargers::variables::no_such_evse(&p.code, &n, &p.connector_count)));
    }
    if b.stack_level.is_some_and(|s| !(0..=MAX_STACK_LEVEL).contains(&s)) {
        return Err(field_invalid("stackLevel", msg::chargers::profiles::bad_stack_level(MAX_STACK_LEVEL)));
    }
    let ids = match b.charging_profile_ids {
        Some(ids) if ids.is_empty() || ids.len() > 20 || ids.iter().any(|id| *id < 1) => return Err(field_invalid("chargingProfileIds", msg::chargers::profiles::bad_ids(20))),
        ids => ids,
    };
    let sources = match b.limit_sources {
        Some(s) if s.is_empty() => return Err(field_invalid("limitSources", msg::request::not_empty())),
        Some(s) => Some(s.into_iter().map(ocpp_value).collect::<Result<Vec<v201::ChargingLimitSourceEnum>, _>>()?),
        None => None,
    };
    let charging_profile = v201::ChargingProfileCriterion {
        custom_data: None,
        charging_profile_purpose: b.purpose.map(ocpp_value).transpose()?,
        stack_level: b.stack_level,
        charging_profile_id: ids,
        charging_limit_source: sources,
    };
    let request_id = next_request_id(ctx).await?;
    queue_v201(ctx, &call, &p, &v201::GetChargingProfilesRequest { custom_data: None, request_id, evse_id: b.evse_id, charging_profile }).await
}

/// How a card is read at the station (2.0.1's IdTokenEnum).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum IdTokenType {
    Central,
    #[serde(rename = "eMAID")]
    EMaid,
    ISO14443,
    ISO15693,
    KeyCode,
    Local,
    MacAddress,
    NoAuthorization,
}

/// What to do with what the station keeps about a customer.
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq)]
pub enum CustomerDataAction {
    /// Send it (NotifyCustomerInformation).
    Report,
    /// Delete it.
    Clear,
    /// Send it, then delete it.
    ReportAndClear,
}

/// An IdToken is identifierString 36; a customer identifier 64.
const MAX_ID_TOKEN: usize = 36;
const MAX_CUSTOMER_IDENTIFIER: usize = 64;

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerInformationBody {
    #[serde(default)]
    pile_id: String,
    /// The customer's card (its number as the station reads it).
    #[schemars(length(min = 1, max = 36))]
    id_tag: Option<String>,
    /// How the station reads the card; default ISO14443 (an RFID card).
    id_token_type: Option<IdTokenType>,
    /// Or the customer as the station names them.
    #[schemars(length(min = 1, max = 64))]
    customer_identifier: Option<String>,
    action: Option<CustomerDataAction>,
}

fn text_of(field: &str, v: Option<&str>, max: usize) -> Result<Option<String>, ApiError> {
    let Some(v) = v.map(str::trim).filter(|v| !v.is_empty()) else { return Ok(None) };
    if v.chars().count() > max || v.chars().any(char::is_control) {
        return Err(field_invalid(field, msg::chargers::variables::bad_name(max)));
    }
    Ok(Some(v.to_string()))
}

/// POST /charger/customerInformation {pileId, idTag? | customerIdentifier?, idTokenType?, action}:
/// the station answers Accepted (what it holds follows in
/// NotifyCustomerInformation) or Rejected / Invalid.
pub(super) async fn customer_information(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: CustomerInformationBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    let Some(action) = b.action else { return Err(field_invalid("action", msg::request::required())) };
    let tag = text_of("idTag", b.id_tag.as_deref(), MAX_ID_TOKEN)?;
    let customer_identifier = text_of("customerIdentifier", b.customer_identifier.as_deref(), MAX_CUSTOMER_IDENTIFIER)?;
    if tag.is_none() && customer_identifier.is_none() {
        return Err(field_invalid("idTag", msg::chargers::customer_information::whom()));
    }
    let id_token = match tag {
        Some(id_token) => Some(v201::IdToken { custom_data: None, additional_info: None, id_token, r#type: ocpp_value(b.id_token_type.unwrap_or(IdTokenType::ISO14443))? }),
        None => None,
    };
    let request = v201::CustomerInformationRequest {
        custom_data: None,
        customer_certificate: None,
        id_token,
        request_id: next_request_id(ctx).await?,
        report: action != CustomerDataAction::Clear,
        clear: action != CustomerDataAction::Report,
        customer_identifier,
    };
    queue_v201(ctx, &call, &p, &request).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishFirmwareBody {
    #[serde(default)]
    pile_id: String,
    /// Where the station (a local controller) fetches the firmware it then serves.
    #[serde(default)]
    #[schemars(length(min = 1, max = 512))]
    location: String,
    /// The firmware's MD5, 32 hexadecimal digits.
    #[serde(default)]
    #[schemars(length(min = 32, max = 32))]
    checksum: String,
    #[schemars(range(min = 0, max = 10))]
    retries: Option<u32>,
    #[schemars(range(min = 0, max = 86400))]
    retry_interval_secs: Option<u32>,
}

/// POST /charger/publishFirmware {pileId, location, checksum, retries?, retryIntervalSecs?}:
/// PublishFirmwareStatusNotification follows (in the message log).
pub(super) async fn publish_firmware(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: PublishFirmwareBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    let location = location("location", &b.location)?;
    let checksum = b.checksum.trim().to_ascii_lowercase();
    if checksum.len() != 32 || !checksum.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(field_invalid("checksum", msg::chargers::firmware::bad_checksum()));
    }
    let (retries, retry_interval) = retries(b.retries, b.retry_interval_secs)?;
    let request = v201::PublishFirmwareRequest { custom_data: None, location, retries, checksum, request_id: next_request_id(ctx).await?, retry_interval };
    queue_v201(ctx, &call, &p, &request).await
}

/// The OCPP version a network profile connects with (2.0.1's OCPPVersionEnum).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum OcppVersionName {
    OCPP12,
    OCPP15,
    OCPP16,
    OCPP20,
}

/// OCPP-J or OCPP-S (2.0.1's OCPPTransportEnum).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum OcppTransport {
    JSON,
    SOAP,
}

/// The station's network interface a profile uses (2.0.1's OCPPInterfaceEnum).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum OcppInterface {
    Wired0,
    Wired1,
    Wired2,
    Wired3,
    Wireless0,
    Wireless1,
    Wireless2,
    Wireless3,
}

/// 2.0.1's VPNEnum.
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum VpnType {
    IKEv2,
    IPSec,
    L2TP,
    PPTP,
}

/// 2.0.1's APNAuthenticationEnum.
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum ApnAuthentication {
    CHAP,
    NONE,
    PAP,
    AUTO,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VpnBody {
    #[serde(default)]
    #[schemars(length(min = 1, max = 512))]
    server: String,
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    user: String,
    #[schemars(length(max = 20))]
    group: Option<String>,
    /// Sent to the station, never stored (the command keeps `***`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    password: String,
    /// The shared secret: sent, never stored.
    #[serde(default)]
    #[schemars(length(min = 1, max = 255))]
    key: String,
    #[serde(rename = "type")]
    kind: Option<VpnType>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApnBody {
    #[serde(default)]
    #[schemars(length(min = 1, max = 512))]
    apn: String,
    #[schemars(length(max = 20))]
    apn_user_name: Option<String>,
    /// Sent to the station, never stored.
    #[schemars(length(max = 20))]
    apn_password: Option<String>,
    /// The SIM's PIN: sent, never stored.
    #[schemars(range(min = 0, max = 99_999_999))]
    sim_pin: Option<i64>,
    /// MCC and MNC, 5 or 6 digits.
    #[schemars(length(min = 5, max = 6))]
    preferred_network: Option<String>,
    use_only_preferred_network: Option<bool>,
    apn_authentication: Option<ApnAuthentication>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionDataBody {
    ocpp_version: Option<OcppVersionName>,
    ocpp_transport: Option<OcppTransport>,
    /// The CSMS's address, ws:// or wss:// (wss:// for security profiles 2 and 3).
    #[serde(default)]
    #[schemars(length(min = 1, max = 512))]
    ocpp_csms_url: String,
    /// Seconds before a message the station sends on it times out.
    #[schemars(range(min = 1, max = 3600))]
    message_timeout: Option<i64>,
    /// 1: Basic auth over ws/wss; 2: Basic auth over TLS; 3: TLS with client certificates.
    #[schemars(range(min = 1, max = 3))]
    security_profile: Option<i64>,
    ocpp_interface: Option<OcppInterface>,
    vpn: Option<VpnBody>,
    apn: Option<ApnBody>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NetworkProfileBody {
    #[serde(default)]
    pile_id: String,
    /// The slot it is stored in (NetworkConfigurationPriority lists slots).
    #[schemars(range(min = 0, max = 2_147_483_647))]
    configuration_slot: Option<i64>,
    connection_data: Option<ConnectionDataBody>,
}

const MAX_URL: usize = 512;
const MAX_SLOT: i64 = 2_147_483_647;
const MAX_MESSAGE_TIMEOUT: i64 = 3600;
const MAX_SIM_PIN: i64 = 99_999_999;

/// A required text of at most `max` characters, no control characters.
fn required_text(field: &str, v: &str, max: usize) -> Result<String, ApiError> {
    text_of(field, Some(v), max)?.ok_or_else(|| field_invalid(field, msg::request::required()))
}

fn whole_in(field: &str, v: Option<i64>, min: i64, max: i64) -> Result<i64, ApiError> {
    match v {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        Some(_) => Err(field_invalid(field, msg::chargers::network_profile::range(&max, &min))),
        None => Err(field_invalid(field, msg::request::required())),
    }
}

fn required<T>(field: &str, v: Option<T>) -> Result<T, ApiError> {
    v.ok_or_else(|| field_invalid(field, msg::request::required()))
}

/// The CSMS address: ws:// or wss:// with a host, at most 512; profiles 2
/// and 3 connect over TLS only.
fn csms_url(raw: &str, profile: i64) -> Result<String, ApiError> {
    const FIELD: &str = "connectionData.ocppCsmsUrl";
    let raw = raw.trim();
    let u = url::Url::parse(raw).ok().filter(|u| matches!(u.scheme(), "ws" | "wss") && u.host().is_some() && raw.chars().count() <= MAX_URL);
    let Some(u) = u else { return Err(field_invalid(FIELD, msg::chargers::network_profile::url(&MAX_URL))) };
    if profile >= 2 && u.scheme() != "wss" {
        return Err(field_invalid(FIELD, msg::chargers::network_profile::tls(&profile)));
    }
    Ok(raw.to_string())
}

/// The profile as sent (`wire`) and as stored (`stored`: its secrets `***`).
fn network_profile(b: NetworkProfileBody) -> Result<(v201::SetNetworkProfileRequest, v201::SetNetworkProfileRequest), ApiError> {
    let configuration_slot = whole_in("configurationSlot", b.configuration_slot, 0, MAX_SLOT)?;
    let d = required("connectionData", b.connection_data)?;
    let security_profile = whole_in("connectionData.securityProfile", d.security_profile, 1, 3)?;
    let ocpp_csms_url = csms_url(&d.ocpp_csms_url, security_profile)?;
    let message_timeout = whole_in("connectionData.messageTimeout", d.message_timeout, 1, MAX_MESSAGE_TIMEOUT)?;
    let ocpp_version = ocpp_value(required("connectionData.ocppVersion", d.ocpp_version)?)?;
    let ocpp_transport = ocpp_value(required("connectionData.ocppTransport", d.ocpp_transport)?)?;
    let ocpp_interface = ocpp_value(required("connectionData.ocppInterface", d.ocpp_interface)?)?;
    let vpn = match d.vpn {
        Some(v) => Some(v201::VPN {
            custom_data: None,
            server: required_text("connectionData.vpn.server", &v.server, 512)?,
            user: required_text("connectionData.vpn.user", &v.user, 20)?,
            group: text_of("connectionData.vpn.group", v.group.as_deref(), 20)?,
            password: required_text("connectionData.vpn.password", &v.password, 20)?,
            key: required_text("connectionData.vpn.key", &v.key, 255)?,
            r#type: ocpp_value(required("connectionData.vpn.type", v.kind)?)?,
        }),
        None => None,
    };
    let apn = match d.apn {
        Some(a) => {
            let preferred_network = text_of("connectionData.apn.preferredNetwork", a.preferred_network.as_deref(), 6)?;
            if preferred_network.as_ref().is_some_and(|n| n.len() < 5 || !n.chars().all(|c| c.is_ascii_digit())) {
                return Err(field_invalid("connectionData.apn.preferredNetwork", msg::chargers::network_profile::network()));
            }
            Some(v201::APN {
                custom_data: None,
                apn: required_text("connectionData.apn.apn", &a.apn, 512)?,
                apn_user_name: text_of("connectionData.apn.apnUserName", a.apn_user_name.as_deref(), 20)?,
                apn_password: text_of("connectionData.apn.apnPassword", a.apn_password.as_deref(), 20)?,
                sim_pin: a.sim_pin.map(|n| whole_in("connectionData.apn.simPin", Some(n), 0, MAX_SIM_PIN)).transpose()?,
                preferred_network,
                use_only_preferred_network: a.use_only_preferred_network,
                apn_authentication: ocpp_value(required("connectionData.apn.apnAuthentication", a.apn_authentication)?)?,
            })
        }
        None => None,
    };
    let wire = v201::SetNetworkProfileRequest {
        custom_data: None,
        configuration_slot,
        connection_data: v201::NetworkConnectionProfile { custom_data: None, apn, ocpp_version, ocpp_transport, ocpp_csms_url, message_timeout, security_profile, ocpp_interface, vpn },
    };
    let mut stored = wire.clone();
    let redacted = || crate::domain::chargers::commands::REDACTED.to_string();
    if let Some(v) = stored.connection_data.vpn.as_mut() {
        (v.password, v.key) = (redacted(), redacted());
    }
    if let Some(a) = stored.connection_data.apn.as_mut() {
        a.apn_password = a.apn_password.as_ref().map(|_| redacted());
        a.sim_pin = None;
    }
    Ok((wire, stored))
}

/// Whether a profile carries secrets (a VPN, an APN password or PIN).
fn has_secrets(r: &v201::SetNetworkProfileRequest) -> bool {
    r.connection_data.vpn.is_some() || r.connection_data.apn.as_ref().is_some_and(|a| a.apn_password.is_some() || a.sim_pin.is_some())
}

/// POST /charger/setNetworkProfile {pileId, configurationSlot, connectionData}:
/// the station answers Accepted, Rejected or Failed. A profile with VPN or
/// APN secrets goes at once, never queued (409 while another call is in
/// flight): the command and the message log keep it with `***`.
pub(super) async fn set_network_profile(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: NetworkProfileBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    let (wire, stored) = network_profile(b)?;
    if !has_secrets(&wire) {
        return queue_v201(ctx, &call, &p, &wire).await;
    }
    sends_v201::<v201::SetNetworkProfileRequest>(&call)?;
    let c = crate::domain::chargers::commands::send_now_v201(ctx, &p.id, &stored, &wire, None, &by(&call)?).await?;
    answered_now(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn body(v: Value) -> NetworkProfileBody {
        serde_json::from_value(v).expect("a body")
    }

    fn good() -> Value {
        json!({"pileId": "p", "configurationSlot": 2, "connectionData": {"ocppVersion": "OCPP20", "ocppTransport": "JSON", "ocppCsmsUrl": "wss://csms.example.com/ocpp",
               "messageTimeout": 30, "securityProfile": 2, "ocppInterface": "Wired0"}})
    }

    fn refused(change: impl FnOnce(&mut Value)) -> String {
        let mut v = good();
        change(&mut v);
        match network_profile(body(v)) {
            Ok(_) => panic!("accepted"),
            Err(e) => e.data.as_ref().and_then(|d| d["fields"][0]["field"].as_str()).unwrap_or_default().to_string(),
        }
    }

    #[test]
    fn a_network_profile_is_built_as_the_201_schema_has_it() {
        let (wire, stored) = network_profile(body(good())).unwrap();
        let v = serde_json::to_value(&wire).unwrap();
        assert_eq!(v, json!({"configurationSlot": 2, "connectionData": {"ocppVersion": "OCPP20", "ocppTransport": "JSON", "ocppCsmsUrl": "wss://csms.example.com/ocpp", "messageTimeout": 30, "securityProfile": 2, "ocppInterface": "Wired0"}}));
        use ocpp::v201::Request;
        assert!(v201::SetNetworkProfileRequest::ACTION.check_request(&v, ocpp::schema::Mode::Strict).is_ok());
        assert!(!has_secrets(&wire) && serde_json::to_value(&stored).unwrap() == v);
    }

    #[test]
    fn its_secrets_are_sent_and_stored_redacted() {
        let mut v = good();
        v["connectionData"]["vpn"] = json!({"server": "vpn.example.com", "user": "u", "password": "secret-pw", "key": "shared-key", "type": "IPSec"});
        v["connectionData"]["apn"] = json!({"apn": "internet.example", "apnPassword": "apn-pw", "simPin": 1234, "preferredNetwork": "46000", "apnAuthentication": "AUTO"});
        let (wire, stored) = network_profile(body(v)).unwrap();
        assert!(has_secrets(&wire));
        let (w, s) = (serde_json::to_value(&wire).unwrap(), serde_json::to_value(&stored).unwrap());
        assert_eq!((&w["connectionData"]["vpn"]["password"], &w["connectionData"]["apn"]["simPin"]), (&json!("secret-pw"), &json!(1234)));
        let text = s.to_string();
        for secret in ["secret-pw", "shared-key", "apn-pw", "1234"] {
            assert!(!text.contains(secret), "{secret} stored: {text}");
        }
        assert_eq!(s["connectionData"]["vpn"]["server"], "vpn.example.com");
    }

    #[test]
    fn each_bad_field_is_refused_by_name() {
        assert_eq!(refused(|v| v["configurationSlot"] = json!(-1)), "configurationSlot");
        assert_eq!(refused(|v| drop(v.as_object_mut().unwrap().remove("configurationSlot"))), "configurationSlot");
        assert_eq!(refused(|v| drop(v.as_object_mut().unwrap().remove("connectionData"))), "connectionData");
        assert_eq!(refused(|v| v["connectionData"]["ocppCsmsUrl"] = json!("https://csms.example.com")), "connectionData.ocppCsmsUrl");
        assert_eq!(refused(|v| v["connectionData"]["ocppCsmsUrl"] = json!(format!("wss://csms.example.com/{}", "a".repeat(512)))), "connectionData.ocppCsmsUrl");
        // Profile 2 and 3 are TLS: a ws:// address is refused; profile 1 may use it.
        assert_eq!(refused(|v| v["connectionData"]["ocppCsmsUrl"] = json!("ws://csms.example.com/ocpp")), "connectionData.ocppCsmsUrl");
        let mut plain = good();
        (plain["connectionData"]["ocppCsmsUrl"], plain["connectionData"]["securityProfile"]) = (json!("ws://csms.example.com/ocpp"), json!(1));
        assert!(network_profile(body(plain)).is_ok());
        assert_eq!(refused(|v| v["connectionData"]["securityProfile"] = json!(4)), "connectionData.securityProfile");
        assert_eq!(refused(|v| v["connectionData"]["messageTimeout"] = json!(0)), "connectionData.messageTimeout");
        assert_eq!(refused(|v| drop(v["connectionData"].as_object_mut().unwrap().remove("ocppInterface"))), "connectionData.ocppInterface");
        assert_eq!(refused(|v| v["connectionData"]["vpn"] = json!({"server": "vpn", "user": "u".repeat(21), "password": "p", "key": "k", "type": "L2TP"})), "connectionData.vpn.user");
        assert_eq!(refused(|v| v["connectionData"]["vpn"] = json!({"server": "vpn", "user": "u", "password": "p", "key": "k"})), "connectionData.vpn.type");
        assert_eq!(refused(|v| v["connectionData"]["apn"] = json!({"apn": "a", "preferredNetwork": "46A00", "apnAuthentication": "PAP"})), "connectionData.apn.preferredNetwork");
        assert_eq!(refused(|v| v["connectionData"]["apn"] = json!({"apn": "", "apnAuthentication": "PAP"})), "connectionData.apn.apn");
    }
}
