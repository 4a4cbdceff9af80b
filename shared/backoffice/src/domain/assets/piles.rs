//! Piles and their connectors: registration (pile + connectors + list
//! entries + station counts in one transaction), edits, operator actions
//! with status history, and the connector list (station x status x type).
//!
//! Online/offline is never stored: it is derived from the pile's last
//! heartbeat at read time ([`charging::connector::is_online`]) with a window
//! of some heartbeat intervals (an operations setting, 3 by default), so a
//! silent pile can not be shown online after the window passes.

use charging::connector::{apply_action, allowed_actions, effective_status, is_online, ConnectorStandard, ConnectorStatus, OperatorAction, PileType};
pub use charging::connector::Connector;
pub use charging::pile::{Pile, RegistrationStatus, DEFAULT_SECURITY_PROFILE};
use crate::request::FieldProblem;
use envelope::{msg, ApiError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use store::{Condition, Index, Key, Query, SortKey, TxOp, UpdateAction};

use super::facets::{self, Listing};
use super::{check, not_found, stations, text_problem, tx_error};
use crate::ctx::AppCtx;
use crate::domain::operations::{self, OperationSettings};
use crate::domain::{from_item, to_item, StoreResultExt};

pub const CONNECTOR_LIST: &str = "connector";
/// Connectors per pile (the transaction of a registration stays well under
/// DynamoDB's 100 operations).
pub const MAX_CONNECTORS: usize = 4;

pub fn pile_key(id: &str) -> Key {
    Key::new(format!("PILE#{id}"), "PILE")
}

pub fn connector_key(pile_id: &str, number: u32) -> Key {
    Key::new(format!("PILE#{pile_id}"), format!("CONN#{number:02}"))
}

/// The uniqueness item of a pile code; it also maps the code (the
/// charger's OCPP identity, matched regardless of letter case) to the pile.
pub fn pile_code_key(code: &str) -> Key {
    Key::new(format!("PILECODE#{}", code.to_uppercase()), "UNIQUE")
}

/// The pile whose code (= charge point id) is `code`, any letter case.
pub async fn find_by_code(ctx: &AppCtx, code: &str) -> Result<Option<Pile>, ApiError> {
    let Some(item) = ctx.store.get(&pile_code_key(code)).await.api()? else { return Ok(None) };
    match item.get("pileId").and_then(Value::as_str) {
        Some(id) => match ctx.store.get(&pile_key(id)).await.api()? {
            Some(item) => Ok(Some(from_item(item)?)),
            None => Ok(None),
        },
        None => Ok(None),
    }
}

/// Connector ids are `{pileId}-c{n}`, so the id alone locates the record.
pub fn connector_id(pile_id: &str, number: u32) -> String {
    format!("{pile_id}-c{number}")
}

pub fn parse_connector_id(id: &str) -> Option<(&str, u32)> {
    let (pile, n) = id.rsplit_once("-c")?;
    Some((pile, n.parse().ok().filter(|n| (1..=99).contains(n))?))
}

pub fn station_piles_pk(station_id: &str) -> String {
    format!("STATION#{station_id}#PILES")
}

/// Whether a pile's heartbeat came within the window the settings give.
pub fn is_pile_online(pile: &Pile, now: i64, ops: &OperationSettings) -> bool {
    is_online(pile.last_heartbeat, now, ops.offline_window_secs(pile.heartbeat_interval_secs))
}

fn pile_item(pile: &Pile) -> store::Item {
    let k = pile_key(&pile.id);
    to_item(pile, &[("PK", k.pk), ("SK", k.sk), ("GSI1PK", station_piles_pk(&pile.station_id)), ("GSI1SK", pile.code.clone())])
}

impl PileView {
    pub fn of(pile: &Pile, now: i64, ops: &OperationSettings) -> PileView {
        PileView::with_link(pile, now, ops, None)
    }

    pub fn with_link(pile: &Pile, now: i64, ops: &OperationSettings, link: Option<crate::domain::chargers::link::ChargerLink>) -> PileView {
        PileView { pile: pile.clone(), online: is_pile_online(pile, now, ops), offline_after_secs: ops.offline_window_secs(pile.heartbeat_interval_secs), link }
    }
}

/// A pile as the pages are sent it: the record and its online state now.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PileView {
    #[serde(flatten)]
    pub pile: Pile,
    /// A heartbeat came within the window.
    pub online: bool,
    /// The window: heartbeat interval x the operations setting.
    pub offline_after_secs: i64,
    /// The charger link (null until the charger first connects).
    pub link: Option<crate::domain::chargers::link::ChargerLink>,
}

