//! Stations: validation, the faceted list (status x region, sorted by
//! normalised name), and writes that keep list entries, counters and the
//! unique station code in the same transaction as the record.

pub use charging::station::Station;
use charging::station::StationStatus;
use charging::region::validate_region;
use crate::request::FieldProblem;
use envelope::{msg, ApiError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use store::{Condition, Key, TxOp, UpdateAction};

use super::facets::{self, Listing};
use super::words::{self, Words};
use super::{check, not_found, text_problem, tariffs, tx_error};
use crate::ctx::AppCtx;
use crate::domain::{from_item, to_item, StoreResultExt};
use crate::validate::{is_landline, is_phone};

pub const LIST: &str = "station";

pub fn key(id: &str) -> Key {
    Key::new(format!("STATION#{id}"), "STATION")
}

fn code_key(code: &str) -> Key {
    Key::new(format!("STATIONCODE#{}", code.to_uppercase()), "UNIQUE")
}

/// The code's uniqueness item, which also maps the code to its station
/// (the header search finds a station by the code on its sign).
fn code_item(code: &str, station_id: &str) -> store::Item {
    let mut item = code_key(code).to_item();
    item.insert("stationId".into(), station_id.into());
    item
}

/// The station whose code is `code`, any letter case. Stations last saved
/// before codes carried their station are found after their next save.
pub async fn find_by_code(ctx: &AppCtx, code: &str) -> Result<Option<Station>, ApiError> {
    let Some(item) = ctx.store.get(&code_key(code)).await.api()? else { return Ok(None) };
    match item.get("stationId").and_then(serde_json::Value::as_str) {
        Some(id) => find(ctx, id).await,
        None => Ok(None),
    }
}

/// A station as the pages are sent it: the record plus display names.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StationView {
    #[serde(flatten)]
    pub station: Station,
    /// The district's (or city's) full name, the province, city and district names joined by spaces; empty for an unknown code.
    pub region_name: String,
}

/// What a form submits (create and edit).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["code", "name", "provinceCode", "cityCode", "address", "lat", "lng", "openingHours", "status", "servicePhone"]))]
pub struct StationInput {
    #[schemars(regex(pattern = r"^[A-Za-z0-9_-]{1,20}$"))]
    #[serde(default)]
    pub code: String,
    #[schemars(length(min = 1, max = 50))]
    #[serde(default)]
    pub name: String,
    #[schemars(length(max = 50))]
    #[serde(default)]
    pub operator: String,
    #[schemars(regex(pattern = r"^[0-9]{6}$"))]
    #[serde(default)]
    pub province_code: String,
    #[schemars(regex(pattern = r"^[0-9]{6}$"))]
    #[serde(default)]
    pub city_code: String,
    #[schemars(regex(pattern = r"^[0-9]{6}$"))]
    #[serde(default)]
    pub district_code: Option<String>,
    #[schemars(length(min = 1, max = 200))]
    #[serde(default)]
    pub address: String,
    #[schemars(required, range(min = -90, max = 90))]
    pub lat: Option<f64>,
    #[schemars(required, range(min = -180, max = 180))]
    pub lng: Option<f64>,
    /// One to six periods "HH:MM-HH:MM" joined by commas; an end before the
    /// start runs past midnight ("23:00-06:00"); stored sorted by start.
    #[schemars(regex(pattern = r"^([01][0-9]|2[0-4]):[0-5][0-9]-([01][0-9]|2[0-4]):[0-5][0-9](,([01][0-9]|2[0-4]):[0-5][0-9]-([01][0-9]|2[0-4]):[0-5][0-9]){0,5}$"))]
    #[serde(default)]
    pub opening_hours: String,
    #[schemars(required)]
    pub status: Option<StationStatus>,
    #[schemars(regex(pattern = r"^1[0-9]{10}$"))]
    #[serde(default)]
    pub service_phone: String,
    #[schemars(length(max = 200))]
    #[serde(default)]
    pub parking_info: String,
    #[schemars(length(max = 10))]
    #[serde(default)]
    pub photo_urls: Vec<String>,
    #[serde(default)]
    pub tariff_id: String,
}

