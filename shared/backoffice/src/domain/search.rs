//! The header search: pages by their title in either language, and the
//! records staff look up by what they read on a receipt, a charger or a
//! card (order number, station name or code, pile code, card number).
//! Every record lookup is one key read or one name-prefix page, so a search
//! costs the same whatever the store holds; a record kind is searched only
//! when the caller may call the route that shows it.

use envelope::{msg, ApiError, Lang};
use http::Method;
use permission::Principal;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

use super::assets::{piles, stations};
use super::{cards, menus, orders};
use crate::ctx::AppCtx;
use crate::domain::StoreResultExt;
use crate::dispatch::has_permission;
use crate::routes::{self, Access};

/// The most suggestions the header search shows.
pub const LIMIT: usize = 20;
/// Record suggestions per kind (stations by name prefix can be many).
const RECORDS_PER_KIND: u32 = 5;

/// English menu titles by their Chinese title: the SPA's dictionary, read
/// from the same file, so a title renamed there is found here too.
fn menu_titles_en() -> &'static HashMap<String, String> {
    static TITLES: OnceLock<HashMap<String, String>> = OnceLock::new();
    TITLES.get_or_init(|| serde_json::from_str(include_str!("../../../../web/src/i18n/menu-titles-en.json")).unwrap_or_default())
}

/// What a suggestion opens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum HitKind {
    Page,
    Order,
    Station,
    Pile,
    Card,
    /// Nothing matched: a web search of the keyword (no `url`).
    Web,
}

/// One suggestion of the header search.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Hit {
    /// What the list shows: a page's title as stored (the SPA translates
    /// it), or the record in the caller's language.
    pub value: String,
    /// The SPA's hash route (`#/…`) or an external link; absent for a web search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    pub kind: HitKind,
}

/// Whether the caller may call the route at `path` (GET).
fn may_read(principal: &Principal, path: &str) -> bool {
    match routes::find(&Method::GET, path).map(|r| r.access) {
        Some(Access::Permission(p)) => has_permission(principal, p),
        Some(_) => true,
        None => false,
    }
}


/// Menu pages whose title (Chinese or English) or path contains the keyword.
fn pages(visible: &[Value], keyword: &str) -> Vec<Hit> {
    let needle = keyword.to_lowercase();
    menus::searchable_entries(visible)
        .into_iter()
        .filter(|(title, path)| {
            let en = menu_titles_en().get(title).map(|t| t.to_lowercase()).unwrap_or_default();
            title.to_lowercase().contains(&needle) || en.contains(&needle) || path.to_lowercase().contains(&needle)
        })
        .map(|(title, path)| {
            let url = if menus::is_external(&path) { path } else { format!("#{path}") };
            Hit { value: title, url: Some(url), kind: HitKind::Page }
        })
        .collect()
}

async fn records(ctx: &AppCtx, principal: &Principal, keyword: &str, lang: Lang) -> Result<Vec<Hit>, ApiError> {
    let mut hits = Vec::new();
    // Record ids and codes are short tokens without spaces.
    let token = keyword.trim();
    let is_token = !token.is_empty() && token.len() <= 64 && !token.contains(char::is_whitespace);
    if is_token && may_read(principal, "/order/detail") {
        let no = token.to_uppercase();
        if let Ok(row) = orders::load(ctx, &no).await {
            // What is on the charger: the pile's code and the connector's number (never internal ids).
            let code = match row.pile_code.clone() {
                Some(c) => c,
                None => match ctx.store.get(&piles::pile_key(&row.order.pile_id)).await.api()? {
                    Some(item) => item.get("code").and_then(|v| v.as_str()).unwrap_or_default().to_string(),
                    None => String::new(),
                },
            };
            let n = piles::parse_connector_id(&row.order.connector_id).map(|(_, n)| n).unwrap_or_default();
            let found = if code.is_empty() {
                msg::search::order(&row.order.order_no, &row.station_name)
            } else {
                msg::search::order_at(n, &row.order.order_no, &code, &row.station_name)
            };
            hits.push(Hit {
                value: found.get(lang).to_string(),
                url: Some(format!("#/order/detail?id={}", urlencode(&row.order.order_no))),
                kind: HitKind::Order,
            });
        }
    }
    if may_read(principal, "/station/getList") {
        let by_code = if is_token { stations::find_by_code(ctx, token).await? } else { None };
        let by_name = stations::list(ctx, stations::Filter { name: Some(keyword), ..Default::default() }, 1, RECORDS_PER_KIND).await?.0;
        let mut seen = std::collections::HashSet::new();
        for s in by_code.into_iter().chain(by_name).filter(|s| seen.insert(s.id.clone())) {
            hits.push(Hit {
                value: msg::search::station(&s.code, &s.name).get(lang).to_string(),
                url: Some(format!("#/connector/stationdetail?id={}", urlencode(&s.id))),
                kind: HitKind::Station,
            });
        }
    }
    if is_token && may_read(principal, "/pile/getList") {
        if let Some(pile) = piles::find_by_code(ctx, token).await? {
            let station = stations::find(ctx, &pile.station_id).await?.map(|s| s.name).unwrap_or_default();
            hits.push(Hit {
                value: msg::search::pile(&pile.code, &station).get(lang).to_string(),
                url: Some(format!("#/connector/stationdetail?id={}", urlencode(&pile.station_id))),
                kind: HitKind::Pile,
            });
        }
    }
    if is_token && may_read(principal, "/card/getList") {
        if let Some(card) = cards::get(ctx, token).await? {
            let found = if card.holder.is_empty() { msg::search::card(&card.id_tag) } else { msg::search::card_of(&card.holder, &card.id_tag) };
            hits.push(Hit {
                value: found.get(lang).to_string(),
                url: Some(format!("#/connector/cards?keyword={}", urlencode(&card.id_tag))),
                kind: HitKind::Card,
            });
        }
    }
    Ok(hits)
}

fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// The suggestions for `keyword`: records first (an exact number is what
/// the user typed it for), then pages; a web search when nothing matched.
pub async fn suggest(ctx: &AppCtx, principal: &Principal, keyword: &str, lang: Lang) -> Result<Vec<Hit>, ApiError> {
    let keyword = keyword.trim();
    let visible = menus::visible_to(ctx, principal).await?;
    if keyword.is_empty() {
        // Before typing: the pages the caller may open.
        return Ok(pages(&visible, "").into_iter().take(LIMIT).collect());
    }
    let mut hits = records(ctx, principal, keyword, lang).await?;
    hits.extend(pages(&visible, keyword));
    hits.truncate(LIMIT);
    if hits.is_empty() {
        hits.push(Hit { value: keyword.to_string(), url: None, kind: HitKind::Web });
    }
    Ok(hits)
}
