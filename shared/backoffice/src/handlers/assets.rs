//! Charging assets: the region tree, stations, tariffs, piles and
//! connectors. Handlers parse and answer; rules and storage are in
//! `domain::assets`. Writes are recorded in the system log by the dispatch
//! (every POST route below is audited).

use charging::connector::{ConnectorStatus, OperatorAction, PileType};
use charging::station::StationStatus;
use charging::tariff::{Tier, TariffTemplateForm};
use envelope::{msg, ApiError, Text};
use permission::{SYSTEM_DELETE, SYSTEM_READ, SYSTEM_WRITE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::AppCtx;
use crate::domain::assets::piles::{self, Connector, ConnectorEvent, ConnectorInput, ConnectorListRow, PileInput, PileView, PileWithConnectors};
use crate::domain::assets::stations::{self, StationInput, StationView};
use crate::domain::assets::tariffs::{self, ApplyTo, TariffUser, TariffVersion, TariffView};
use crate::domain::chargers;
use crate::domain::operations;
use crate::paging::DEFAULT_PAGE_SIZE;
use crate::params::{IdQuery, IdVersionQuery, PageQuery};
use crate::reply::Reply;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): stations, piles, connectors and tariffs with their
/// lists; a connector taken out of service sends ChangeAvailability (the
/// command, its queue and slot, the message log).
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(
        &[PILES_BY_STATION, TARIFFS, COMMAND_QUEUE],
        &[STATION, STATION_CODE, PILE, PILE_CODE, CONNECTOR_HISTORY, TARIFF, CONNECTOR_LIST, CONNECTOR_COUNT, STATION_LIST, STATION_COUNT, COMMAND, COMMAND_SLOT, MESSAGE_LOG],
    )
};

pub fn routes() -> Vec<Route> {
    vec![
        route!(GET "/area/getList" => "area_list", Permission(SYSTEM_READ), unaudited, "The province / city / district tree with real codes", area_list, data = AreaTree),
        route!(GET "/station/getList" => "station_list", Permission(SYSTEM_READ), unaudited, "Stations filtered by any part of the name, region and status, paged", station_list, query = StationListQuery, data = StationList),
        route!(GET "/station/getDetail" => "station_detail", Permission(SYSTEM_READ), unaudited, "A station with its tariff, piles and connectors", station_detail, query = IdQuery, data = StationDetail; errors = &[404]),
        route!(POST "/station/doAdd" => "station_add", Permission(SYSTEM_WRITE), audited, "Create a station", station_add, body = StationInput, data = StationView),
        route!(POST "/station/doEdit" => "station_edit", Permission(SYSTEM_WRITE), audited, "Edit a station (version checked)", station_edit, body = Edit<StationInput>, data = StationView),
        route!(POST "/station/doDelete" => "station_delete", Permission(SYSTEM_DELETE), audited, "Delete a station without piles", station_delete, body = StationDelete, data = ()),
        route!(GET "/tariff/getList" => "tariff_list", Permission(SYSTEM_READ), unaudited, "Current tariff templates", tariff_list, data = TariffList),
        route!(GET "/tariff/getDetail" => "tariff_detail", Permission(SYSTEM_READ), unaudited, "A tariff template, current or a given version", tariff_detail, query = IdVersionQuery, data = TariffDetail; errors = &[404]),
        route!(GET "/tariff/getVersions" => "tariff_versions", Permission(SYSTEM_READ), unaudited, "A tariff template's saved versions", tariff_versions, query = IdQuery, data = TariffVersions; errors = &[404]),
        route!(POST "/tariff/doAdd" => "tariff_add", Permission(SYSTEM_WRITE), audited, "Create a time-of-use tariff template", tariff_add, body = TariffTemplateForm, data = TariffSaved),
        route!(POST "/tariff/doEdit" => "tariff_edit", Permission(SYSTEM_WRITE), audited, "Save a tariff change: a new version for every station using it, or a copy for one station", tariff_edit, body = Edit<TariffEditFields>, data = TariffSaved),
        route!(GET "/pile/getList" => "pile_list", Permission(SYSTEM_READ), unaudited, "A station's piles with connectors and online state", pile_list, query = PileListQuery, data = PileList; errors = &[404]),
        route!(POST "/pile/doAdd" => "pile_add", Permission(SYSTEM_WRITE), audited, "Register a pile with its connectors (a security profile other than the default needs configure:charger)", pile_add, body = PileInput, data = PileWithConnectors),
        route!(POST "/pile/doEdit" => "pile_edit", Permission(SYSTEM_WRITE), audited, "Edit a pile (version checked; changing its security profile needs configure:charger and closes the charger's connection)", pile_edit, body = Edit<PileInput>, data = PileView; errors = &[404]),
        route!(POST "/pile/doDelete" => "pile_delete", Permission(SYSTEM_DELETE), audited, "Delete a pile and its connectors", pile_delete, body = IdBody, data = ()),
        route!(GET "/connector/getList" => "connector_list", Permission(SYSTEM_READ), unaudited, "Connectors filtered by station, status and type, paged", connector_list, query = ConnectorListQuery, data = ConnectorList),
        route!(GET "/connector/getHistory" => "connector_history", Permission(SYSTEM_READ), unaudited, "A connector's status history", connector_history, query = IdQuery, data = ConnectorHistory; errors = &[404]),
        route!(POST "/connector/doEdit" => "connector_edit", Permission(SYSTEM_WRITE), audited, "Edit a connector (version checked)", connector_edit, body = Edit<ConnectorInput>, data = Connector),
        route!(POST "/connector/doAction" => "connector_action", Permission(SYSTEM_WRITE), audited, "Take a connector out of service by hand (maintenance) or back; a connected charger is sent ChangeAvailability", connector_action, body = ConnectorAction, data = ConnectorActionDone; errors = &[404]),
    ]
}