/// A pile with its connectors, by number.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PileWithConnectors {
    #[serde(flatten)]
    pub pile: PileView,
    pub connectors: Vec<ConnectorView>,
}

pub(crate) fn connector_item(c: &Connector) -> store::Item {
    let k = connector_key(&c.pile_id, c.number);
    to_item(
        c,
        &[
            ("PK", k.pk),
            ("SK", k.sk),
            ("GSI1PK", station_piles_pk(&c.station_id)),
            ("GSI1SK", format!("{}#C{:02}", c.pile_code, c.number)),
        ],
    )
}

pub(crate) fn connector_listing(c: &Connector) -> Listing {
    Listing {
        list: CONNECTOR_LIST,
        dims: vec![vec![c.station_id.clone()], vec![status_str(c.status)], vec![type_str(c.pile_type).into()]],
        sort: format!("{}#{}#{:02}", c.station_id, c.pile_code, c.number),
        target: connector_key(&c.pile_id, c.number),
    }
}

impl ConnectorView {
    /// What the UI shows: the stored status, "offline" when the pile is
    /// silent, and the actions that are possible now.
    pub fn of(c: &Connector, pile_online: bool) -> ConnectorView {
        ConnectorView {
            qr_payload: qr_payload(c),
            connector: c.clone(),
            online: pile_online,
            effective_status: effective_status(c.status, pile_online),
            allowed_actions: allowed_actions(c.status),
        }
    }
}

/// What a connector's QR label encodes (what a driver's app scans): the
/// pile's code as the operator typed it and the connector's number, two
/// digits, e.g. `INFYAC001606-01` (the last `-` splits them, so codes
/// with dashes stay readable). An operator-typed QR text wins; the link
/// generated before this (`https://qr.example-charging.cn/c/{connectorId}`,
/// an internal id) counts as none, so connectors stored before show the
/// pile code without a migration.
pub fn qr_payload(c: &Connector) -> String {
    let typed = c.qr_code.trim();
    let legacy = typed.is_empty() || typed.eq_ignore_ascii_case(&format!("https://qr.example-charging.cn/c/{}", c.id));
    if legacy {
        format!("{}-{:02}", c.pile_code, c.number)
    } else {
        typed.to_string()
    }
}

/// A connector as the pages are sent it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectorView {
    #[serde(flatten)]
    pub connector: Connector,
    /// What its QR label encodes: see [`qr_payload`].
    pub qr_payload: String,
    /// Its pile is online.
    pub online: bool,
    /// The status shown: the stored one, or offline while the pile is silent.
    pub effective_status: ConnectorStatus,
    /// The statuses an operator may set by hand now (remote operations
    /// are the charger command routes).
    pub allowed_actions: Vec<OperatorAction>,
}

/// A row of the connector list: the connector with its pile's heartbeat
/// and power and protocol and its station's name (null when the pile or
/// station is gone).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectorListRow {
    #[serde(flatten)]
    pub connector: ConnectorView,
    pub last_heartbeat: Option<i64>,
    pub rated_power_kw: Option<u32>,
    /// The protocol its pile speaks.
    pub ocpp_version: Option<charging::pile::OcppVersion>,
    pub station_name: Option<String>,
}

