//! Charging cards: the idTags chargers ask about (OCPP Authorize and
//! StartTransaction answer from here), how each card's sessions are paid,
//! and the keys that find a card by number, holder or plate.
//!
//! | record | PK | SK |
//! |---|---|---|
//! | card (with its wallet) | `CARD#{IDTAG}` | `CARD` |
//! | list entries by status (facets) | `LIST#card#{status or *}` | `{IDTAG}#{card PK}#{card SK}` |
//! | lookup entries | `LIST#card#~find` | `{text}#{card PK}#{card SK}` (`refPK`, `refSK`, `status`) |
//! | prepaid card by balance | `CARDBAL` | `{balance + 10^12, 16 digits}#{IDTAG}` (`refPK`, `refSK`) |
//! | card ledger (top-ups, sessions paid) | `CARDTX#{IDTAG}` | `{at:012}#{id}` |
//!
//! idTags are upper-cased in keys (OCPP idTags are case-insensitive
//! CiString20). A lookup entry is written per text a card is found by:
//! its number, its holder and its plate (and the plate without its
//! province character, so "A10481" finds the plate that starts with it), normalised
//! (`facets::normalise`); a search is one `begins_with` on one partition.
//!
//! Payment: a card is postpaid (its sessions are billed to its holder:
//! the order is `billed`, the finance page sums what each holder owes per
//! month) or prepaid (a balance in fen, topped up by finance; a session
//! is paid from it at StopTransaction). The wallet (arrangement, balance,
//! held, `walletVersion`) lives on the card item but is written only by
//! wallet operations, each conditioned on `walletVersion` (edits of the
//! card's other fields never touch it): see [`hold_ops`] and [`draw_ops`].

use charging::Fen;
use crate::request::FieldProblem;
use envelope::{msg, ApiError, Text};
use names::CardNumber;
use serde::{Deserialize, Serialize};
use serde_json::json;
use store::{Condition, Key, Query, SortKey, TxOp, UpdateAction};

use crate::ctx::AppCtx;
use crate::domain::assets::facets::{self, Listing};
use crate::domain::assets::{check, text_problem};
use crate::domain::{from_item, StoreResultExt};

pub const CARD_LIST: &str = "card";
/// OCPP 1.6 idTags are CiString20.
pub const MAX_ID_TAG: usize = 20;
/// Rows of one import.
pub const MAX_IMPORT: usize = 1000;
/// Cards a search answers at most.
pub const MAX_SEARCH: usize = 50;
/// The most one top-up may add (1,000,000 yuan): a typo guard.
pub const MAX_TOP_UP: Fen = Fen(100_000_000);
/// Balances are biased by this in the balance index, so negative ones
/// (a session that cost more than was left) sort first.
const BALANCE_BIAS: i64 = 1_000_000_000_000;
const BALANCE_PK: &str = "CARDBAL";
/// Wallet writes that lost a race are read and tried again this often.
const WALLET_ATTEMPTS: usize = 5;

/// A card's status, in OCPP's own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum CardStatus {
    Accepted,
    Blocked,
    Expired,
    Invalid,
}

/// How a card's sessions are paid. JSON: "postpaid" | "prepaid".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum CardPayment {
    /// Billed to the holder's account (what they owe is listed by month).
    #[default]
    Postpaid,
    /// Paid from the card's balance when a session stops.
    Prepaid,
}

/// What kind of identifier a card is, in OCPP 2.0.1's names
/// (IdTokenEnumType): an RFID card's UID (ISO14443, ISO15693), a
/// contract id for Plug & Charge (eMAID), a PIN (KeyCode), a vehicle's
/// MAC address, an id the product issued (Central) or one local to the
/// operator (Local). NoAuthorization is a station's lack of one, never a
/// card. OCPP 1.6 and YKC send no type: there a card is its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum TokenType {
    Central,
    #[serde(rename = "eMAID")]
    EMaid,
    ISO14443,
    ISO15693,
    KeyCode,
    Local,
    MacAddress,
}

impl TokenType {
    /// Its name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            TokenType::Central => "Central",
            TokenType::EMaid => "eMAID",
            TokenType::ISO14443 => "ISO14443",
            TokenType::ISO15693 => "ISO15693",
            TokenType::KeyCode => "KeyCode",
            TokenType::Local => "Local",
            TokenType::MacAddress => "MacAddress",
        }
    }
}

/// Whether a 2.0.1 token of type `presented` (its wire name) is this
/// card: a card of no type is any token of its number; a typed one only a
/// token of its type, or Central (the product's own remote starts name
/// their cards so).
pub fn takes_token(card: &Card, presented: &str) -> bool {
    match card.token_type {
        None => true,
        Some(t) => presented == t.as_str() || presented == TokenType::Central.as_str(),
    }
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
    /// The kind of identifier it is for OCPP 2.0.1 stations (None: any
    /// token of its number, as before types were kept).
    #[serde(default)]
    pub token_type: Option<TokenType>,
    pub created_at: i64,
    pub updated_at: i64,
    pub updated_by: String,
    pub version: i64,
}

/// How a card pays, stored on the card item beside its fields (cards
/// stored before payment arrangements existed read as postpaid, 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Wallet {
    pub payment: CardPayment,
    /// Prepaid: what is left, fen (negative when a session cost more).
    pub balance_fen: Fen,
    /// Prepaid: what running sessions hold of it (the minimum balance each).
    pub held_fen: Fen,
    /// Bumped by every wallet write, which is conditioned on it.
    pub wallet_version: i64,
}

impl Wallet {
    /// The balance not held by running sessions.
    pub fn available(&self) -> Fen {
        Fen(self.balance_fen.0 - self.held_fen.0)
    }
}