/// GET /station/getList
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StationListQuery {
    #[serde(flatten)]
    pub page: PageQuery,
    /// Part of the name (spaces and case ignored; matches starting past its
    /// 30th character are not found).
    #[serde(default, deserialize_with = "crate::params::filter_text")]
    #[schemars(length(max = 64))]
    pub name: Option<String>,
    /// A province, city or district code (6 digits).
    #[serde(default, deserialize_with = "crate::params::region_code")]
    #[schemars(regex(pattern = r"^[0-9]{6}$"))]
    pub region_code: Option<String>,
    #[serde(default)]
    pub status: Option<StationStatus>,
}

/// GET /pile/getList
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PileListQuery {
    #[serde(deserialize_with = "crate::params::not_blank")]
    #[schemars(length(min = 1))]
    pub station_id: String,
}

/// GET /connector/getList
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectorListQuery {
    #[serde(flatten)]
    pub page: PageQuery,
    pub station_id: Option<String>,
    pub status: Option<ConnectorStatus>,
    pub pile_type: Option<PileType>,
}

/// The body of an edit: the record's `id`, the `version` the edit was
/// made on, and the fields.
#[derive(Deserialize, JsonSchema)]
#[schemars(rename = "{T}Edit")]
pub struct Edit<T> {
    #[serde(deserialize_with = "crate::params::not_blank")]
    #[schemars(length(min = 1))]
    pub id: String,
    /// The version the edit was made on (a newer one answers 409).
    pub version: i64,
    #[serde(flatten)]
    pub fields: T,
}

/// `{id}` of a delete.
#[derive(Deserialize, JsonSchema)]
pub struct IdBody {
    #[serde(default)]
    pub id: String,
}

/// POST /station/doDelete
#[derive(Deserialize, JsonSchema)]
pub struct StationDelete {
    #[serde(default)]
    pub id: String,
    /// The version shown; when given, a newer one answers 409.
    pub version: Option<i64>,
}

/// POST /connector/doAction
#[derive(Deserialize, JsonSchema)]
pub struct ConnectorAction {
    #[serde(default)]
    pub id: String,
    /// `disable`: out of service (e.g. maintenance); `enable`: back in service.
    pub action: Option<OperatorAction>,
}