/// One entry of a connector's status history, as stored and sent.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ConnectorEvent {
    /// Unix seconds.
    pub at: i64,
    /// Null for the registration.
    pub from: Option<ConnectorStatus>,
    pub to: ConnectorStatus,
    /// `registered` or the operator action (`disable`, `reset` ...).
    pub event: String,
    /// The username, or the seeder.
    pub by: String,
}

pub fn status_str(s: ConnectorStatus) -> String {
    serde_json::to_value(s).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
}

pub fn type_str(t: PileType) -> &'static str {
    match t {
        PileType::Ac => "ac",
        PileType::Dc => "dc",
    }
}

#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectorInput {
    #[schemars(required)]
    pub standard: Option<ConnectorStandard>,
    #[schemars(required, range(min = 1, max = 1000))]
    pub max_power_kw: Option<u32>,
    #[schemars(length(max = 200))]
    #[serde(default)]
    pub qr_code: String,
}

#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["stationId", "code", "pileType", "ratedPowerKw", "heartbeatIntervalSecs"]))]
pub struct PileInput {
    #[schemars(length(min = 1))]
    #[serde(default)]
    pub station_id: String,
    #[schemars(regex(pattern = r"^[A-Za-z0-9_-]{1,32}$"))]
    #[serde(default)]
    pub code: names::ChargePointId,
    #[schemars(length(max = 50))]
    #[serde(default)]
    pub vendor: String,
    #[schemars(length(max = 50))]
    #[serde(default)]
    pub model: String,
    #[schemars(length(max = 50))]
    #[serde(default)]
    pub firmware_version: String,
    #[schemars(required)]
    pub pile_type: Option<PileType>,
    #[schemars(required, range(min = 1, max = 1000))]
    pub rated_power_kw: Option<u32>,
    #[schemars(required, range(min = 10, max = 3600))]
    pub heartbeat_interval_secs: Option<i64>,
    /// What the charger is told at boot (default Accepted).
    #[serde(default)]
    pub registration_status: Option<RegistrationStatus>,
    /// 0 none (trusted network only; refused on AWS), 1 Basic auth, 2 Basic
    /// auth over TLS (default 2 where chargers connect over TLS, else 1), 3
    /// TLS with a client certificate issued for the charge point id (only
    /// where the gateway serves TLS itself).
    /// Choosing one other than the default, or changing it, needs
    /// configure:charger (Admin).
    #[serde(default)]
    #[schemars(range(min = 0, max = charging::pile::MAX_SECURITY_PROFILE))]
    pub security_profile: Option<u8>,
    /// The protocol the charger speaks (default OCPP 1.6): `1.6`, `2.0.1`,
    /// or YKC `ykc1.5` / `ykc1.6`, whose pile number (`code`) is 14 digits.
    #[serde(default)]
    pub ocpp_version: Option<charging::pile::OcppVersion>,
    /// Registration only: the pile's connectors, numbered 1..n in order.
    #[schemars(length(min = 1, max = MAX_CONNECTORS))]
    #[serde(default)]
    pub connectors: Vec<ConnectorInput>,
}

fn power_problem(field: &str, p: Option<u32>, out: &mut Vec<FieldProblem>) {
    match p {
        Some(1..=1000) => {}
        _ => out.push(FieldProblem::new(field, msg::piles::power())),
    }
}

fn connector_problems(i: usize, c: &ConnectorInput, rated: Option<u32>, out: &mut Vec<FieldProblem>) {
    let f = |s: &str| format!("connectors[{i}].{s}");
    if c.standard.is_none() {
        out.push(FieldProblem::new(f("standard"), msg::piles::standard_required(i + 1)));
    }
    power_problem(&f("maxPowerKw"), c.max_power_kw, out);
    if let (Some(max), Some(rated)) = (c.max_power_kw, rated) {
        if max > rated {
            out.push(FieldProblem::new(f("maxPowerKw"), msg::piles::connector_over_rated(&max, i + 1, &rated)));
        }
    }
    text_problem(&f("qrCode"), msg::piles::label::qr_code(), &c.qr_code, false, 200, out);
}