/// A card as the pages are sent it: its fields and its wallet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CardView {
    #[serde(flatten)]
    pub card: Card,
    #[serde(flatten)]
    pub wallet: Wallet,
}

/// What a charger is told about an idTag (OCPP 1.6 IdTagInfo).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct IdTagInfo {
    pub status: CardStatus,
    pub expiry_date: Option<i64>,
    pub parent_id_tag: Option<String>,
}

impl IdTagInfo {
    /// The answer to a start no one authorized (a free-vend station):
    /// nothing to refuse, so accepted, without expiry or parent.
    pub fn free_vend() -> IdTagInfo {
        IdTagInfo { status: CardStatus::Accepted, expiry_date: None, parent_id_tag: None }
    }
}

pub fn key(id_tag: &str) -> Key {
    Key::new(format!("CARD#{}", id_tag.trim().to_uppercase()), "CARD")
}

/// The stored card, if any (case-insensitive).
pub async fn get(ctx: &AppCtx, id_tag: &str) -> Result<Option<Card>, ApiError> {
    Ok(get_view(ctx, id_tag).await?.map(|v| v.card))
}

/// The stored card with its wallet, if any (one read).
pub async fn get_view(ctx: &AppCtx, id_tag: &str) -> Result<Option<CardView>, ApiError> {
    match ctx.store.get(&key(id_tag)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

/// What a charger is told about a card: unknown -> Invalid; an expiry in
/// the past -> Expired; a prepaid card whose balance not held by its
/// running sessions is below `minimum` -> Blocked; otherwise its status.
///
/// Why Blocked and not Invalid for a short balance: OCPP 1.6 says Invalid
/// when the identifier is unknown or not valid, Blocked when it is known
/// and not allowed to charge now. The card is known and valid, and a
/// top-up makes it usable again without reissuing it; a charger that
/// caches Invalid may treat the card as foreign (and drop it from its
/// local list), while Blocked is re-asked once the card works again.
pub fn judge(view: Option<&CardView>, now: i64, minimum: Fen) -> IdTagInfo {
    let Some(CardView { card, wallet }) = view else {
        return IdTagInfo { status: CardStatus::Invalid, expiry_date: None, parent_id_tag: None };
    };
    let expired = card.expires_at.is_some_and(|t| t <= now);
    let short = wallet.payment == CardPayment::Prepaid && wallet.available() < minimum;
    let status = match card.status {
        CardStatus::Accepted if expired => CardStatus::Expired,
        CardStatus::Accepted if short => CardStatus::Blocked,
        s => s,
    };
    IdTagInfo { status, expiry_date: card.expires_at, parent_id_tag: card.parent_id_tag.clone() }
}

/// [`judge`] of the stored card under the operations setting's minimum
/// (one store read; the settings are cached).
pub async fn authorize(ctx: &AppCtx, id_tag: &str) -> Result<IdTagInfo, ApiError> {
    let minimum = crate::domain::operations::current(ctx).await?.prepaid_minimum_fen;
    Ok(judge(get_view(ctx, id_tag).await?.as_ref(), ctx.now(), Fen(minimum)))
}

/// The card a 2.0.1 token of type `presented` is, if any: the card of its
/// number when it [`takes_token`] of that type (one store read).
pub async fn get_view_of_token(ctx: &AppCtx, id_tag: &str, presented: &str) -> Result<Option<CardView>, ApiError> {
    Ok(get_view(ctx, id_tag).await?.filter(|v| takes_token(&v.card, presented)))
}

/// [`authorize`] of a 2.0.1 token: a card of another type is no card.
pub async fn authorize_token(ctx: &AppCtx, id_tag: &str, presented: &str) -> Result<IdTagInfo, ApiError> {
    let minimum = crate::domain::operations::current(ctx).await?.prepaid_minimum_fen;
    Ok(judge(get_view_of_token(ctx, id_tag, presented).await?.as_ref(), ctx.now(), Fen(minimum)))
}

fn status_str(s: CardStatus) -> String {
    serde_json::to_value(s).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
}

fn listing(c: &Card) -> Listing {
    Listing { list: CARD_LIST, dims: vec![vec![status_str(c.status)]], sort: c.id_tag.to_uppercase(), target: key(&c.id_tag) }
}

fn lookup_pk() -> String {
    facets::entry_pk(CARD_LIST, "~find")
}

/// The texts a card is found by (normalised, without repeats).
fn lookup_texts(c: &Card) -> std::collections::BTreeSet<String> {
    let plate = facets::normalise(&c.plate);
    // A plate's first character is its province (a Chinese character); people type the rest.
    let plate_rest: String = plate.chars().skip_while(|ch| !ch.is_ascii_alphanumeric()).collect();
    [facets::normalise(&c.id_tag), facets::normalise(&c.holder), plate, plate_rest].into_iter().filter(|t| !t.is_empty()).collect()
}

/// The lookup entries of a card, by key.
fn lookup_entries(c: &Card) -> std::collections::BTreeMap<Key, store::Item> {
    let target = key(&c.id_tag);
    lookup_texts(c)
        .into_iter()
        .map(|text| {
            let k = Key::new(lookup_pk(), format!("{text}#{}#{}", target.pk, target.sk));
            let mut item = k.to_item();
            item.insert("refPK".into(), json!(target.pk));
            item.insert("refSK".into(), json!(target.sk));
            item.insert("status".into(), json!(c.status));
            (k, item)
        })
        .collect()
}

/// Operations moving a card's lookup entries from `old` to `new`; entries
/// that stay are rewritten only when the status they carry changed.
fn lookup_changes(old: Option<&Card>, new: Option<&Card>) -> Vec<TxOp> {
    let before = old.map(lookup_entries).unwrap_or_default();
    let after = new.map(lookup_entries).unwrap_or_default();
    let status_changed = old.map(|c| c.status) != new.map(|c| c.status);
    let mut ops: Vec<TxOp> = before.keys().filter(|k| !after.contains_key(*k)).map(|k| TxOp::Delete { key: k.clone(), condition: None }).collect();
    ops.extend(after.into_iter().filter(|(k, _)| status_changed || !before.contains_key(k)).map(|(_, item)| TxOp::Put { item, condition: None }));
    ops
}

fn balance_key(id_tag: &str, balance: Fen) -> Key {
    Key::new(BALANCE_PK, format!("{:016}#{}", balance.0.saturating_add(BALANCE_BIAS).max(0), id_tag.trim().to_uppercase()))
}

fn balance_entry(id_tag: &str, balance: Fen) -> store::Item {
    let mut item = balance_key(id_tag, balance).to_item();
    let target = key(id_tag);
    item.insert("refPK".into(), json!(target.pk));
    item.insert("refSK".into(), json!(target.sk));
    item
}

/// Operations moving a card's balance-index entry (prepaid cards only).
fn balance_changes(id_tag: &str, old: Option<(CardPayment, Fen)>, new: Option<(CardPayment, Fen)>) -> Vec<TxOp> {
    let prepaid = |w: Option<(CardPayment, Fen)>| w.filter(|(p, _)| *p == CardPayment::Prepaid).map(|(_, b)| b);
    match (prepaid(old), prepaid(new)) {
        (Some(a), Some(b)) if a == b => Vec::new(),
        (a, b) => a
            .map(|a| TxOp::Delete { key: balance_key(id_tag, a), condition: None })
            .into_iter()
            .chain(b.map(|b| TxOp::Put { item: balance_entry(id_tag, b), condition: None }))
            .collect(),
    }
}

fn item(c: &Card, wallet: &Wallet) -> store::Item {
    let k = key(&c.id_tag);
    crate::domain::to_item(&CardView { card: c.clone(), wallet: *wallet }, &[(store::PK, k.pk), (store::SK, k.sk)])
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
    /// How its sessions are paid (default postpaid; an edit without it
    /// keeps the card's). A prepaid card starts with a balance of 0.
    #[serde(default)]
    pub payment: Option<CardPayment>,
    /// What kind of identifier it is for OCPP 2.0.1 stations; null: any
    /// token of its number is this card.
    #[serde(default)]
    pub token_type: Option<TokenType>,
}

impl CardInput {
    /// The problems of one card; `at` names where it came from in the
    /// messages (an import's row) and `path` prefixes the field names.
    fn problems(&self, path: &str, at: &Place) -> Vec<FieldProblem> {
        let f = |name: &str| format!("{path}{name}");
        let mut out = Vec::new();
        let tag = self.id_tag.trim();
        if tag.is_empty() || tag.chars().count() > MAX_ID_TAG || !tag.chars().all(|c| c.is_ascii_graphic()) {
            out.push(at.problem(&f("idTag"), msg::cards::column::id_tag(), msg::cards::bad_id_tag(MAX_ID_TAG)));
        }
        let mut texts = Vec::new();
        text_problem(&f("holder"), msg::cards::label::holder(), &self.holder, false, 50, &mut texts);
        text_problem(&f("plate"), msg::cards::label::plate(), &self.plate, false, 16, &mut texts);
        for p in texts {
            let column = if p.field.ends_with("holder") { msg::cards::column::holder() } else { msg::cards::column::plate() };
            out.push(at.problem(&p.field, column, p.words));
        }
        if self.status.is_none() {
            out.push(at.problem(&f("status"), msg::cards::column::status(), msg::cards::status_required()));
        }
        if self.expires_at.is_some_and(|t| t <= 0) {
            out.push(at.problem(&f("expiresAt"), msg::cards::column::expires_at(), msg::cards::bad_expiry()));
        }
        if let Some(p) = self.parent_id_tag.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
            if p.eq_ignore_ascii_case(tag) {
                out.push(at.problem(&f("parentIdTag"), msg::cards::column::parent_id_tag(), msg::cards::own_group_card()));
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
            token_type: self.token_type,
            created_at,
            updated_at: now,
            updated_by: by.to_string(),
            version,
        }
    }
}

/// Where a card's fields came from, for the messages: the form, or a row
/// of an import (the spreadsheet's row number when the client sent it).
enum Place {
    Form,
    Row(usize),
}

impl Place {
    fn problem(&self, field: &str, column: Text, words: Text) -> FieldProblem {
        match self {
            Place::Form => FieldProblem::new(field, msg::cards::in_form(column, words)),
            Place::Row(n) => FieldProblem::new(field, msg::cards::in_row(column, n, words)),
        }
    }
}

/// A 400 on the idTag field (the form marks it), message as before.
fn taken(tag: &str) -> ApiError {
    crate::domain::assets::invalid(&[FieldProblem::new("idTag", msg::cards::taken(tag))])
}

fn not_found(tag: &str) -> ApiError {
    ApiError::not_found(msg::cards::not_found(tag))
}

async fn check_parent(ctx: &AppCtx, input: &CardInput, field: &str) -> Result<(), ApiError> {
    if let Some(p) = input.parent_id_tag.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
        if get(ctx, p).await?.is_none() {
            return Err(crate::domain::assets::invalid(&[FieldProblem::new(field, msg::cards::no_group_card_named(field, p))]));
        }
    }
    Ok(())
}

/// The operations writing a new card: the card, its list and lookup
/// entries, and (prepaid) its balance entry.
fn insert_ops(card: &Card, wallet: &Wallet) -> Vec<TxOp> {
    let mut ops = vec![TxOp::Put { item: item(card, wallet), condition: Some(Condition::item_absent()) }];
    ops.extend(facets::changes(None, Some(&listing(card))));
    ops.extend(lookup_changes(None, Some(card)));
    ops.extend(balance_changes(&card.id_tag, None, Some((wallet.payment, wallet.balance_fen))));
    ops
}

pub async fn create(ctx: &AppCtx, input: CardInput, by: &str) -> Result<CardView, ApiError> {
    check(input.problems("", &Place::Form))?;
    check_parent(ctx, &input, "parentIdTag").await?;
    let now = ctx.now();
    let card = input.card(now, by, now, 1);
    let wallet = Wallet { payment: input.payment.unwrap_or_default(), ..Wallet::default() };
    ctx.store.transact(facets::merge(insert_ops(&card, &wallet))).await.map_err(|e| match e {
        store::StoreError::TransactionCanceled { failed } if failed.contains(&0) => taken(&card.id_tag),
        e => crate::domain::store_error(e),
    })?;
    Ok(CardView { card, wallet })
}

/// Changes a card's fields (the number stays) at the version the form was
/// loaded with. The wallet is not written, except a change of the payment
/// arrangement, which needs an untouched wallet: prepaid to postpaid only
/// with nothing left or held.
pub async fn update(ctx: &AppCtx, id_tag: &str, expected: i64, mut input: CardInput, by: &str) -> Result<CardView, ApiError> {
    let CardView { card: old, wallet } = get_view(ctx, id_tag).await?.ok_or_else(|| not_found(id_tag))?;
    // The number identifies the card: an edit keeps it.
    input.id_tag = CardNumber::parse(&old.id_tag).map_err(|_| ApiError::internal())?;
    check(input.problems("", &Place::Form))?;
    check_parent(ctx, &input, "parentIdTag").await?;
    if old.version != expected {
        return Err(ApiError::standard(409));
    }
    let card = input.card(ctx.now(), by, old.created_at, expected + 1);
    let payment = input.payment.unwrap_or(wallet.payment);
    if payment != wallet.payment && wallet.payment == CardPayment::Prepaid && (wallet.balance_fen != Fen::ZERO || wallet.held_fen != Fen::ZERO) {
        return Err(crate::domain::assets::invalid(&[FieldProblem::new("payment", msg::cards::stays_prepaid(wallet.balance_fen, &card.id_tag))]));
    }
    let mut actions: Vec<UpdateAction> = [
        ("holder", json!(card.holder)),
        ("plate", json!(card.plate)),
        ("status", json!(card.status)),
        ("expiresAt", json!(card.expires_at)),
        ("parentIdTag", json!(card.parent_id_tag)),
        ("tokenType", json!(card.token_type)),
        ("updatedAt", json!(card.updated_at)),
        ("updatedBy", json!(card.updated_by)),
        ("version", json!(card.version)),
    ]
    .into_iter()
    .map(|(f, v)| UpdateAction::Set(f.into(), v))
    .collect();
    let mut condition = Condition::version_is(expected);
    let mut new_wallet = wallet;
    if payment != wallet.payment {
        new_wallet.payment = payment;
        new_wallet.wallet_version += 1;
        actions.push(UpdateAction::Set("payment".into(), json!(payment)));
        actions.push(UpdateAction::Set("walletVersion".into(), json!(new_wallet.wallet_version)));
        condition = Condition::And(vec![condition, wallet_is(wallet.wallet_version)]);
    }
    let mut ops = vec![TxOp::Update { key: key(&old.id_tag), actions, condition: Some(condition) }];
    ops.extend(facets::changes(Some(&listing(&old)), Some(&listing(&card))));
    ops.extend(lookup_changes(Some(&old), Some(&card)));
    ops.extend(balance_changes(&card.id_tag, Some((wallet.payment, wallet.balance_fen)), Some((new_wallet.payment, new_wallet.balance_fen))));
    ctx.store.transact(facets::merge(ops)).await.api()?;
    Ok(CardView { card, wallet: new_wallet })
}

/// Deletes a card; a prepaid card with money on it (or held by a running
/// session) is refused: the money is the holder's.
pub async fn delete(ctx: &AppCtx, id_tag: &str) -> Result<(), ApiError> {
    let CardView { card: old, wallet } = get_view(ctx, id_tag).await?.ok_or_else(|| not_found(id_tag))?;
    if wallet.payment == CardPayment::Prepaid && (wallet.balance_fen != Fen::ZERO || wallet.held_fen != Fen::ZERO) {
        return Err(ApiError::bad_request(msg::cards::not_deletable(wallet.balance_fen, &old.id_tag)));
    }
    let mut ops = vec![TxOp::Delete {
        key: key(&old.id_tag),
        condition: Some(Condition::And(vec![Condition::version_is(old.version), wallet_is(wallet.wallet_version)])),
    }];
    ops.extend(facets::changes(Some(&listing(&old)), None));
    ops.extend(lookup_changes(Some(&old), None));
    ops.extend(balance_changes(&old.id_tag, Some((wallet.payment, wallet.balance_fen)), None));
    ctx.store.transact(facets::merge(ops)).await.api()
}

/// The condition that a card's wallet is still at `version` (cards
/// stored before wallets existed have no `walletVersion`: it reads as 0).
fn wallet_is(version: i64) -> Condition {
    if version == 0 {
        Condition::counter_is_zero("walletVersion")
    } else {
        Condition::Eq("walletVersion".into(), json!(version))
    }
}

/// One page of cards (number prefix, status) and the total matching.
pub async fn list(ctx: &AppCtx, keyword: Option<&str>, status: Option<CardStatus>, page_no: u32, page_size: u32) -> Result<(Vec<CardView>, u64), ApiError> {
    let status = status.map(status_str);
    let partition = facets::partition_of(&[status.as_deref()]);
    let prefix = keyword.map(|k| k.trim().to_uppercase()).unwrap_or_default();
    let page = facets::page(ctx, CARD_LIST, &partition, &prefix, page_no, page_size).await?;
    let cards = ctx.store.batch_get(&page.keys).await.api()?.into_iter().flatten().map(from_item).collect::<Result<_, _>>()?;
    Ok((cards, page.total))
}

/// Cards whose number, holder or plate starts with `text` (letter case
/// and spaces ignored; a plate also without its province character), of
/// `status` when given: at most `limit` (up to [`MAX_SEARCH`]), by the
/// text they matched. One Query on the lookup partition (the entries
/// carry the status, so other statuses are dropped before any card is
/// read) and one BatchGetItem. `more` tells that more cards match.
pub async fn search(ctx: &AppCtx, text: &str, status: Option<CardStatus>, limit: usize) -> Result<(Vec<CardView>, bool), ApiError> {
    let text = facets::normalise(text);
    let limit = limit.clamp(1, MAX_SEARCH);
    let mut keys: Vec<Key> = Vec::new();
    let mut more = false;
    let mut cursor = None;
    'pages: loop {
        let mut q = Query::partition(lookup_pk()).after(cursor).limit(((limit + 1) * 2) as u32);
        if !text.is_empty() {
            q.sk = Some(SortKey::BeginsWith(text.clone()));
        }
        let page = ctx.store.query(q).await.api()?;
        for entry in page.items {
            if status.is_some_and(|s| entry.get("status") != Some(&json!(s))) {
                continue;
            }
            let Some(target) = facets::target_of(&entry) else { continue };
            if keys.contains(&target) {
                continue;
            }
            if keys.len() == limit {
                more = true;
                break 'pages;
            }
            keys.push(target);
        }
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    let found: Vec<CardView> = ctx.store.batch_get(&keys).await.api()?.into_iter().flatten().map(from_item).collect::<Result<_, _>>()?;
    // In the order matched (BatchGetItem answers in any order).
    let mut ordered = Vec::with_capacity(found.len());
    for k in &keys {
        if let Some(c) = found.iter().find(|c| key(&c.card.id_tag) == *k) {
            ordered.push(c.clone());
        }
    }
    Ok((ordered, more))
}

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Imported {
    /// Cards written.
    pub created: usize,
    /// Rows identical to a card already stored (an import run again).
    pub unchanged: usize,
    /// True when the rows were only checked (`checkOnly`): nothing written.
    pub checked_only: bool,
}

/// One row of an import: a card's fields (as [`CardInput`]) and where it is
/// in the client's file. Declared field by field, not flattened, so a bad
/// value is named by its path (`rows[1].status`).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["idTag", "status"]))]
pub struct ImportRow {
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
    #[serde(default)]
    #[schemars(length(max = 20))]
    pub parent_id_tag: Option<CardNumber>,
    /// Default postpaid.
    #[serde(default)]
    pub payment: Option<CardPayment>,
    /// What kind of identifier it is for OCPP 2.0.1 stations (default: any).
    #[serde(default)]
    pub token_type: Option<TokenType>,
    /// Its row number in the spreadsheet, for the messages (default: its
    /// place in `rows`, from 1).
    #[schemars(range(min = 1, max = 1_048_576))]
    pub row: Option<usize>,
}

impl ImportRow {
    fn input(&self) -> CardInput {
        CardInput {
            id_tag: self.id_tag.clone(),
            holder: self.holder.clone(),
            plate: self.plate.clone(),
            status: self.status,
            expires_at: self.expires_at,
            parent_id_tag: self.parent_id_tag.clone(),
            payment: self.payment,
            token_type: self.token_type,
        }
    }
}

/// Whether a stored card is what a row says (importing the same file
/// again after an interrupted import completes it, see [`import`]).
fn same_as_row(stored: &CardView, row: &CardInput) -> bool {
    let c = &stored.card;
    let new = row.card(0, "", 0, 0);
    c.holder == new.holder && c.plate == new.plate && c.status == new.status && c.expires_at == new.expires_at && c.parent_id_tag == new.parent_id_tag && c.token_type == new.token_type && stored.wallet.payment == row.payment.unwrap_or_default()
}

/// Imports new cards. Every row is checked first and every problem of
/// every row is reported at once (a 400 whose `data.fields` names each
/// row and column, in both languages): bad values, numbers repeated in the
/// file, missing group cards, and numbers that exist already with other
/// data (an import adds cards; existing ones are edited in the list). With
/// any problem nothing is written; `check_only` stops after the checks.
///
/// Rows are written in transactions of at most [`IMPORT_CHUNK`] cards;
/// should the store fail midway (after the checks passed), the rows before
/// stay written, and importing the same file again completes it: a row
/// identical to its stored card counts as unchanged, not as a collision.
pub async fn import(ctx: &AppCtx, rows: Vec<ImportRow>, check_only: bool, by: &str) -> Result<Imported, ApiError> {
    if rows.is_empty() || rows.len() > MAX_IMPORT {
        return Err(ApiError::bad_request(msg::cards::import_size(MAX_IMPORT)));
    }
    let at = |i: usize| Place::Row(rows[i].row.unwrap_or(i + 1));
    let inputs: Vec<CardInput> = rows.iter().map(ImportRow::input).collect();
    let mut problems = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (i, r) in inputs.iter().enumerate() {
        problems.extend(r.problems(&format!("rows[{i}]."), &at(i)));
        let tag = r.id_tag.trim().to_uppercase();
        if tag.is_empty() {
            continue;
        }
        if let Some(first) = seen.insert(tag, i) {
            let first = rows[first].row.unwrap_or(first + 1);
            problems.push(at(i).problem(&format!("rows[{i}].idTag"), msg::cards::column::id_tag(), msg::cards::also_on_row(first, r.id_tag.trim())));
        }
    }
    // The stored cards of the rows and of their group cards, in batches.
    let tags: Vec<String> = inputs.iter().map(|r| r.id_tag.trim().to_string()).filter(|t| !t.is_empty() && t.chars().count() <= MAX_ID_TAG).collect();
    let parents: Vec<String> = inputs.iter().filter_map(|r| r.parent_id_tag.as_deref().map(str::trim).filter(|p| !p.is_empty() && p.chars().count() <= MAX_ID_TAG).map(String::from)).collect();
    let stored = stored_cards(ctx, tags.iter().chain(&parents)).await?;
    let mut existing = Vec::with_capacity(rows.len());
    for (i, r) in inputs.iter().enumerate() {
        let tag = r.id_tag.trim().to_uppercase();
        let old = stored.get(&tag).cloned();
        if let Some(old) = &old {
            if !same_as_row(old, r) {
                problems.push(at(i).problem(&format!("rows[{i}].idTag"), msg::cards::column::id_tag(), msg::cards::exists_otherwise(&old.card.id_tag)));
            }
        }
        if let Some(p) = r.parent_id_tag.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
            let upper = p.to_uppercase();
            if !seen.contains_key(&upper) && !stored.contains_key(&upper) {
                problems.push(at(i).problem(&format!("rows[{i}].parentIdTag"), msg::cards::column::parent_id_tag(), msg::cards::no_group_card(p)));
            }
        }
        existing.push(old);
    }
    check(problems)?;
    let unchanged = existing.iter().filter(|e| e.is_some()).count();
    if check_only {
        return Ok(Imported { created: 0, unchanged, checked_only: true });
    }
    let now = ctx.now();
    let new: Vec<&CardInput> = inputs.iter().zip(&existing).filter(|(_, e)| e.is_none()).map(|(r, _)| r).collect();
    for chunk in new.chunks(IMPORT_CHUNK) {
        let mut ops = Vec::new();
        for r in chunk {
            let card = r.card(now, by, now, 1);
            ops.extend(insert_ops(&card, &Wallet { payment: r.payment.unwrap_or_default(), ..Wallet::default() }));
        }
        ctx.store.transact(facets::merge(ops)).await.api()?;
    }
    Ok(Imported { created: new.len(), unchanged, checked_only: false })
}