/// POST /connector/doAction answer: the connector as stored now, and the
/// ChangeAvailability sent to its charger (null when the charger is not
/// connected: nothing was sent). Follow the command with /charger/command.
#[derive(Serialize, JsonSchema)]
pub struct ConnectorActionDone {
    pub connector: Connector,
    pub command: Option<crate::domain::chargers::commands::Command>,
}

/// GET /station/getList answer.
#[derive(Serialize, JsonSchema)]
pub struct StationList {
    pub list: Vec<StationListRow>,
    /// Stations matching the filter, all pages.
    pub total: u64,
}

/// A station of the list with its tariff's name.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StationListRow {
    #[serde(flatten)]
    pub station: StationView,
    /// Null when no tariff is assigned (or it no longer exists).
    pub tariff_name: Option<String>,
}

/// GET /station/getDetail answer.
#[derive(Serialize, JsonSchema)]
pub struct StationDetail {
    pub station: StationView,
    /// The tariff in force; null when none is assigned (or it no longer exists).
    pub tariff: Option<TariffView>,
    /// The stations using that tariff (this one included); null without one.
    #[serde(rename = "tariffUsage")]
    pub tariff_usage: Option<TariffUsage>,
    /// Piles by serial number, each with its connectors.
    pub piles: Vec<PileWithConnectors>,
}

/// The stations using a template (shown wherever it can be edited).
#[derive(Serialize, JsonSchema)]
pub struct TariffUsage {
    /// By name.
    pub stations: Vec<TariffUser>,
    pub total: usize,
}

/// POST /tariff/doEdit's fields: the template and how the change applies.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TariffEditFields {
    #[serde(flatten)]
    pub template: TariffTemplateForm,
    /// Required: `allStations` saves a new version (every station using the
    /// template gets it); `thisStation` saves a copy as a new template for
    /// `stationId` only.
    #[schemars(required)]
    pub apply: Option<ApplyTo>,
    /// The station whose page the edit was made on (required with `thisStation`).
    pub station_id: Option<String>,
}

/// GET /tariff/getList answer.
#[derive(Serialize, JsonSchema)]
pub struct TariffList {
    /// By name.
    pub list: Vec<TariffView>,
    pub total: usize,
}

/// GET /tariff/getDetail answer.
#[derive(Serialize, JsonSchema)]
pub struct TariffDetail {
    #[serde(flatten)]
    pub tariff: TariffView,
    /// The schedule's 48 half-hours from 00:00.
    pub slots: Vec<Tier>,
}

/// GET /tariff/getVersions answer.
#[derive(Serialize, JsonSchema)]
pub struct TariffVersions {
    /// Newest first.
    pub list: Vec<TariffVersion>,
}

/// POST /tariff/doAdd and /tariff/doEdit answer: the saved version.
#[derive(Serialize, JsonSchema)]
pub struct TariffSaved {
    pub template: TariffTemplateForm,
    /// The YKC piles of the stations now using it, each sent the new model
    /// (its command: the pile's answer says whether it took it).
    pub pushed: Vec<crate::domain::chargers::ykc_platform::TariffPush>,
}

/// GET /pile/getList answer.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PileList {
    pub list: Vec<PileWithConnectors>,
    pub total: usize,
    /// The TCP port YKC piles connect to (`BACKOFFICE_YKC_PORT`), on this
    /// site's host name; null: YKC piles cannot connect here.
    pub ykc_port: Option<u16>,
}

/// GET /connector/getList answer.
#[derive(Serialize, JsonSchema)]
pub struct ConnectorList {
    pub list: Vec<ConnectorListRow>,
    /// Connectors matching the filter, all pages.
    pub total: u64,
}

/// GET /connector/getHistory answer.
#[derive(Serialize, JsonSchema)]
pub struct ConnectorHistory {
    /// Newest first, at most 200.
    pub list: Vec<ConnectorEvent>,
}

fn saved() -> Text {
    msg::common::saved()
}

fn deleted() -> Text {
    msg::common::deleted()
}

fn username(call: &Call) -> Result<String, ApiError> {
    Ok(call.caller()?.username().to_string())
}