impl PileInput {
    fn problems(&self, registering: bool) -> Vec<FieldProblem> {
        let mut out = Vec::new();
        let code = self.code.trim();
        if code.is_empty() || code.len() > 32 || !code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            out.push(FieldProblem::new("code", msg::piles::bad_code()));
        } else if self.ocpp_version.is_some_and(|v| v.is_ykc()) && !charging::pile::is_ykc_pile_no(code) {
            out.push(FieldProblem::new("code", msg::piles::bad_ykc_number(charging::pile::YKC_PILE_NO_DIGITS)));
        }
        text_problem("vendor", msg::piles::label::vendor(), &self.vendor, false, 50, &mut out);
        text_problem("model", msg::piles::label::model(), &self.model, false, 50, &mut out);
        text_problem("firmwareVersion", msg::piles::label::firmware_version(), &self.firmware_version, false, 50, &mut out);
        if self.pile_type.is_none() {
            out.push(FieldProblem::new("pileType", msg::piles::type_required()));
        }
        power_problem("ratedPowerKw", self.rated_power_kw, &mut out);
        if self.security_profile.is_some_and(|p| p > charging::pile::MAX_SECURITY_PROFILE) {
            out.push(FieldProblem::new("securityProfile", msg::piles::bad_security_profile()));
        }
        if !matches!(self.heartbeat_interval_secs, Some(10..=3600)) {
            out.push(FieldProblem::new("heartbeatIntervalSecs", msg::piles::bad_heartbeat()));
        }
        if registering {
            if self.station_id.trim().is_empty() {
                out.push(FieldProblem::new("stationId", msg::piles::station_required()));
            }
            if self.connectors.is_empty() || self.connectors.len() > MAX_CONNECTORS {
                out.push(FieldProblem::new("connectors", msg::piles::connector_count(MAX_CONNECTORS)));
            }
            for (i, c) in self.connectors.iter().enumerate() {
                connector_problems(i, c, self.rated_power_kw, &mut out);
            }
        }
        out
    }
}

fn pile_code_taken(code: &str) -> FieldProblem {
    FieldProblem::new("code", msg::piles::code_taken(&code))
}

pub(crate) fn history_item(connector_id: &str, at: i64, from: Option<ConnectorStatus>, to: ConnectorStatus, what: &str, by: &str) -> store::Item {
    let key = Key::new(format!("CONNHIST#{connector_id}"), format!("{}#{}", crate::domain::keys::time_sort(at), uuid::Uuid::now_v7().simple()));
    let event = ConnectorEvent { at, from, to, event: what.to_string(), by: by.to_string() };
    to_item(&event, &[("PK", key.pk), ("SK", key.sk)])
}

/// Registers a pile with its connectors (status: available, no heartbeat
/// yet, so shown offline until the charger reports).
pub async fn register(ctx: &AppCtx, input: PileInput, by: &str) -> Result<(Pile, Vec<Connector>), ApiError> {
    check(input.problems(true))?;
    let station = stations::get(ctx, input.station_id.trim()).await?;
    let now = ctx.now();
    let pile = Pile {
        id: format!("pl-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
        code: input.code.trim().to_string(),
        station_id: station.id.clone(),
        vendor: input.vendor.trim().into(),
        model: input.model.trim().into(),
        firmware_version: input.firmware_version.trim().into(),
        pile_type: input.pile_type.unwrap_or(PileType::Ac),
        rated_power_kw: input.rated_power_kw.unwrap_or_default(),
        connector_count: input.connectors.len() as u32,
        heartbeat_interval_secs: input.heartbeat_interval_secs.unwrap_or(30),
        last_heartbeat: None,
        registration_status: input.registration_status.unwrap_or_default(),
        security_profile: input.security_profile.unwrap_or(DEFAULT_SECURITY_PROFILE),
        ocpp_version: input.ocpp_version.unwrap_or_default(),
        password_set_at: None,
        created_at: now,
        updated_at: now,
        updated_by: by.into(),
        version: 1,
    };
    let connectors: Vec<Connector> = input
        .connectors
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let n = i as u32 + 1;
            let id = connector_id(&pile.id, n);
            let qr = c.qr_code.trim();
            Connector {
                // Untyped: empty, and the view derives the payload from the pile's code.
                qr_code: qr.into(),
                id,
                pile_id: pile.id.clone(),
                pile_code: pile.code.clone(),
                station_id: pile.station_id.clone(),
                number: n,
                pile_type: pile.pile_type,
                standard: c.standard.unwrap_or(ConnectorStandard::Gbt2015),
                max_power_kw: c.max_power_kw.unwrap_or_default(),
                status: ConnectorStatus::Available,
                fault_code: None,
                status_since: now,
                reported_at: None,
                updated_at: now,
                version: 1,
            }
        })
        .collect();
    insert(ctx, &pile, &connectors, by).await?;
    Ok((pile, connectors))
}

