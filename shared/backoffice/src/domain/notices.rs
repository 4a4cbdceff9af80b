//! Notices shown in the header popover. Their HTML is sanitised when it is
//! written and again when it is read, so a record written before a
//! sanitiser change (or by another tool) still cannot carry script.

use std::collections::BTreeSet;

use envelope::{msg, ApiError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::{Condition, Key, Query, SortKey};

use super::{from_item, keys, to_item, StoreResultExt};
use crate::ctx::AppCtx;

/// How many notices the popover lists.
pub const LIST_LIMIT: u32 = 50;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Notice {
    pub id: String,
    /// `notice` or `email` (the popover's two tabs).
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub image: String,
    /// Sanitised HTML.
    pub notice: String,
    pub created_at: i64,
    /// Who published it (empty for the seeded ones).
    #[serde(default)]
    pub author: String,
    /// When it was last edited.
    #[serde(default)]
    pub updated_at: Option<i64>,
    /// Optimistic-lock version (1 when published; 0 on records from before edits existed).
    #[serde(default)]
    pub version: i64,
}

/// A notice as the SPA gets it. `id` is the notice's key in its list
/// (`{time}#{uuid}`, ordered by time), so an edit, a withdrawal or a reading
/// finds it with one read, with no index beside it.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoticeView {
    /// The notice's id (pass it back to edit, withdraw or mark it read).
    pub id: String,
    /// `notice` or `email`.
    #[serde(rename = "type")]
    pub kind: String,
    pub email: String,
    /// Sender image: a path on this site, or empty.
    pub image: String,
    /// Sanitised HTML.
    pub notice: String,
    /// Unix seconds.
    pub created_at: i64,
    pub updated_at: Option<i64>,
    pub author: String,
    /// The version to send with an edit.
    pub version: i64,
    /// Whether the caller has read it (the header list only).
    pub read: bool,
}

/// `{12 digits}#{32 hex digits}`.
fn is_notice_id(id: &str) -> bool {
    match id.split_once('#') {
        Some((time, uuid)) => {
            time.len() == 12 && time.bytes().all(|b| b.is_ascii_digit()) && uuid.len() == 32 && uuid.bytes().all(|b| b.is_ascii_hexdigit())
        }
        None => false,
    }
}

fn notice_key(id: &str) -> Result<Key, ApiError> {
    if !is_notice_id(id) {
        return Err(ApiError::bad_request(msg::notices::id_not_from_list()));
    }
    Ok(Key::new(keys::NOTICE_PK, id))
}

fn gone() -> ApiError {
    ApiError::new(404, msg::notices::not_found())
}

fn view(item: store::Item, read: &BTreeSet<String>) -> Result<NoticeView, ApiError> {
    let id = item.get(store::SK).and_then(Value::as_str).unwrap_or_default().to_string();
    let n: Notice = from_item(item)?;
    Ok(NoticeView {
        read: read.contains(&id),
        id,
        kind: n.kind,
        email: n.email,
        image: sanitize_url(&n.image),
        notice: sanitize_html(&n.notice),
        created_at: n.created_at,
        updated_at: n.updated_at,
        author: n.author,
        version: n.version,
    })
}

/// Keeps only harmless formatting and links; links open safely.
pub fn sanitize_html(html: &str) -> String {
    ammonia::Builder::default()
        .link_rel(Some("noopener noreferrer nofollow"))
        .url_schemes(["http", "https", "mailto"].into_iter().collect())
        // Images only from this site: a notice must not make every reader's
        // browser call another host (tracking, and the CSP refuses it too).
        .attribute_filter(|element, attribute, value| match (element, attribute) {
            ("img", "src") => same_site_path(value).map(Into::into),
            _ => Some(value.into()),
        })
        .clean(html)
        .to_string()
}

/// `value` when it is a path on this site (`/…` or `./…`, not `//host`).
fn same_site_path(value: &str) -> Option<&str> {
    let v = value.trim();
    let on_site = (v.starts_with('/') && !v.starts_with("//") && !v.starts_with("/\\")) || v.starts_with("./");
    on_site.then_some(v)
}

/// A notice's sender image: a path on this site, or nothing.
fn sanitize_url(url: &str) -> String {
    same_site_path(url).unwrap_or_default().to_string()
}

/// What a publisher writes: the notice's type, text and sender.
pub struct Draft<'a> {
    pub kind: &'a str,
    pub html: &'a str,
    pub email: &'a str,
    pub image: &'a str,
}

/// The cleaned text of a draft, or why it cannot be published.
fn checked(d: &Draft) -> Result<String, ApiError> {
    if d.kind != "notice" && d.kind != "email" {
        return Err(ApiError::bad_request(msg::notices::bad_type()));
    }
    let clean = sanitize_html(d.html);
    if clean.trim().is_empty() {
        return Err(ApiError::bad_request(msg::notices::empty()));
    }
    if clean.len() > 4000 {
        return Err(ApiError::bad_request(msg::notices::too_long()));
    }
    if d.email.trim().chars().count() > 200 {
        return Err(ApiError::bad_request(msg::notices::sender_too_long()));
    }
    Ok(clean)
}