/// Cards written per import transaction: each writes its item, two list
/// entries, up to four lookup entries and a balance entry (prepaid), plus
/// the shared counters, under DynamoDB's 100 operations.
pub const IMPORT_CHUNK: usize = 10;

/// The stored cards among `tags`, by upper-cased number (BatchGetItem).
async fn stored_cards<'a>(ctx: &AppCtx, tags: impl Iterator<Item = &'a String>) -> Result<std::collections::HashMap<String, CardView>, ApiError> {
    let mut keys: Vec<Key> = tags.map(|t| key(t)).collect();
    keys.sort_by(|a, b| a.pk.cmp(&b.pk));
    keys.dedup();
    let mut out = std::collections::HashMap::new();
    for chunk in keys.chunks(100) {
        for item in ctx.store.batch_get(chunk).await.api()?.into_iter().flatten() {
            let v: CardView = from_item(item)?;
            out.insert(v.card.id_tag.to_uppercase(), v);
        }
    }
    Ok(out)
}

// ------------------------------------------------------------------ wallet

/// A line of a card's ledger: a top-up, or a session paid from the balance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardLedgerEntry {
    pub id_tag: String,
    pub kind: CardLedgerKind,
    /// Added to the balance (a top-up) or taken from it (a session, negative).
    pub amount_fen: Fen,
    /// The balance after it.
    pub balance_fen: Fen,
    /// Who topped up (the username), or the charger link for a session.
    pub by: String,
    pub at: i64,
    /// The order of a session paid from the balance.
    #[serde(default)]
    pub order_no: Option<String>,
    /// A top-up's note (receipt, how it was paid).
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum CardLedgerKind {
    TopUp,
    Session,
}