fn code_item(pile: &Pile) -> store::Item {
    let mut item = pile_code_key(&pile.code).to_item();
    item.insert("pileId".into(), json!(pile.id));
    item
}

/// Writes a new pile and its connectors (registration and the demo seed).
pub async fn insert(ctx: &AppCtx, pile: &Pile, connectors: &[Connector], by: &str) -> Result<(), ApiError> {
    let mut ops = vec![
        TxOp::Put { item: code_item(pile), condition: Some(Condition::item_absent()) },
        TxOp::Put { item: pile_item(&pile), condition: Some(Condition::item_absent()) },
        stations::count_op(&pile.station_id, 1, connectors.len() as i64),
    ];
    for c in connectors {
        ops.push(TxOp::Put { item: connector_item(c), condition: Some(Condition::item_absent()) });
        ops.push(TxOp::Put { item: history_item(&c.id, c.status_since, None, c.status, "registered", by), condition: None });
        ops.extend(facets::changes(None, Some(&connector_listing(&c))));
    }
    ctx.store.transact(facets::merge(ops)).await.map_err(|e| match &e {
        store::StoreError::TransactionCanceled { failed } if failed.contains(&2) => not_found(msg::assets::what::station(), &pile.station_id),
        _ => tx_error(e, Some(0), pile_code_taken(&pile.code)),
    })
}

pub async fn get_pile(ctx: &AppCtx, id: &str) -> Result<Pile, ApiError> {
    match ctx.store.get(&pile_key(id)).await.api()? {
        Some(item) => from_item(item),
        None => Err(not_found(msg::assets::what::pile(), id)),
    }
}

/// The pile's connectors, by number.
pub async fn connectors_of(ctx: &AppCtx, pile_id: &str) -> Result<Vec<Connector>, ApiError> {
    let q = Query::partition(format!("PILE#{pile_id}")).sort_key(SortKey::BeginsWith("CONN#".into()));
    ctx.store.query(q).await.api()?.items.into_iter().map(from_item).collect()
}

