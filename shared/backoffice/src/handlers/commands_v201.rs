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

use super::commands::{location, ocpp_value, queue_v201, retries, MAX_STACK_LEVEL};
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