fn ledger_pk(id_tag: &str) -> String {
    format!("CARDTX#{}", id_tag.trim().to_uppercase())
}

fn ledger_op(e: &CardLedgerEntry) -> TxOp {
    let id = uuid::Uuid::now_v7().simple().to_string();
    let k = Key::new(ledger_pk(&e.id_tag), format!("{:012}#{id}", e.at));
    TxOp::Put { item: crate::domain::to_item(e, &[(store::PK, k.pk), (store::SK, k.sk)]), condition: Some(Condition::item_absent()) }
}

/// The operation holding `minimum` of a prepaid card's balance for a
/// session starting (StartTransaction): only while the wallet is as read
/// (`walletVersion`), so two sessions starting at once cannot both take a
/// balance that covers one: the loser's transaction is cancelled, and read
/// again its card no longer has the minimum free (Blocked). None for a
/// card that is not prepaid.
pub fn hold_ops(view: &CardView, minimum: Fen) -> Option<TxOp> {
    (view.wallet.payment == CardPayment::Prepaid).then(|| TxOp::Update {
        key: key(&view.card.id_tag),
        actions: vec![
            UpdateAction::Set("heldFen".into(), json!(view.wallet.held_fen.0 + minimum.0)),
            UpdateAction::Set("walletVersion".into(), json!(view.wallet.wallet_version + 1)),
        ],
        condition: Some(wallet_is(view.wallet.wallet_version)),
    })
}