fn id_payload(call: &Call) -> Result<String, ApiError> {
    let id: IdBody = call.req.payload()?;
    let id = id.id.trim().to_string();
    if id.is_empty() {
        return Err(ApiError::bad_request(msg::common::id_required()));
    }
    Ok(id)
}

// ------------------------------------------------------------ region tree

/// GET /area/getList: static data (compiled in), the same for everyone.
pub async fn area_list(_ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    Ok(Reply::data(AreaTree { list: charging::region::region_tree() }))
}

/// Every province with its cities and districts (national codes).
#[derive(Serialize, JsonSchema)]
pub struct AreaTree {
    pub list: &'static [charging::region::Province],
}

// ------------------------------------------------------------ stations

/// GET /station/getList?name=&regionCode=&status=&pageNo=&pageSize=
pub async fn station_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let StationListQuery { page, name, region_code, status } = call.query()?;
    let paging = page.paging(DEFAULT_PAGE_SIZE);
    let filter = stations::Filter { name: name.as_deref(), status, region: region_code.as_deref() };
    let (list, total) = stations::list(ctx, filter, paging.page_no as u32, paging.page_size as u32).await?;
    let tariff_names = tariff_names(ctx).await?;
    let list: Vec<StationListRow> = list
        .iter()
        .map(|s| StationListRow { station: StationView::of(&s), tariff_name: tariff_names.iter().find(|(id, _)| *id == s.tariff_id).map(|(_, n)| n.clone()) })
        .collect();
    Ok(Reply::data(StationList { list, total }))
}

async fn tariff_names(ctx: &AppCtx) -> Result<Vec<(String, String)>, ApiError> {
    Ok(tariffs::list(ctx).await?.into_iter().map(|t| (t.template.id, t.template.name)).collect())
}

/// GET /station/getDetail?id=
pub async fn station_detail(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let IdQuery { id } = call.query()?;
    let station = stations::get(ctx, &id).await?;
    let tariff = match station.tariff_id.as_str() {
        "" => None,
        t => tariffs::find(ctx, t).await?.map(|t| t.view()),
    };
    let tariff_usage = match &tariff {
        None => None,
        Some(t) => {
            let stations = tariffs::stations_using(ctx, &t.template.id).await?;
            Some(TariffUsage { total: stations.len(), stations })
        }
    };
    let piles = piles::of_station(ctx, &id).await?;
    Ok(Reply::data(StationDetail { station: StationView::of(&station), tariff, tariff_usage, piles }))
}

/// POST /station/doAdd
pub async fn station_add(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let input: StationInput = call.req.payload()?;
    let s = stations::create(ctx, input, &username(&call)?).await?;
    Ok(Reply::data_with_msg(StationView::of(&s), saved()))
}

/// POST /station/doEdit {id, version, ...fields}
pub async fn station_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let Edit::<StationInput> { id, version, fields: input } = call.req.payload()?;
    let by = username(&call)?;
    let before = stations::get(ctx, &id).await?.tariff_id;
    let s = stations::update(ctx, &id, version, input, &by).await?;
    // Its YKC piles bill with the station's tariff: a new one is pushed to them.
    if s.tariff_id != before {
        crate::domain::chargers::ykc_platform::push_tariff(ctx, std::slice::from_ref(&s.id), &by).await?;
    }
    Ok(Reply::data_with_msg(StationView::of(&s), saved()))
}

/// POST /station/doDelete {id, version?}
pub async fn station_delete(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let d: StationDelete = call.req.payload()?;
    if d.id.trim().is_empty() {
        return Err(ApiError::bad_request(msg::common::id_required()));
    }
    stations::delete(ctx, d.id.trim(), d.version).await?;
    Ok(Reply::message(deleted()))
}

// ------------------------------------------------------------ tariffs

/// GET /tariff/getList: every current template in the editor's form.
pub async fn tariff_list(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let list: Vec<TariffView> = tariffs::list(ctx).await?.iter().map(|t| t.view()).collect();
    Ok(Reply::data(TariffList { total: list.len(), list }))
}

