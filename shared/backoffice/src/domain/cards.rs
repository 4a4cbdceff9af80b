//! Charging cards: the idTags chargers ask about (OCPP Authorize and
//! StartTransaction answer from here). Key: `CARD#{IDTAG}` / `CARD`
//! (upper-cased: OCPP idTags are case-insensitive CiString20).

use charging::Problem;
use envelope::{ApiError, Text};
use names::CardNumber;
use serde::{Deserialize, Serialize};
use store::{Condition, Key, TxOp};

use crate::ctx::AppCtx;
use crate::domain::assets::facets::{self, Listing};
use crate::domain::assets::{check, text_problem};
use crate::domain::{from_item, StoreResultExt};

pub const CARD_LIST: &str = "card";
/// OCPP 1.6 idTags are CiString20.
pub const MAX_ID_TAG: usize = 20;
/// Rows of one import.
pub const MAX_IMPORT: usize = 1000;

/// A card's status, in OCPP's own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum CardStatus {
    Accepted,
    Blocked,
    Expired,
    Invalid,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Card {
    pub id_tag: String,
    #[serde(default)]
    pub holder: String,
    #[serde(default)]
    pub plate: String,
    pub status: CardStatus,
    #[serde(default)]
    pub expires_at: Option<i64>,
    #[serde(default)]
    pub parent_id_tag: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub updated_by: String,
    pub version: i64,
}

/// What a charger is told about an idTag (OCPP 1.6 IdTagInfo).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct IdTagInfo {
    pub status: CardStatus,
    pub expiry_date: Option<i64>,
    pub parent_id_tag: Option<String>,
}

pub fn key(id_tag: &str) -> Key {
    Key::new(format!("CARD#{}", id_tag.trim().to_uppercase()), "CARD")
}

/// The stored card, if any (case-insensitive).
pub async fn get(ctx: &AppCtx, id_tag: &str) -> Result<Option<Card>, ApiError> {
    match ctx.store.get(&key(id_tag)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

/// Unknown idTag -> Invalid; an expiry in the past -> Expired; otherwise the card's status. One store read.
pub async fn authorize(ctx: &AppCtx, id_tag: &str) -> Result<IdTagInfo, ApiError> {
    let Some(card) = get(ctx, id_tag).await? else {
        return Ok(IdTagInfo { status: CardStatus::Invalid, expiry_date: None, parent_id_tag: None });
    };
    let expired = card.expires_at.is_some_and(|t| t <= ctx.now());
    let status = if expired && card.status == CardStatus::Accepted { CardStatus::Expired } else { card.status };
    Ok(IdTagInfo { status, expiry_date: card.expires_at, parent_id_tag: card.parent_id_tag })
}


fn status_str(s: CardStatus) -> String {
    serde_json::to_value(s).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
}

fn listing(c: &Card) -> Listing {
    Listing { list: CARD_LIST, dims: vec![vec![status_str(c.status)]], sort: c.id_tag.to_uppercase(), target: key(&c.id_tag) }
}

fn item(c: &Card) -> store::Item {
    let k = key(&c.id_tag);
    crate::domain::to_item(c, &[(store::PK, k.pk), (store::SK, k.sk)])
}

/// A card as typed in the form or an import row.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["idTag", "status"]))]
pub struct CardInput {
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    pub id_tag: CardNumber,
    #[serde(default)]
    #[schemars(length(max = 50))]
    pub holder: String,
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub plate: String,
    pub status: Option<CardStatus>,
    /// Unix seconds; null = never expires.
    #[serde(default)]
    pub expires_at: Option<i64>,
    /// The group card this one belongs to (an existing idTag).
    #[serde(default)]
    #[schemars(length(max = 20))]
    pub parent_id_tag: Option<CardNumber>,
}

impl CardInput {
    fn problems(&self, at: &str) -> Vec<Problem> {
        let f = |name: &str| format!("{at}{name}");
        let mut out = Vec::new();
        let tag = self.id_tag.trim();
        if tag.is_empty() || tag.chars().count() > MAX_ID_TAG || !tag.chars().all(|c| c.is_ascii_graphic()) {
            out.push(Problem::new(f("idTag"), format!("{at}idTag: a card number is 1-{MAX_ID_TAG} letters, digits or symbols without spaces"), format!("{at}idTag：卡号须为1-{MAX_ID_TAG}位字母、数字或符号（不含空格）")));
        }
        text_problem(&f("holder"), &format!("{at}holder: the holder"), &format!("{at}holder：持卡人"), &self.holder, false, 50, &mut out);
        text_problem(&f("plate"), &format!("{at}plate: the plate"), &format!("{at}plate：车牌"), &self.plate, false, 16, &mut out);
        if self.status.is_none() {
            out.push(Problem::new(f("status"), format!("{at}status is required: Accepted, Blocked, Expired or Invalid"), format!("{at}status：请选择状态")));
        }
        if self.expires_at.is_some_and(|t| t <= 0) {
            out.push(Problem::new(f("expiresAt"), format!("{at}expiresAt: the expiry must be a date"), format!("{at}expiresAt：有效期须为日期")));
        }
        if let Some(p) = self.parent_id_tag.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
            if p.eq_ignore_ascii_case(tag) {
                out.push(Problem::new(f("parentIdTag"), format!("{at}parentIdTag: a card cannot be its own group card"), format!("{at}parentIdTag：上级卡不能是本卡")));
            }
        }
        out
    }

    fn card(&self, now: i64, by: &str, created_at: i64, version: i64) -> Card {
        Card {
            id_tag: self.id_tag.trim().to_string(),
            holder: self.holder.trim().to_string(),
            plate: self.plate.trim().to_string(),
            status: self.status.unwrap_or(CardStatus::Accepted),
            expires_at: self.expires_at,
            parent_id_tag: self.parent_id_tag.as_deref().filter(|p| !p.is_empty()).map(String::from),
            created_at,
            updated_at: now,
            updated_by: by.to_string(),
            version,
        }
    }
}

/// A 400 on the idTag field (the form marks it), message as before.
fn taken(tag: &str) -> ApiError {
    crate::domain::assets::invalid(&[Problem::new("idTag", format!("idTag: card {tag} exists already (card numbers ignore letter case)"), format!("idTag：卡号{tag}已存在（不区分大小写）"))])
}

fn not_found(tag: &str) -> ApiError {
    ApiError::not_found(Text::new(format!("no charging card {tag}"), format!("充电卡{tag}不存在")))
}

async fn check_parent(ctx: &AppCtx, input: &CardInput, field: &str) -> Result<(), ApiError> {
    if let Some(p) = input.parent_id_tag.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
        if get(ctx, p).await?.is_none() {
            return Err(crate::domain::assets::invalid(&[Problem::new(field, format!("{field}: no card {p} to be the group card"), format!("{field}：上级卡{p}不存在"))]));
        }
    }
    Ok(())
}