/// Edits a pile's descriptive fields (type and connectors are fixed at
/// registration: a different pile is a new registration).
pub async fn update(ctx: &AppCtx, id: &str, expected: i64, input: PileInput, by: &str) -> Result<Pile, ApiError> {
    let mut problems = input.problems(false);
    let old = get_pile(ctx, id).await?;
    if input.pile_type.is_some_and(|t| t != old.pile_type) {
        problems.push(FieldProblem::new("pileType", msg::piles::type_fixed()));
    }
    if input.code.trim() != old.code {
        problems.retain(|p| p.field != "code");
        problems.push(FieldProblem::new("code", msg::piles::code_fixed()));
    }
    let protocol = input.ocpp_version.unwrap_or(old.ocpp_version);
    if protocol.is_ykc() && !charging::pile::is_ykc_pile_no(&old.code) && !problems.iter().any(|p| p.field == "code") {
        problems.push(FieldProblem::new("ocppVersion", msg::piles::ykc_needs_number(&old.code, charging::pile::YKC_PILE_NO_DIGITS)));
    }
    let conns = connectors_of(ctx, id).await?;
    if let Some(c) = conns.iter().find(|c| Some(c.max_power_kw) > input.rated_power_kw) {
        problems.push(FieldProblem::new("ratedPowerKw", msg::piles::rated_below_connector(&c.max_power_kw, &c.number)));
    }
    check(problems)?;
    if old.version != expected {
        return Err(ApiError::standard(409));
    }
    let mut p = old;
    p.vendor = input.vendor.trim().into();
    p.model = input.model.trim().into();
    p.firmware_version = input.firmware_version.trim().into();
    p.rated_power_kw = input.rated_power_kw.unwrap_or(p.rated_power_kw);
    p.heartbeat_interval_secs = input.heartbeat_interval_secs.unwrap_or(p.heartbeat_interval_secs);
    p.registration_status = input.registration_status.unwrap_or(p.registration_status);
    p.security_profile = input.security_profile.unwrap_or(p.security_profile);
    p.ocpp_version = input.ocpp_version.unwrap_or(p.ocpp_version);
    p.updated_at = ctx.now();
    p.updated_by = by.into();
    p.version = expected + 1;
    let v = serde_json::to_value(&p).unwrap_or(Value::Null);
    let actions = ["vendor", "model", "firmwareVersion", "ratedPowerKw", "heartbeatIntervalSecs", "registrationStatus", "securityProfile", "ocppVersion", "updatedAt", "updatedBy", "version"]
        .iter()
        .map(|f| UpdateAction::Set(f.to_string(), v[*f].clone()))
        .collect();
    ctx.store.update(&pile_key(id), actions, Some(Condition::version_is(expected))).await.api()?;
    Ok(p)
}

/// Deletes a pile and its connectors; refused while a session is open.
pub async fn delete(ctx: &AppCtx, id: &str) -> Result<(), ApiError> {
    let pile = get_pile(ctx, id).await?;
    let conns = connectors_of(ctx, id).await?;
    if let Some(c) = conns.iter().find(|c| c.status.in_session()) {
        return Err(ApiError::bad_request(msg::piles::connector_charging(&c.number)));
    }
    let mut ops = vec![
        TxOp::Delete { key: pile_key(id), condition: Some(Condition::version_is(pile.version)) },
        TxOp::Delete { key: pile_code_key(&pile.code), condition: None },
        TxOp::Delete { key: crate::domain::chargers::link::key(id), condition: None },
        TxOp::Delete { key: crate::domain::chargers::secret::key(id), condition: None },
        stations::count_op(&pile.station_id, -1, -(conns.len() as i64)),
    ];
    for c in &conns {
        let cond = Condition::Eq("status".into(), json!(c.status));
        ops.push(TxOp::Delete { key: connector_key(id, c.number), condition: Some(cond) });
        ops.extend(facets::changes(Some(&connector_listing(&c)), None));
    }
    ctx.store.transact(facets::merge(ops)).await.api()
}

/// Edits a connector's standard, power and QR code.
pub async fn update_connector(ctx: &AppCtx, id: &str, expected: i64, input: ConnectorInput) -> Result<Connector, ApiError> {
    let (pile_id, n) = parse_connector_id(id).ok_or_else(|| not_found(msg::assets::what::connector(), id))?;
    let pile = get_pile(ctx, pile_id).await?;
    let mut problems = Vec::new();
    connector_problems(n as usize - 1, &input, Some(pile.rated_power_kw), &mut problems);
    check(problems)?;
    let mut c = get_connector(ctx, id).await?;
    if c.version != expected {
        return Err(ApiError::standard(409));
    }
    c.standard = input.standard.unwrap_or(c.standard);
    c.max_power_kw = input.max_power_kw.unwrap_or(c.max_power_kw);
    let qr = input.qr_code.trim();
    if !qr.is_empty() {
        c.qr_code = qr.into();
    }
    c.updated_at = ctx.now();
    c.version = expected + 1;
    let actions = vec![
        UpdateAction::Set("standard".into(), json!(c.standard)),
        UpdateAction::Set("maxPowerKw".into(), json!(c.max_power_kw)),
        UpdateAction::Set("qrCode".into(), json!(c.qr_code)),
        UpdateAction::Set("updatedAt".into(), json!(c.updated_at)),
        UpdateAction::Set("version".into(), json!(c.version)),
    ];
    ctx.store.update(&connector_key(pile_id, n), actions, Some(Condition::version_is(expected))).await.api()?;
    Ok(c)
}

