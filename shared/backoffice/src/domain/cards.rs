//! Charging cards: the idTags chargers ask about (OCPP Authorize and
//! StartTransaction answer from here). Key: `CARD#{IDTAG}` / `CARD`
//! (upper-cased: OCPP idTags are case-insensitive CiString20).

use envelope::ApiError;
use serde::{Deserialize, Serialize};
use store::Key;

use crate::ctx::AppCtx;
use crate::domain::{from_item, StoreResultExt};

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

/// The demo's cards: `DEMO0001`-`DEMO0020` accepted (the charge-point
/// simulator uses them), one blocked, one expired.
pub async fn seed_demo(ctx: &AppCtx) -> Result<(), ApiError> {
    let now = ctx.now();
    let card = |tag: String, holder: String, plate: String, status: CardStatus, expires_at: Option<i64>| Card {
        id_tag: tag,
        holder,
        plate,
        status,
        expires_at,
        parent_id_tag: None,
        created_at: now,
        updated_at: now,
        updated_by: "seed".into(),
        version: 1,
    };
    let mut cards: Vec<Card> = (1..=20)
        .map(|i| card(format!("DEMO{i:04}"), format!("演示用户{i:02}"), format!("京A{:05}", 10_000 + i * 37), CardStatus::Accepted, None))
        .collect();
    cards.push(card("BLOCKED01".into(), "挂失卡".into(), String::new(), CardStatus::Blocked, None));
    cards.push(card("EXPIRED01".into(), "过期卡".into(), String::new(), CardStatus::Accepted, Some(now - 86_400)));
    let items = cards
        .iter()
        .map(|c| {
            let k = key(&c.id_tag);
            crate::domain::to_item(c, &[(store::PK, k.pk), (store::SK, k.sk)])
        })
        .collect();
    ctx.store.put_many(items).await.api()
}