impl StationInput {
    /// Every problem with the input (tariff existence is checked by the caller).
    pub fn problems(&self) -> Vec<FieldProblem> {
        let mut out = Vec::new();
        text_problem("name", msg::stations::label::name(), &self.name, true, 50, &mut out);
        let code = self.code.trim();
        if code.is_empty() || code.len() > 20 || !code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            out.push(FieldProblem::new("code", msg::stations::bad_code()));
        }
        text_problem("operator", msg::stations::label::operator(), &self.operator, false, 50, &mut out);
        if self.province_code.is_empty() || self.city_code.is_empty() {
            out.push(FieldProblem::new("region", msg::stations::region_required()));
        } else if let Err(e) = validate_region(&self.province_code, &self.city_code, self.district_code.as_deref()) {
            out.push(FieldProblem::new(e.field(), crate::messages::charging::region(&e)));
        }
        text_problem("address", msg::stations::label::address(), &self.address, true, 200, &mut out);
        match self.lat {
            Some(v) if v.is_finite() && (-90.0..=90.0).contains(&v) => {}
            Some(_) => out.push(FieldProblem::new("lat", msg::stations::lat_range())),
            None => out.push(FieldProblem::new("lat", msg::stations::lat_required())),
        }
        match self.lng {
            Some(v) if v.is_finite() && (-180.0..=180.0).contains(&v) => {}
            Some(_) => out.push(FieldProblem::new("lng", msg::stations::lng_range())),
            None => out.push(FieldProblem::new("lng", msg::stations::lng_required())),
        }
        if let Err(p) = charging::hours::parse(&self.opening_hours) {
            out.push(FieldProblem::new(p.field, crate::messages::charging::hours(&p.kind)));
        }
        if self.status.is_none() {
            out.push(FieldProblem::new("status", msg::stations::status_required()));
        }
        let phone = self.service_phone.trim();
        if !(is_phone(phone) || is_landline(phone)) {
            out.push(FieldProblem::new("servicePhone", msg::stations::bad_phone()));
        }
        text_problem("parkingInfo", msg::stations::label::parking_info(), &self.parking_info, false, 200, &mut out);
        if self.photo_urls.len() > 10 || self.photo_urls.iter().any(|u| !crate::validate::is_url(u)) {
            out.push(FieldProblem::new("photoUrls", msg::stations::bad_photos()));
        }
        out
    }
}

fn listing(s: &Station) -> Listing {
    let mut region = vec![s.province_code.clone(), s.city_code.clone()];
    region.extend(s.district_code.clone().filter(|d| !d.is_empty()));
    Listing {
        list: LIST,
        dims: vec![vec![status_str(s.status).into()], region],
        sort: facets::normalise(&s.name),
        target: key(&s.id),
    }
}

fn words_of(s: &Station) -> Words {
    Words { list: LIST, name: facets::normalise(&s.name), parts: listing(s).partitions(), target: key(&s.id) }
}

fn item(s: &Station) -> store::Item {
    let k = key(&s.id);
    to_item(s, &[("PK", k.pk), ("SK", k.sk)])
}

impl StationView {
    /// The list / detail form: the record plus display names.
    pub fn of(station: &Station) -> StationView {
        let region = charging::region::lookup(station.district_code.as_deref().filter(|d| !d.is_empty()).unwrap_or(&station.city_code));
        StationView { station: station.clone(), region_name: region.map(|r| r.display()).unwrap_or_default() }
    }
}

/// A form's values on the record (validated before).
fn apply(s: &mut Station, input: StationInput) {
    s.code = input.code.trim().to_string();
    s.name = input.name.trim().to_string();
    s.operator = input.operator.trim().to_string();
    s.province_code = input.province_code;
    s.city_code = input.city_code;
    s.district_code = input.district_code.filter(|d| !d.is_empty());
    s.address = input.address.trim().to_string();
    s.lat = input.lat.unwrap_or_default();
    s.lng = input.lng.unwrap_or_default();
    // Canonical form (validated before): sorted periods, commas.
    s.opening_hours = charging::hours::normalise(&input.opening_hours).unwrap_or_else(|_| input.opening_hours.trim().to_string());
    s.status = input.status.unwrap_or(StationStatus::Planning);
    s.service_phone = input.service_phone.trim().to_string();
    s.parking_info = input.parking_info.trim().to_string();
    s.photo_urls = input.photo_urls;
    s.tariff_id = input.tariff_id.trim().to_string();
}

pub fn status_str(s: StationStatus) -> &'static str {
    match s {
        StationStatus::Planning => "planning",
        StationStatus::Operating => "operating",
        StationStatus::Suspended => "suspended",
        StationStatus::Closed => "closed",
    }
}

async fn validate(ctx: &AppCtx, input: &StationInput) -> Result<(), ApiError> {
    let mut problems = input.problems();
    let tariff = input.tariff_id.trim();
    if !tariff.is_empty() && tariffs::find(ctx, tariff).await?.is_none() {
        problems.push(FieldProblem::new("tariffId", msg::stations::no_such_tariff(&tariff)));
    }
    check(problems)
}