/// The operations paying a stopped session from a prepaid card: the
/// balance less `amount`, the session's `held` released, the balance
/// index moved and a ledger line, all only while the wallet is as read.
/// A session is always paid in full (the energy was delivered): one that
/// cost more than was left leaves the balance negative, and the card is
/// Blocked until topped up.
pub fn draw_ops(view: &CardView, held: Fen, amount: Fen, order_no: &str, at: i64) -> Vec<TxOp> {
    let w = view.wallet;
    let balance = Fen(w.balance_fen.0 - amount.0);
    let mut ops = vec![TxOp::Update {
        key: key(&view.card.id_tag),
        actions: vec![
            UpdateAction::Set("balanceFen".into(), json!(balance.0)),
            UpdateAction::Set("heldFen".into(), json!((w.held_fen.0 - held.0).max(0))),
            UpdateAction::Set("walletVersion".into(), json!(w.wallet_version + 1)),
        ],
        condition: Some(wallet_is(w.wallet_version)),
    }];
    ops.extend(balance_changes(&view.card.id_tag, Some((w.payment, w.balance_fen)), Some((w.payment, balance))));
    if amount != Fen::ZERO {
        ops.push(ledger_op(&CardLedgerEntry {
            id_tag: view.card.id_tag.clone(),
            kind: CardLedgerKind::Session,
            amount_fen: Fen(-amount.0),
            balance_fen: balance,
            by: "charger".into(),
            at,
            order_no: Some(order_no.to_string()),
            note: None,
        }));
    }
    ops
}