/// Validates and stores a new notice.
pub async fn publish(ctx: &AppCtx, author: &str, draft: Draft<'_>) -> Result<NoticeView, ApiError> {
    let clean = checked(&draft)?;
    let now = ctx.now();
    let notice = Notice {
        // Time-ordered (monotonic within a process): notices of one second
        // list in the order they were published.
        id: uuid::Uuid::now_v7().simple().to_string(),
        kind: draft.kind.to_string(),
        email: draft.email.trim().to_string(),
        image: sanitize_url(draft.image),
        notice: clean,
        created_at: now,
        author: author.to_string(),
        updated_at: None,
        version: 1,
    };
    let sk = format!("{}#{}", keys::time_sort(now), notice.id);
    let item = to_item(&notice, &[(store::PK, keys::NOTICE_PK.to_string()), (store::SK, sk)]);
    ctx.store.put(item.clone(), Some(Condition::item_absent())).await.api()?;
    view(item, &BTreeSet::new())
}

/// Replaces a notice's type, text and sender, over the version it was
/// loaded at (409 when someone saved it since).
pub async fn edit(ctx: &AppCtx, id: &str, version: i64, draft: Draft<'_>) -> Result<NoticeView, ApiError> {
    let key = notice_key(id)?;
    let clean = checked(&draft)?;
    let Some(current) = ctx.store.get(&key).await.api()? else { return Err(gone()) };
    let mut n: Notice = from_item(current)?;
    if n.version != version {
        return Err(changed_since());
    }
    n.kind = draft.kind.to_string();
    n.notice = clean;
    n.email = draft.email.trim().to_string();
    n.image = sanitize_url(draft.image);
    n.updated_at = Some(ctx.now());
    n.version = version + 1;
    let item = to_item(&n, &[(store::PK, key.pk.clone()), (store::SK, key.sk.clone())]);
    // Records from before edits existed have no version stored.
    let loaded = if version == 0 {
        Condition::And(vec![Condition::item_exists(), Condition::NotExists(store::VERSION.into())])
    } else {
        Condition::version_is(version)
    };
    match ctx.store.put(item.clone(), Some(loaded)).await {
        Ok(()) => view(item, &BTreeSet::new()),
        Err(store::StoreError::ConditionFailed) => Err(changed_since()),
        Err(e) => Err(super::store_error(e)),
    }
}

fn changed_since() -> ApiError {
    ApiError::new(409, msg::notices::changed_meanwhile())
}

/// Removes a notice from everyone's list.
pub async fn withdraw(ctx: &AppCtx, id: &str) -> Result<(), ApiError> {
    let key = notice_key(id)?;
    match ctx.store.delete(&key, Some(Condition::item_exists())).await {
        Ok(_) => Ok(()),
        Err(store::StoreError::ConditionFailed) => Err(gone()),
        Err(e) => Err(super::store_error(e)),
    }
}

/// The published notices, newest first, whoever cleared what (the
/// publishers' list), a page at a time.
pub async fn all(ctx: &AppCtx, cursor: Option<String>) -> Result<(Vec<NoticeView>, Option<String>), ApiError> {
    let page = ctx.store.query(Query::partition(keys::NOTICE_PK).backward().limit(LIST_LIMIT).after(cursor)).await.api()?;
    let none = BTreeSet::new();
    let list = page.items.into_iter().map(|i| view(i, &none)).collect::<Result<_, _>>()?;
    Ok((list, page.cursor))
}

/// What one user did with the notices: everything up to `cleared_through`
/// (a notice id) is cleared from their list; `read` holds the ids after it
/// they have read.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReaderState {
    #[serde(default)]
    cleared_through: Option<String>,
    #[serde(default)]
    read: BTreeSet<String>,
    #[serde(default)]
    version: i64,
}

/// The most read ids kept per user (the newest): the list shows only
/// [`LIST_LIMIT`], so older ones no longer matter.
const READ_KEPT: usize = 200;

async fn reader_state(ctx: &AppCtx, username: &str) -> Result<ReaderState, ApiError> {
    match ctx.store.get(&keys::notice_reader(username)).await.api()? {
        Some(item) => from_item(item),
        None => Ok(ReaderState::default()),
    }
}