pub async fn get_connector(ctx: &AppCtx, id: &str) -> Result<Connector, ApiError> {
    let (pile_id, n) = parse_connector_id(id).ok_or_else(|| not_found(msg::assets::what::connector(), id))?;
    match ctx.store.get(&connector_key(pile_id, n)).await.api()? {
        Some(item) => from_item(item),
        None => Err(not_found(msg::assets::what::connector(), id)),
    }
}

/// Sets the stored status by hand (out of service and back), with its
/// history entry; the caller tells a connected charger.
pub async fn act(ctx: &AppCtx, id: &str, action: OperatorAction, by: &str) -> Result<Connector, ApiError> {
    let c = get_connector(ctx, id).await?;
    let now = ctx.now();
    let next = apply_action(c.status, action).map_err(|e| super::invalid(&[FieldProblem::new(e.field(), crate::messages::charging::action(&e))]))?;
    let mut n = c.clone();
    n.status = next;
    n.fault_code = if next == ConnectorStatus::Faulted { c.fault_code.clone() } else { None };
    n.status_since = if next == c.status { c.status_since } else { now };
    n.updated_at = now;
    n.version = c.version + 1;
    let actions = vec![
        UpdateAction::Set("status".into(), json!(n.status)),
        UpdateAction::Set("faultCode".into(), json!(n.fault_code)),
        UpdateAction::Set("statusSince".into(), json!(n.status_since)),
        UpdateAction::Set("updatedAt".into(), json!(now)),
        UpdateAction::Set("version".into(), json!(n.version)),
    ];
    let mut ops = vec![
        TxOp::Update { key: connector_key(&c.pile_id, c.number), actions, condition: Some(Condition::version_is(c.version)) },
        TxOp::Put { item: history_item(&c.id, now, Some(c.status), next, &status_event(action), by), condition: None },
    ];
    ops.extend(facets::changes(Some(&connector_listing(&c)), Some(&connector_listing(&n))));
    ctx.store.transact(ops).await.api()?;
    Ok(n)
}

fn status_event(a: OperatorAction) -> String {
    serde_json::to_value(a).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
}

/// A connector's status history, newest first (at most 200 entries).
pub async fn history(ctx: &AppCtx, id: &str) -> Result<Vec<ConnectorEvent>, ApiError> {
    let q = Query::partition(format!("CONNHIST#{id}")).backward().limit(200);
    let page = ctx.store.query(q).await.api()?;
    page.items.into_iter().map(from_item).collect()
}

/// A station's piles, each with its connectors (one query on GSI1: piles
/// sort by code and each pile's connectors follow it).
pub async fn with_connectors(ctx: &AppCtx, station_id: &str) -> Result<Vec<(Pile, Vec<Connector>)>, ApiError> {
    Ok(with_links(ctx, station_id).await?.into_iter().map(|(p, _, c)| (p, c)).collect())
}

/// A station's piles, each with its charger link record and connectors
/// (the link item sorts right after its pile's connectors on GSI1).
pub async fn with_links(ctx: &AppCtx, station_id: &str) -> Result<Vec<(Pile, Option<crate::domain::chargers::link::ChargerLink>, Vec<Connector>)>, ApiError> {
    let mut out: Vec<(Pile, Option<crate::domain::chargers::link::ChargerLink>, Vec<Connector>)> = Vec::new();
    let mut cursor = None;
    loop {
        let page = ctx.store.query(Query::index(Index::Gsi1, station_piles_pk(station_id)).after(cursor)).await.api()?;
        for item in page.items {
            match item.get("SK").and_then(Value::as_str) {
                Some("PILE") => out.push((from_item(item)?, None, Vec::new())),
                Some(crate::domain::chargers::link::SK) => {
                    if let Some((_, link, _)) = out.last_mut() {
                        *link = Some(from_item(item)?);
                    }
                }
                _ => {
                    if let Some((_, _, connectors)) = out.last_mut() {
                        connectors.push(from_item(item)?);
                    }
                }
            }
        }
        cursor = page.cursor;
        if cursor.is_none() {
            return Ok(out);
        }
    }
}