/// Adds money to a prepaid card's balance, with who, when and a note in its
/// ledger (one transaction; a wallet changed meanwhile is read again).
pub async fn top_up(ctx: &AppCtx, id_tag: &str, amount: Fen, note: &str, by: &str) -> Result<CardView, ApiError> {
    if amount.0 <= 0 || amount > MAX_TOP_UP {
        return Err(crate::domain::assets::invalid(&[FieldProblem::new("amountFen", msg::cards::top_up_range(MAX_TOP_UP))]));
    }
    let note = note.trim();
    if note.chars().count() > 200 {
        return Err(crate::domain::assets::invalid(&[FieldProblem::new("note", msg::cards::note_too_long())]));
    }
    for _ in 0..WALLET_ATTEMPTS {
        let view = get_view(ctx, id_tag).await?.ok_or_else(|| not_found(id_tag))?;
        if view.wallet.payment != CardPayment::Prepaid {
            return Err(crate::domain::assets::invalid(&[FieldProblem::new("idTag", msg::cards::postpaid(&view.card.id_tag))]));
        }
        let w = view.wallet;
        let balance = Fen(w.balance_fen.0 + amount.0);
        let mut ops = vec![TxOp::Update {
            key: key(&view.card.id_tag),
            actions: vec![UpdateAction::Set("balanceFen".into(), json!(balance.0)), UpdateAction::Set("walletVersion".into(), json!(w.wallet_version + 1))],
            condition: Some(wallet_is(w.wallet_version)),
        }];
        ops.extend(balance_changes(&view.card.id_tag, Some((w.payment, w.balance_fen)), Some((w.payment, balance))));
        ops.push(ledger_op(&CardLedgerEntry {
            id_tag: view.card.id_tag.clone(),
            kind: CardLedgerKind::TopUp,
            amount_fen: amount,
            balance_fen: balance,
            by: by.to_string(),
            at: ctx.now(),
            order_no: None,
            note: Some(note.to_string()).filter(|n| !n.is_empty()),
        }));
        match ctx.store.transact(ops).await {
            Ok(()) => return Ok(CardView { card: view.card, wallet: Wallet { balance_fen: balance, wallet_version: w.wallet_version + 1, ..w } }),
            Err(store::StoreError::TransactionCanceled { .. }) => continue,
            Err(e) => return Err(crate::domain::store_error(e)),
        }
    }
    Err(ApiError::conflict(msg::cards::balance_moving()))
}