/// Changes a user's state over the version read; a concurrent change of
/// the same state (a second tab) makes it read and apply again.
async fn change_state(ctx: &AppCtx, username: &str, change: impl Fn(&mut ReaderState)) -> Result<(), ApiError> {
    let key = keys::notice_reader(username);
    for _ in 0..5 {
        let mut state = reader_state(ctx, username).await?;
        let loaded = state.version;
        change(&mut state);
        if let Some(through) = state.cleared_through.clone() {
            state.read.retain(|id| *id > through);
        }
        while state.read.len() > READ_KEPT {
            let oldest = state.read.iter().next().cloned().expect("more than READ_KEPT ids");
            state.read.remove(&oldest);
        }
        state.version = loaded + 1;
        let item = to_item(&state, &[(store::PK, key.pk.clone()), (store::SK, key.sk.clone())]);
        match ctx.store.put(item, Some(Condition::loaded_at(loaded))).await {
            Ok(()) => return Ok(()),
            Err(store::StoreError::ConditionFailed) => continue,
            Err(e) => return Err(super::store_error(e)),
        }
    }
    Err(ApiError::standard(409))
}

/// One user's header list: the newest notices they have not cleared, each
/// marked read or not.
pub async fn for_reader(ctx: &AppCtx, username: &str) -> Result<Vec<NoticeView>, ApiError> {
    let state = reader_state(ctx, username).await?;
    let mut query = Query::partition(keys::NOTICE_PK).backward().limit(LIST_LIMIT);
    if let Some(through) = &state.cleared_through {
        query = query.sort_key(SortKey::Gt(through.clone()));
    }
    let page = ctx.store.query(query).await.api()?;
    page.items.into_iter().map(|i| view(i, &state.read)).collect()
}

/// Drops a deleted account's notice state.
pub async fn forget_reader(ctx: &AppCtx, username: &str) -> Result<(), ApiError> {
    ctx.store.delete(&keys::notice_reader(username), None).await.api().map(|_| ())
}

/// The most ids one call may mark read (the list shows [`LIST_LIMIT`]).
pub const READ_BATCH_LIMIT: usize = LIST_LIMIT as usize;

/// Marks notices read for one user. Every id must name a published notice.
pub async fn mark_read(ctx: &AppCtx, username: &str, ids: &[String]) -> Result<(), ApiError> {
    if ids.is_empty() || ids.len() > READ_BATCH_LIMIT {
        return Err(ApiError::bad_request(msg::notices::read_batch(READ_BATCH_LIMIT)));
    }
    let keys = ids.iter().map(|id| notice_key(id)).collect::<Result<Vec<_>, _>>()?;
    if ctx.store.batch_get(&keys).await.api()?.iter().any(Option::is_none) {
        return Err(gone());
    }
    change_state(ctx, username, |s| s.read.extend(ids.iter().cloned())).await
}

/// Clears one user's list: every notice published so far leaves it (for
/// them only); later ones appear as usual.
pub async fn clear_all(ctx: &AppCtx, username: &str) -> Result<(), ApiError> {
    let newest = ctx.store.query(Query::partition(keys::NOTICE_PK).backward().limit(1)).await.api()?;
    let Some(through) = newest.items.first().and_then(|i| i.get(store::SK)).and_then(Value::as_str).map(str::to_string) else {
        return Ok(());
    };
    change_state(ctx, username, |s| {
        if s.cleared_through.as_deref().map_or(true, |c| c < through.as_str()) {
            s.cleared_through = Some(through.clone());
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_and_handlers_are_removed_links_kept() {
        let dirty = r#"<a href="https://ev.example/x" onclick="steal()">read</a><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>"#;
        let clean = sanitize_html(dirty);
        assert!(!clean.contains("script") && !clean.contains("onclick") && !clean.contains("onerror"), "{clean}");
        assert!(!clean.contains("javascript:"), "{clean}");
        assert!(clean.contains(r#"href="https://ev.example/x""#), "{clean}");
        assert!(clean.contains("noopener"), "{clean}");
    }

    #[test]
    fn notice_ids_are_list_keys() {
        assert!(is_notice_id("001764000000#0190a1b2c3d4e5f60718293a4b5c6d7e"));
        for bad in ["", "0190a1b2c3d4e5f60718293a4b5c6d7e", "1764000000#0190a1b2c3d4e5f60718293a4b5c6d7e", "001764000000#zz90a1b2c3d4e5f60718293a4b5c6d7e", "001764000000#x#y"] {
            assert!(!is_notice_id(bad), "{bad}");
        }
    }

    #[test]
    fn only_images_of_this_site_are_kept() {
        assert_eq!(sanitize_url("javascript:alert(1)"), "");
        assert_eq!(sanitize_url(" https://img.example/a.png "), "", "another host");
        assert_eq!(sanitize_url("//img.example/a.png"), "", "another host, scheme-relative");
        assert_eq!(sanitize_url("./avatar.svg"), "./avatar.svg");
        assert_eq!(sanitize_url("/static/a.png"), "/static/a.png");
        let html = sanitize_html(r#"<p>hi<img src="https://tracker.example/p.gif"><img src="/static/ok.png"></p>"#);
        assert!(!html.contains("tracker.example") && html.contains(r#"src="/static/ok.png""#), "{html}");
    }
}