/// GET /tariff/getDetail?id=&version=
pub async fn tariff_detail(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: IdVersionQuery = call.query()?;
    let t = match q.version {
        None => tariffs::get(ctx, &q.id).await?,
        Some(v) => tariffs::get_version(ctx, &q.id, i64::from(v)).await?,
    };
    Ok(Reply::data(TariffDetail { tariff: t.view(), slots: t.template.slots }))
}

/// GET /tariff/getVersions?id=
pub async fn tariff_versions(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let IdQuery { id } = call.query()?;
    tariffs::get(ctx, &id).await?;
    Ok(Reply::data(TariffVersions { list: tariffs::versions(ctx, &id).await? }))
}

/// POST /tariff/doAdd {name, segments, prices, parking?}
pub async fn tariff_add(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let form: TariffTemplateForm = call.req.payload()?;
    let t = tariffs::create(ctx, form, &username(&call)?).await?;
    Ok(Reply::data_with_msg(TariffSaved { template: t.template.to_form(), pushed: Vec::new() }, saved()))
}

/// POST /tariff/doEdit {id, version, apply, stationId?, name, segments, prices, parking?}:
/// `apply=allStations` saves version+1 (the old version stays readable);
/// `apply=thisStation` saves a copy assigned to `stationId` only.
pub async fn tariff_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let Edit::<TariffEditFields> { id, version, fields } = call.req.payload()?;
    let mut form = fields.template;
    form.id = id;
    let by = username(&call)?;
    let t = match fields.apply {
        None => {
            return Err(ApiError::bad_request(msg::tariff::apply_required()))
        }
        Some(ApplyTo::AllStations) => tariffs::update(ctx, form, version, &by).await?,
        Some(ApplyTo::ThisStation) => {
            let station = fields.station_id.as_deref().map(str::trim).filter(|s| !s.is_empty()).ok_or_else(|| {
                ApiError::bad_request(msg::tariff::station_id_required())
            })?;
            tariffs::copy_for_station(ctx, form, version, station, &by).await?.0
        }
    };
    let using: Vec<String> = tariffs::stations_using(ctx, &t.template.id).await?.into_iter().map(|s| s.id).collect();
    let pushed = crate::domain::chargers::ykc_platform::push_tariff(ctx, &using, &by).await?;
    Ok(Reply::data_with_msg(TariffSaved { template: t.template.to_form(), pushed }, saved()))
}

// ------------------------------------------------------------ piles

/// GET /pile/getList?stationId=
pub async fn pile_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: PileListQuery = call.query()?;
    stations::get(ctx, &q.station_id).await?;
    let list = piles::of_station(ctx, &q.station_id).await?;
    Ok(Reply::data(PileList { total: list.len(), list, ykc_port: ctx.config.ykc_port }))
}

/// POST /pile/doAdd {stationId, code, pileType, ratedPowerKw, heartbeatIntervalSecs, connectors: [...]}
pub async fn pile_add(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let mut input: PileInput = call.req.payload()?;
    let default = chargers::default_security_profile(ctx);
    if let Some(p) = input.security_profile.filter(|p| *p <= charging::pile::MAX_SECURITY_PROFILE) {
        if p != default && !chargers::may_change_credentials(&call.caller()?.principal) {
            return Err(chargers::credentials_forbidden("securityProfile"));
        }
        chargers::check_security_profile(ctx, p)?;
    }
    input.security_profile = input.security_profile.or(Some(default));
    let (pile, conns) = piles::register(ctx, input, &username(&call)?).await?;
    let now = ctx.now();
    let ops = operations::current(ctx).await?;
    let online = piles::is_pile_online(&pile, now, &ops);
    Ok(Reply::data_with_msg(PileWithConnectors { pile: PileView::of(&pile, now, &ops), connectors: conns.iter().map(|c| piles::ConnectorView::of(c, online)).collect() }, saved()))
}