/// A card's ledger, newest first, a page of `size` from `cursor`.
pub async fn ledger(ctx: &AppCtx, id_tag: &str, size: u32, cursor: Option<String>) -> Result<(Vec<CardLedgerEntry>, Option<String>), ApiError> {
    let page = ctx.store.query(Query::partition(ledger_pk(id_tag)).backward().limit(size).after(cursor)).await.api()?;
    Ok((page.items.into_iter().map(from_item).collect::<Result<_, _>>()?, page.cursor))
}

/// Prepaid cards whose balance is below `below`, lowest first (at most
/// `limit`): one Query on the balance index and one BatchGetItem.
pub async fn low_balance(ctx: &AppCtx, below: Fen, limit: u32) -> Result<Vec<CardView>, ApiError> {
    let bound = format!("{:016}", below.0.saturating_add(BALANCE_BIAS).max(0));
    let page = ctx.store.query(Query::partition(BALANCE_PK).sort_key(SortKey::Lt(bound)).limit(limit)).await.api()?;
    let keys: Vec<Key> = page.items.iter().filter_map(facets::target_of).collect();
    let found: Vec<CardView> = ctx.store.batch_get(&keys).await.api()?.into_iter().flatten().map(from_item).collect::<Result<_, _>>()?;
    let mut out: Vec<CardView> = found.into_iter().filter(|c| c.wallet.payment == CardPayment::Prepaid).collect();
    out.sort_by(|a, b| a.wallet.balance_fen.cmp(&b.wallet.balance_fen).then_with(|| a.card.id_tag.cmp(&b.card.id_tag)));
    Ok(out)
}