pub async fn create(ctx: &AppCtx, input: CardInput, by: &str) -> Result<Card, ApiError> {
    check(input.problems(""))?;
    check_parent(ctx, &input, "parentIdTag").await?;
    let now = ctx.now();
    let card = input.card(now, by, now, 1);
    let mut ops = vec![TxOp::Put { item: item(&card), condition: Some(Condition::item_absent()) }];
    ops.extend(facets::changes(None, Some(&listing(&card))));
    ctx.store.transact(facets::merge(ops)).await.map_err(|e| match e {
        store::StoreError::TransactionCanceled { failed } if failed.contains(&0) => taken(&card.id_tag),
        e => crate::domain::store_error(e),
    })?;
    Ok(card)
}

pub async fn update(ctx: &AppCtx, id_tag: &str, expected: i64, mut input: CardInput, by: &str) -> Result<Card, ApiError> {
    let old = get(ctx, id_tag).await?.ok_or_else(|| not_found(id_tag))?;
    // The number identifies the card: an edit keeps it.
    input.id_tag = CardNumber::parse(&old.id_tag).map_err(|_| ApiError::internal())?;
    check(input.problems(""))?;
    check_parent(ctx, &input, "parentIdTag").await?;
    if old.version != expected {
        return Err(ApiError::standard(409));
    }
    let card = input.card(ctx.now(), by, old.created_at, expected + 1);
    let mut ops = vec![TxOp::Put { item: item(&card), condition: Some(Condition::version_is(expected)) }];
    ops.extend(facets::changes(Some(&listing(&old)), Some(&listing(&card))));
    ctx.store.transact(facets::merge(ops)).await.api()?;
    Ok(card)
}

pub async fn delete(ctx: &AppCtx, id_tag: &str) -> Result<(), ApiError> {
    let old = get(ctx, id_tag).await?.ok_or_else(|| not_found(id_tag))?;
    let mut ops = vec![TxOp::Delete { key: key(&old.id_tag), condition: Some(Condition::version_is(old.version)) }];
    ops.extend(facets::changes(Some(&listing(&old)), None));
    ctx.store.transact(facets::merge(ops)).await.api()
}

/// One page of cards (number prefix, status) and the total matching.
pub async fn list(ctx: &AppCtx, keyword: Option<&str>, status: Option<CardStatus>, page_no: u32, page_size: u32) -> Result<(Vec<Card>, u64), ApiError> {
    let status = status.map(status_str);
    let partition = facets::partition_of(&[status.as_deref()]);
    let prefix = keyword.map(|k| k.trim().to_uppercase()).unwrap_or_default();
    let page = facets::page(ctx, CARD_LIST, &partition, &prefix, page_no, page_size).await?;
    let cards = ctx.store.batch_get(&page.keys).await.api()?.into_iter().flatten().map(from_item).collect::<Result<_, _>>()?;
    Ok((cards, page.total))
}

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Imported {
    pub created: usize,
    pub updated: usize,
}