/// A station's piles with their connectors, as the station page shows them.
pub async fn of_station(ctx: &AppCtx, station_id: &str) -> Result<Vec<PileWithConnectors>, ApiError> {
    let now = ctx.now();
    let ops = operations::current(ctx).await?;
    Ok(with_links(ctx, station_id)
        .await?
        .into_iter()
        .map(|(p, link, connectors)| {
            let online = is_pile_online(&p, now, &ops);
            // The link's last message is the pile's heartbeat time (every
            // message from the charger sets it; one write, not two).
            let link = link.map(|l| crate::domain::chargers::link::ChargerLink { last_message_at: p.last_heartbeat, ..l });
            PileWithConnectors { pile: PileView::with_link(&p, now, &ops, link), connectors: connectors.iter().map(|c| ConnectorView::of(c, online)).collect() }
        })
        .collect())
}

/// Connector list filters (all optional).
#[derive(Debug, Default)]
pub struct Filter<'a> {
    pub station_id: Option<&'a str>,
    pub status: Option<ConnectorStatus>,
    pub pile_type: Option<PileType>,
}

/// One page of connectors (with their pile's online state and station
/// name) and the total matching.
pub async fn list(ctx: &AppCtx, f: Filter<'_>, page_no: u32, page_size: u32) -> Result<(Vec<ConnectorListRow>, u64), ApiError> {
    let status = f.status.map(status_str);
    let partition = facets::partition_of(&[f.station_id, status.as_deref(), f.pile_type.map(type_str)]);
    let page = facets::page(ctx, CONNECTOR_LIST, &partition, "", page_no, page_size).await?;
    let conns: Vec<Connector> =
        ctx.store.batch_get(&page.keys).await.api()?.into_iter().flatten().map(from_item).collect::<Result<_, _>>()?;
    let mut pile_ids: Vec<String> = conns.iter().map(|c| c.pile_id.clone()).collect();
    pile_ids.dedup();
    let mut station_ids: Vec<String> = conns.iter().map(|c| c.station_id.clone()).collect();
    station_ids.sort();
    station_ids.dedup();
    let piles: Vec<Pile> = ctx
        .store
        .batch_get(&pile_ids.iter().map(|p| pile_key(p)).collect::<Vec<_>>())
        .await
        .api()?
        .into_iter()
        .flatten()
        .map(from_item)
        .collect::<Result<_, _>>()?;
    let stations: Vec<stations::Station> = ctx
        .store
        .batch_get(&station_ids.iter().map(|s| stations::key(s)).collect::<Vec<_>>())
        .await
        .api()?
        .into_iter()
        .flatten()
        .map(from_item)
        .collect::<Result<_, _>>()?;
    let now = ctx.now();
    let ops = operations::current(ctx).await?;
    let list = conns
        .iter()
        .map(|c| {
            let pile = piles.iter().find(|p| p.id == c.pile_id);
            ConnectorListRow {
                connector: ConnectorView::of(&c, pile.is_some_and(|p| is_pile_online(p, now, &ops))),
                last_heartbeat: pile.and_then(|p| p.last_heartbeat),
                rated_power_kw: pile.map(|p| p.rated_power_kw),
                ocpp_version: pile.map(|p| p.ocpp_version),
                station_name: stations.iter().find(|s| s.id == c.station_id).map(|s| s.name.clone()),
            }
        })
        .collect();
    Ok((list, page.total))
}