/// Writes the lookup entries of cards stored before they existed (and
/// repairs stale ones): idempotent, safe while serving. Answers (cards
/// read, entries written).
pub async fn backfill_lookup(ctx: &AppCtx) -> Result<(usize, usize), ApiError> {
    let (mut read, mut written) = (0, 0);
    let mut cursor = None;
    loop {
        let page = ctx.store.query(Query::partition(facets::entry_pk(CARD_LIST, "*")).after(cursor)).await.api()?;
        let keys: Vec<Key> = page.items.iter().filter_map(facets::target_of).collect();
        for chunk in keys.chunks(100) {
            for item in ctx.store.batch_get(chunk).await.api()?.into_iter().flatten() {
                let v: CardView = from_item(item)?;
                read += 1;
                let wanted = lookup_entries(&v.card);
                let stored = ctx.store.batch_get(&wanted.keys().cloned().collect::<Vec<_>>()).await.api()?;
                let mut ops: Vec<TxOp> = wanted.into_values().zip(stored).filter(|(item, s)| s.as_ref() != Some(item)).map(|(item, _)| TxOp::Put { item, condition: None }).collect();
                if v.wallet.payment == CardPayment::Prepaid && ctx.store.get(&balance_key(&v.card.id_tag, v.wallet.balance_fen)).await.api()?.is_none() {
                    ops.push(TxOp::Put { item: balance_entry(&v.card.id_tag, v.wallet.balance_fen), condition: None });
                }
                if !ops.is_empty() {
                    written += ops.len();
                    ctx.store.transact(ops).await.api()?;
                }
            }
        }
        cursor = page.cursor;
        if cursor.is_none() {
            return Ok((read, written));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(payment: CardPayment, balance: i64, held: i64) -> CardView {
        CardView {
            card: Card { id_tag: "T1".into(), holder: "张三".into(), plate: "京A10481".into(), status: CardStatus::Accepted, token_type: None, expires_at: None, parent_id_tag: None, created_at: 0, updated_at: 0, updated_by: "t".into(), version: 1 },
            wallet: Wallet { payment, balance_fen: Fen(balance), held_fen: Fen(held), wallet_version: 3 },
        }
    }

    #[test]
    fn a_prepaid_card_is_blocked_below_the_minimum_not_held_by_its_sessions() {
        let min = Fen(1000);
        assert_eq!(judge(Some(&view(CardPayment::Prepaid, 1000, 0)), 0, min).status, CardStatus::Accepted);
        assert_eq!(judge(Some(&view(CardPayment::Prepaid, 999, 0)), 0, min).status, CardStatus::Blocked);
        assert_eq!(judge(Some(&view(CardPayment::Prepaid, 1500, 1000)), 0, min).status, CardStatus::Blocked, "a running session holds 10 yuan");
        assert_eq!(judge(Some(&view(CardPayment::Postpaid, 0, 0)), 0, min).status, CardStatus::Accepted);
        assert_eq!(judge(None, 0, min).status, CardStatus::Invalid);
        let mut expired = view(CardPayment::Prepaid, 0, 0);
        expired.card.expires_at = Some(5);
        assert_eq!(judge(Some(&expired), 10, min).status, CardStatus::Expired, "expiry is said first");
    }

    #[test]
    fn a_card_is_found_by_number_holder_plate_and_plate_without_province() {
        let texts: Vec<String> = lookup_texts(&view(CardPayment::Postpaid, 0, 0).card).into_iter().collect();
        assert_eq!(texts, ["a10481", "t1", "京a10481", "张三"]);
    }

    #[test]
    fn a_typed_card_is_a_token_of_its_type_or_central_and_an_untyped_one_any() {
        let mut card = view(CardPayment::Postpaid, 0, 0).card;
        assert!(["ISO14443", "eMAID", "KeyCode"].iter().all(|t| takes_token(&card, t)));
        card.token_type = Some(TokenType::EMaid);
        assert!(takes_token(&card, "eMAID") && takes_token(&card, "Central"));
        assert!(!takes_token(&card, "ISO14443") && !takes_token(&card, "MacAddress"));
        // The wire names are the schema's (eMAID, not EMaid).
        assert_eq!(serde_json::to_value(TokenType::EMaid).unwrap(), json!("eMAID"));
        for t in [TokenType::Central, TokenType::EMaid, TokenType::ISO14443, TokenType::ISO15693, TokenType::KeyCode, TokenType::Local, TokenType::MacAddress] {
            assert_eq!(serde_json::to_value(t).unwrap(), json!(t.as_str()));
        }
    }

    #[test]
    fn balances_sort_with_negative_ones_first() {
        let a = balance_key("X", Fen(-500)).sk;
        let b = balance_key("X", Fen(0)).sk;
        let c = balance_key("X", Fen(120_000)).sk;
        assert!(a < b && b < c, "{a} {b} {c}");
        assert!(balance_changes("X", Some((CardPayment::Prepaid, Fen(5))), Some((CardPayment::Prepaid, Fen(5)))).is_empty());
        assert_eq!(balance_changes("X", Some((CardPayment::Postpaid, Fen(0))), Some((CardPayment::Prepaid, Fen(0)))).len(), 1);
    }

    #[test]
    fn a_session_is_paid_in_full_and_releases_its_hold() {
        let v = view(CardPayment::Prepaid, 1500, 1000);
        let ops = draw_ops(&v, Fen(1000), Fen(2000), "CP1", 9);
        let TxOp::Update { actions, condition, .. } = &ops[0] else { panic!("the card first") };
        assert!(actions.contains(&UpdateAction::Set("balanceFen".into(), json!(-500))));
        assert!(actions.contains(&UpdateAction::Set("heldFen".into(), json!(0))));
        assert_eq!(condition, &Some(Condition::Eq("walletVersion".into(), json!(3))));
        assert!(hold_ops(&view(CardPayment::Postpaid, 0, 0), Fen(1000)).is_none());
    }
}