fn code_taken(code: &str) -> FieldProblem {
    FieldProblem::new("code", msg::stations::code_taken(&code))
}

/// Creates a station; the code must be unused.
pub async fn create(ctx: &AppCtx, input: StationInput, by: &str) -> Result<Station, ApiError> {
    validate(ctx, &input).await?;
    let now = ctx.now();
    let mut s = Station {
        id: format!("st-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
        code: String::new(),
        name: String::new(),
        operator: String::new(),
        province_code: String::new(),
        city_code: String::new(),
        district_code: None,
        address: String::new(),
        lat: 0.0,
        lng: 0.0,
        opening_hours: String::new(),
        status: StationStatus::Planning,
        service_phone: String::new(),
        parking_info: String::new(),
        photo_urls: Vec::new(),
        tariff_id: String::new(),
        pile_count: 0,
        connector_count: 0,
        created_at: now,
        created_by: by.into(),
        updated_at: now,
        updated_by: by.into(),
        version: 1,
    };
    apply(&mut s, input);
    insert(ctx, &s).await?;
    Ok(s)
}

/// Writes a new station with its entries (create and the demo seed).
pub async fn insert(ctx: &AppCtx, s: &Station) -> Result<(), ApiError> {
    let mut ops = vec![
        TxOp::Put { item: code_item(&s.code, &s.id), condition: Some(Condition::item_absent()) },
        TxOp::Put { item: item(&s), condition: Some(Condition::item_absent()) },
    ];
    ops.extend(facets::changes(None, Some(&listing(&s))));
    ops.extend(words::changes(None, Some(&words_of(&s))));
    ctx.store.transact(ops).await.map_err(|e| tx_error(e, Some(0), code_taken(&s.code)))
}

pub async fn find(ctx: &AppCtx, id: &str) -> Result<Option<Station>, ApiError> {
    match ctx.store.get(&key(id)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

pub async fn get(ctx: &AppCtx, id: &str) -> Result<Station, ApiError> {
    find(ctx, id).await?.ok_or_else(|| not_found(msg::assets::what::station(), id))
}

/// Saves an edit made on `expected` version; 409 when someone saved since.
/// Only the edited fields are set, so pile counts maintained by concurrent
/// pile writes are never overwritten.
pub async fn update(ctx: &AppCtx, id: &str, expected: i64, input: StationInput, by: &str) -> Result<Station, ApiError> {
    validate(ctx, &input).await?;
    let old = get(ctx, id).await?;
    if old.version != expected {
        return Err(ApiError::standard(409));
    }
    let mut s = old.clone();
    apply(&mut s, input);
    s.updated_at = ctx.now();
    s.updated_by = by.into();
    s.version = expected + 1;
    let fields = serde_json::to_value(&s).unwrap_or(Value::Null);
    let actions: Vec<UpdateAction> = [
        "code", "name", "operator", "provinceCode", "cityCode", "districtCode", "address", "lat", "lng", "openingHours", "status",
        "servicePhone", "parkingInfo", "photoUrls", "tariffId", "updatedAt", "updatedBy", "version",
    ]
    .iter()
    .map(|f| UpdateAction::Set(f.to_string(), fields[*f].clone()))
    .collect();
    let mut ops = vec![TxOp::Update { key: key(id), actions, condition: Some(Condition::version_is(expected)) }];
    let mut unique_at = None;
    if !old.code.eq_ignore_ascii_case(&s.code) {
        unique_at = Some(ops.len());
        ops.push(TxOp::Put { item: code_item(&s.code, id), condition: Some(Condition::item_absent()) });
        ops.push(TxOp::Delete { key: code_key(&old.code), condition: None });
    } else {
        // The code stays this station's: rewriting its item gives codes saved
        // before they carried the station their station.
        ops.push(TxOp::Put { item: code_item(&s.code, id), condition: None });
    }
    ops.extend(facets::changes(Some(&listing(&old)), Some(&listing(&s))));
    // Stations saved before the word index have no entries yet: their first
    // save writes them all.
    ops.extend(words::changes(Some(&words_of(&old)), Some(&words_of(&s))));
    ctx.store.transact(ops).await.map_err(|e| tx_error(e, unique_at, code_taken(&s.code)))?;
    Ok(s)
}

/// Deletes a station that has no piles (the condition is checked in the
/// same write, so a pile registered meanwhile blocks it).
pub async fn delete(ctx: &AppCtx, id: &str, expected: Option<i64>) -> Result<(), ApiError> {
    let s = get(ctx, id).await?;
    let has_piles = || {
        ApiError::bad_request(msg::stations::has_piles(&s.name, s.pile_count.max(1)))
    };
    if s.pile_count > 0 {
        return Err(has_piles());
    }
    let mut cond = vec![Condition::Eq("pileCount".into(), json!(0))];
    if let Some(v) = expected {
        cond.push(Condition::version_is(v));
    }
    let mut ops = vec![
        TxOp::Delete { key: key(id), condition: Some(Condition::And(cond)) },
        TxOp::Delete { key: code_key(&s.code), condition: None },
    ];
    ops.extend(facets::changes(Some(&listing(&s)), None));
    ops.extend(words::changes(Some(&words_of(&s)), None));
    ctx.store.transact(ops).await.map_err(|e| match ctx_pile_race(&e) {
        true => has_piles(),
        false => crate::domain::store_error(e),
    })
}

fn ctx_pile_race(e: &store::StoreError) -> bool {
    matches!(e, store::StoreError::TransactionCanceled { failed } if failed.contains(&0))
}

/// The list filters (all optional).
#[derive(Debug, Default)]
pub struct Filter<'a> {
    pub name: Option<&'a str>,
    pub status: Option<StationStatus>,
    /// Any province, city or district code.
    pub region: Option<&'a str>,
}

/// One page of stations and the total matching, sorted by normalised
/// name. A name matches anywhere in it (spaces and case ignored): the word
/// index finds it, and the facet entries' name prefix finds stations last
/// saved before the word index existed (from the start of the name only,
/// until their next save). Either reads only the matching entries.
pub async fn list(ctx: &AppCtx, f: Filter<'_>, page_no: u32, page_size: u32) -> Result<(Vec<Station>, u64), ApiError> {
    let partition = facets::partition_of(&[f.status.map(status_str), f.region]);
    let text = f.name.map(facets::normalise).unwrap_or_default();
    let page = if text.is_empty() {
        facets::page(ctx, LIST, &partition, "", page_no, page_size).await?
    } else {
        let mut found = words::containing(ctx, LIST, &text, &partition).await?;
        found.extend(facets::entries_with_prefix(ctx, LIST, &partition, &text).await?);
        let mut by_name: Vec<(String, Key)> = found.into_iter().map(|(k, name)| (name, k)).collect();
        by_name.sort();
        let skip = (page_no.saturating_sub(1) as usize).saturating_mul(page_size as usize);
        let keys = by_name.iter().skip(skip).take(page_size as usize).map(|(_, k)| k.clone()).collect();
        facets::ListPage { keys, total: by_name.len() as u64 }
    };
    let items = ctx.store.batch_get(&page.keys).await.api()?;
    let stations = items.into_iter().flatten().map(from_item).collect::<Result<Vec<Station>, _>>()?;
    Ok((stations, page.total))
}

/// Writes the word entries of stations saved before the word index
/// existed (`gateway backfill`): the entries a station lacks are written,
/// conditioned on the version read (a station saved meanwhile wrote its own
/// and is skipped). Answers the stations read and the entries written.
pub async fn backfill_words(ctx: &AppCtx) -> Result<(usize, usize), ApiError> {
    let (mut stations, mut written) = (0, 0);
    for page_no in 1.. {
        let page = facets::page(ctx, LIST, &facets::partition_of(&[None, None]), "", page_no, 100).await?;
        if page.keys.is_empty() {
            break;
        }
        for item in ctx.store.batch_get(&page.keys).await.api()?.into_iter().flatten() {
            let s: Station = from_item(item)?;
            stations += 1;
            let stored = ctx.store.batch_get(&words_of(&s).keys()).await.api()?;
            let missing = words::missing(&words_of(&s), &stored);
            if missing.is_empty() {
                continue;
            }
            let n = missing.len();
            let mut ops = vec![TxOp::Check { key: key(&s.id), condition: Condition::version_is(s.version) }];
            ops.extend(missing);
            match ctx.store.transact(ops).await {
                Ok(()) => written += n,
                Err(store::StoreError::TransactionCanceled { .. }) => {}
                Err(e) => return Err(crate::domain::store_error(e)),
            }
        }
    }
    Ok((stations, written))
}

/// Adds to the station's pile / connector counts (part of a pile write);
/// the station must still exist.
pub fn count_op(station_id: &str, piles: i64, connectors: i64) -> TxOp {
    TxOp::Update {
        key: key(station_id),
        actions: vec![UpdateAction::Add("pileCount".into(), piles), UpdateAction::Add("connectorCount".into(), connectors)],
        condition: Some(Condition::item_exists()),
    }
}
