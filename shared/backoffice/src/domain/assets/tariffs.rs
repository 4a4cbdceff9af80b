//! Tariff templates, versioned: the current version is one item, and every
//! saved version (including the current one) is also kept as an immutable
//! snapshot, so an order priced with version n can always be shown.

use charging::tariff::{TariffTemplate, TariffTemplateForm};
use envelope::{msg, ApiError};
use serde::{Deserialize, Serialize};
use store::{Condition, Index, Key, Query, TxOp};

use super::{invalid, not_found};
use crate::ctx::AppCtx;
use crate::domain::{from_item, to_item, StoreResultExt};

pub const INDEX_PK: &str = "TARIFFS";

pub fn current_key(id: &str) -> Key {
    Key::new(format!("TARIFF#{id}"), "CURRENT")
}

pub fn version_key(id: &str, version: i64) -> Key {
    Key::new(format!("TARIFF#{id}"), format!("V#{version:06}"))
}

/// A stored template with who changed it and when.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredTariff {
    #[serde(flatten)]
    pub template: TariffTemplate,
    pub updated_at: i64,
    pub updated_by: String,
}

/// A template as the pages are sent it: the editor's form (segments
/// instead of slots) with who changed it last and when.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TariffView {
    pub template: TariffTemplateForm,
    /// Unix seconds.
    pub updated_at: i64,
    pub updated_by: String,
}

/// One saved version in a template's history (not its prices).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TariffVersion {
    pub version: i64,
    pub name: String,
    pub updated_at: i64,
    pub updated_by: String,
}

impl StoredTariff {
    pub fn view(&self) -> TariffView {
        TariffView { template: self.template.to_form(), updated_at: self.updated_at, updated_by: self.updated_by.clone() }
    }

    fn items(&self) -> (store::Item, store::Item) {
        let id = &self.template.id;
        let current = to_item(
            self,
            &[
                ("PK", current_key(id).pk),
                ("SK", current_key(id).sk),
                ("GSI1PK", INDEX_PK.into()),
                ("GSI1SK", format!("{}#{id}", self.template.name.trim())),
            ],
        );
        let k = version_key(id, self.template.version);
        (current, to_item(self, &[("PK", k.pk), ("SK", k.sk)]))
    }
}

/// Validates a submitted form into a template (all problems at once).
fn template_of(form: TariffTemplateForm) -> Result<TariffTemplate, ApiError> {
    form.into_template().map_err(|found| invalid(&crate::messages::charging::problems(&found, crate::messages::charging::tariff)))
}