/// Imports rows: new numbers are created, existing ones updated. Every
/// row is checked first and any bad row refuses the whole import (400
/// naming the row and the field). Rows are then written in transactions
/// of at most 25 cards; should the store fail midway (after the checks
/// passed), the rows before stay written and importing the same file
/// again completes it (existing numbers are updated, not duplicated).
pub async fn import(ctx: &AppCtx, rows: Vec<CardInput>, by: &str) -> Result<Imported, ApiError> {
    if rows.is_empty() || rows.len() > MAX_IMPORT {
        return Err(ApiError::bad_request(Text::new(format!("rows: an import has 1-{MAX_IMPORT} rows"), format!("rows：每次导入1-{MAX_IMPORT}行"))));
    }
    let mut problems = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, r) in rows.iter().enumerate() {
        let at = format!("row {}: ", i + 1);
        problems.extend(r.problems(&at));
        if !seen.insert(r.id_tag.trim().to_uppercase()) {
            problems.push(Problem::new(format!("rows[{i}].idTag"), format!("{at}idTag: card {} appears twice", r.id_tag.trim()), format!("第{}行：卡号{}重复", i + 1, r.id_tag.trim())));
        }
    }
    check(problems)?;
    let now = ctx.now();
    let mut existing = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        if let Some(p) = r.parent_id_tag.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
            if !seen.contains(&p.to_uppercase()) && get(ctx, p).await?.is_none() {
                return Err(ApiError::bad_request(Text::new(format!("row {}: parentIdTag: no card {p}", i + 1), format!("第{}行：上级卡{p}不存在", i + 1))));
            }
        }
        existing.push(get(ctx, &r.id_tag).await?);
    }
    let mut done = Imported { created: 0, updated: 0 };
    let pairs: Vec<(CardInput, Option<Card>)> = rows.into_iter().zip(existing).collect();
    for chunk in pairs.chunks(25) {
        let mut ops = Vec::new();
        for (input, old) in chunk {
            match old {
                Some(old) => {
                    let card = input.card(now, by, old.created_at, old.version + 1);
                    ops.push(TxOp::Put { item: item(&card), condition: Some(Condition::version_is(old.version)) });
                    ops.extend(facets::changes(Some(&listing(old)), Some(&listing(&card))));
                    done.updated += 1;
                }
                None => {
                    let card = input.card(now, by, now, 1);
                    ops.push(TxOp::Put { item: item(&card), condition: Some(Condition::item_absent()) });
                    ops.extend(facets::changes(None, Some(&listing(&card))));
                    done.created += 1;
                }
            }
        }
        ctx.store.transact(facets::merge(ops)).await.api()?;
    }
    Ok(done)
}

fn demo_number(tag: &str) -> CardNumber {
    CardNumber::parse(tag).expect("the demo's card numbers are canonical")
}

/// The demo's cards: `DEMO0001`-`DEMO0020` accepted (the charge-point
/// simulator uses them), one blocked, one expired.
pub async fn seed_demo(ctx: &AppCtx) -> Result<(), ApiError> {
    let now = ctx.now();
    let mut rows: Vec<CardInput> = (1..=20)
        .map(|i| CardInput { id_tag: demo_number(&format!("DEMO{i:04}")), holder: format!("演示用户{i:02}"), plate: format!("京A{:05}", 10_000 + i * 37), status: Some(CardStatus::Accepted), expires_at: None, parent_id_tag: None })
        .collect();
    rows.push(CardInput { id_tag: demo_number("FLEET01"), holder: "车队卡（集团）".into(), plate: String::new(), status: Some(CardStatus::Accepted), expires_at: None, parent_id_tag: None });
    rows.push(CardInput { id_tag: demo_number("FLEET01-A"), holder: "车队司机A".into(), plate: "粤B12345".into(), status: Some(CardStatus::Accepted), expires_at: None, parent_id_tag: Some(demo_number("FLEET01")) });
    rows.push(CardInput { id_tag: demo_number("BLOCKED01"), holder: "挂失卡".into(), plate: String::new(), status: Some(CardStatus::Blocked), expires_at: None, parent_id_tag: None });
    rows.push(CardInput { id_tag: demo_number("EXPIRED01"), holder: "过期卡".into(), plate: String::new(), status: Some(CardStatus::Accepted), expires_at: Some(now - 86_400), parent_id_tag: None });
    import(ctx, rows, "seed").await.map(|_| ())
}