/// POST /pile/doEdit {id, version, ...fields}
pub async fn pile_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let Edit::<PileInput> { id, version, fields: input } = call.req.payload()?;
    let before = piles::get_pile(ctx, id.trim()).await?.security_profile;
    let changes_profile = input.security_profile.is_some_and(|p| p <= charging::pile::MAX_SECURITY_PROFILE && p != before);
    if changes_profile {
        if !chargers::may_change_credentials(&call.caller()?.principal) {
            return Err(chargers::credentials_forbidden("securityProfile"));
        }
        chargers::check_security_profile(ctx, input.security_profile.unwrap_or(before))?;
    }
    let p = piles::update(ctx, &id, version, input, &username(&call)?).await?;
    if changes_profile {
        // The connection was admitted under the old rules: it goes.
        chargers::close_live_connection(ctx, &p.id).await?;
    }
    Ok(Reply::data_with_msg(PileView::of(&p, ctx.now(), &operations::current(ctx).await?), saved()))
}

/// POST /pile/doDelete {id}
pub async fn pile_delete(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let id = id_payload(&call)?;
    piles::delete(ctx, &id).await?;
    Ok(Reply::message(deleted()))
}

// ------------------------------------------------------------ connectors

/// GET /connector/getList?stationId=&status=&pileType=&pageNo=&pageSize=
pub async fn connector_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: ConnectorListQuery = call.query()?;
    let paging = q.page.paging(DEFAULT_PAGE_SIZE);
    let station_id = q.station_id.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let filter = piles::Filter { station_id, status: q.status, pile_type: q.pile_type };
    let (list, total) = piles::list(ctx, filter, paging.page_no as u32, paging.page_size as u32).await?;
    Ok(Reply::data(ConnectorList { list, total }))
}

/// GET /connector/getHistory?id=
pub async fn connector_history(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let IdQuery { id } = call.query()?;
    piles::get_connector(ctx, &id).await?;
    Ok(Reply::data(ConnectorHistory { list: piles::history(ctx, &id).await? }))
}

/// POST /connector/doEdit {id, version, standard, maxPowerKw, qrCode}
pub async fn connector_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let Edit::<ConnectorInput> { id, version, fields: input } = call.req.payload()?;
    let c = piles::update_connector(ctx, &id, version, input).await?;
    Ok(Reply::data_with_msg(c, saved()))
}

/// POST /connector/doAction {id, action}: the stored status first (it
/// holds whether or not the charger is reachable), then, when the charger
/// is connected, ChangeAvailability for that connector so the charger
/// itself stops (or resumes) taking sessions.
pub async fn connector_action(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let a: ConnectorAction = call.req.payload()?;
    let action = a.action.ok_or_else(|| {
        ApiError::bad_request(msg::connectors::action_required())
    })?;
    if a.id.trim().is_empty() {
        return Err(ApiError::bad_request(msg::common::id_required()));
    }
    let by = username(&call)?;
    let c = piles::act(ctx, a.id.trim(), action, &by).await?;
    let connected = crate::domain::chargers::link::get(ctx, &c.pile_id).await?.is_some_and(|l| l.connected);
    if !connected {
        return Ok(Reply::data_with_msg(
            ConnectorActionDone { connector: c, command: None },
            msg::connectors::saved_offline(),
        ));
    }
    let version = piles::get_pile(ctx, &c.pile_id).await?.ocpp_version;
    if version.is_ykc() {
        return Ok(Reply::data_with_msg(ConnectorActionDone { connector: c, command: None }, msg::connectors::saved_ykc()));
    }
    let (version, payload) = match version {
        charging::pile::OcppVersion::V16 => (ocpp::Version::V16, serde_json::json!({"connectorId": c.number, "type": action.availability()})),
        // 2.0.1 names an EVSE (one per connector here) and says Operative / Inoperative the same way.
        charging::pile::OcppVersion::V201 => (ocpp::Version::V201, serde_json::json!({"evse": {"id": c.number}, "operationalStatus": action.availability()})),
        charging::pile::OcppVersion::Ykc15 | charging::pile::OcppVersion::Ykc16 => unreachable!("answered above"),
    };
    let command = crate::domain::chargers::commands::submit_as(ctx, &c.pile_id, version, "ChangeAvailability", payload, &by).await?;
    Ok(Reply::data_with_msg(
        ConnectorActionDone { connector: c, command: Some(command) },
        msg::connectors::saved_sent(),
    ))
}