/// Creates a template at version 1.
pub async fn create(ctx: &AppCtx, mut form: TariffTemplateForm, by: &str) -> Result<StoredTariff, ApiError> {
    form.id = format!("tt-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
    form.version = 1;
    let t = StoredTariff { template: template_of(form)?, updated_at: ctx.now(), updated_by: by.into() };
    write_new(ctx, &t).await?;
    Ok(t)
}

/// Writes a new template (used by create and the demo seed).
pub async fn write_new(ctx: &AppCtx, t: &StoredTariff) -> Result<(), ApiError> {
    let (current, version) = t.items();
    ctx.store
        .transact(vec![
            TxOp::Put { item: current, condition: Some(Condition::item_absent()) },
            TxOp::Put { item: version, condition: Some(Condition::item_absent()) },
        ])
        .await
        .api()
}

/// Saves a change as version `expected + 1`; 409 when someone saved since.
pub async fn update(ctx: &AppCtx, mut form: TariffTemplateForm, expected: i64, by: &str) -> Result<StoredTariff, ApiError> {
    let old = get(ctx, &form.id).await?;
    form.version = expected + 1;
    let t = StoredTariff { template: template_of(form)?, updated_at: ctx.now(), updated_by: by.into() };
    if old.template.version != expected {
        return Err(ApiError::conflict(msg::tariff::stale(&old.template.version)));
    }
    let (current, version) = t.items();
    ctx.store
        .transact(vec![
            TxOp::Put { item: current, condition: Some(Condition::version_is(expected)) },
            TxOp::Put { item: version, condition: Some(Condition::item_absent()) },
        ])
        .await
        .api()?;
    Ok(t)
}

pub async fn find(ctx: &AppCtx, id: &str) -> Result<Option<StoredTariff>, ApiError> {
    match ctx.store.get(&current_key(id)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

pub async fn get(ctx: &AppCtx, id: &str) -> Result<StoredTariff, ApiError> {
    find(ctx, id).await?.ok_or_else(|| not_found(msg::assets::what::tariff(), id))
}

/// One saved version (current or old).
pub async fn get_version(ctx: &AppCtx, id: &str, version: i64) -> Result<StoredTariff, ApiError> {
    match ctx.store.get(&version_key(id, version)).await.api()? {
        Some(item) => from_item(item),
        None => Err(ApiError::not_found(msg::tariff::no_version(&id, &version))),
    }
}

/// All current templates, by name (an operator has tens, not thousands).
pub async fn list(ctx: &AppCtx) -> Result<Vec<StoredTariff>, ApiError> {
    let page = ctx.store.query(Query::index(Index::Gsi1, INDEX_PK)).await.api()?;
    page.items.into_iter().map(from_item).collect()
}

/// Version history, newest first: number, who, when (not the prices).
pub async fn versions(ctx: &AppCtx, id: &str) -> Result<Vec<TariffVersion>, ApiError> {
    let q = Query::partition(format!("TARIFF#{id}")).sort_key(store::SortKey::BeginsWith("V#".into())).backward();
    let page = ctx.store.query(q).await.api()?;
    let mut out = Vec::new();
    for item in page.items {
        let t: StoredTariff = from_item(item)?;
        out.push(TariffVersion { version: t.template.version, name: t.template.name, updated_at: t.updated_at, updated_by: t.updated_by });
    }
    Ok(out)
}

/// A station that uses a template (what the editor lists).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TariffUser {
    pub id: String,
    pub name: String,
}

/// The stations whose tariff is `id`, by name. Stations carry their
/// template, so this walks the unfiltered station list (one operator's
/// stations: tens to a few thousand, read 100 at a time); an index per
/// template would need every station written before it to be rewritten.
pub async fn stations_using(ctx: &AppCtx, id: &str) -> Result<Vec<TariffUser>, ApiError> {
    use super::stations;
    let mut out = Vec::new();
    let mut page_no = 1;
    loop {
        let (page, _) = stations::list(ctx, stations::Filter::default(), page_no, 100).await?;
        let n = page.len();
        out.extend(page.into_iter().filter(|s| s.tariff_id == id).map(|s| TariffUser { id: s.id, name: s.name }));
        if n < 100 {
            return Ok(out);
        }
        page_no += 1;
    }
}

/// How a template edit applies (required on every edit, so no client
/// reprices the stations sharing a template without saying so).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ApplyTo {
    /// A new version of the template: every station using it.
    AllStations,
    /// A copy as a new template (version 1) assigned to `stationId` only;
    /// the template and its other stations stay as they were.
    ThisStation,
}

/// The name of a station's copy: the submitted name, or, when it is the
/// template's own, that name with the station's (cut to the limit).
fn copy_name(submitted: &str, original: &str, station: &str) -> String {
    if submitted.trim() != original.trim() {
        return submitted.to_string();
    }
    let suffix = format!(" · {}", station.trim());
    let room = charging::tariff::NAME_MAX_CHARS.saturating_sub(suffix.chars().count());
    let base: String = original.trim().chars().take(room).collect();
    format!("{base}{suffix}")
}

/// Saves an edit made on version `expected` of template `form.id` as a new
/// template assigned to `station_id` only: the copy and the station's new
/// tariff are written in one transaction (conditioned on the station's
/// version), so either both exist or neither.
pub async fn copy_for_station(ctx: &AppCtx, mut form: TariffTemplateForm, expected: i64, station_id: &str, by: &str) -> Result<(StoredTariff, String), ApiError> {
    use super::stations;
    let old = get(ctx, &form.id).await?;
    if old.template.version != expected {
        return Err(ApiError::conflict(msg::tariff::stale(&old.template.version)));
    }
    let station = stations::get(ctx, station_id).await?;
    if station.tariff_id != old.template.id {
        return Err(ApiError::bad_request(msg::tariff::not_used_by_station(&station.name, &old.template.name)));
    }
    form.name = copy_name(&form.name, &old.template.name, &station.name);
    form.id = format!("tt-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
    form.version = 1;
    let now = ctx.now();
    let t = StoredTariff { template: template_of(form)?, updated_at: now, updated_by: by.into() };
    let (current, version) = t.items();
    let station_update = TxOp::Update {
        key: stations::key(station_id),
        actions: vec![
            store::UpdateAction::Set("tariffId".into(), t.template.id.clone().into()),
            store::UpdateAction::Set("updatedAt".into(), now.into()),
            store::UpdateAction::Set("updatedBy".into(), by.into()),
            store::UpdateAction::Set("version".into(), (station.version + 1).into()),
        ],
        condition: Some(Condition::And(vec![Condition::version_is(station.version), Condition::Eq("tariffId".into(), old.template.id.clone().into())])),
    };
    ctx.store
        .transact(vec![
            TxOp::Put { item: current, condition: Some(Condition::item_absent()) },
            TxOp::Put { item: version, condition: Some(Condition::item_absent()) },
            station_update,
        ])
        .await
        .api()?;
    Ok((t, station.id))
}
