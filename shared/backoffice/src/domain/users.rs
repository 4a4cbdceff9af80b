//! Staff accounts.

use envelope::{msg, ApiError, Text};
use serde::{Deserialize, Serialize};
use store::{Condition, UpdateAction};

use super::{from_item, keys, to_item, StoreResultExt};
use crate::ctx::AppCtx;

/// The picture shown for users who have not set one.
/// Served by the SPA itself (web/public), so no page loads an image from a
/// third-party host; relative, so it resolves under any deployment path.
pub const DEFAULT_AVATAR: &str = "avatar.svg";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub username: String,
    /// argon2id PHC string; never leaves the server. Stored apart from the
    /// user's record (`keys::password`); filled only by
    /// [`get_with_password`] (or from an old record, see below).
    #[serde(skip)]
    pub password_hash: String,
    /// Where records written before the hash had its own partition keep
    /// it. Carried along unchanged when such a record is rewritten, and
    /// moved out at the next sign-in or by `gateway backfill`.
    #[serde(default, rename = "passwordHash", skip_serializing_if = "Option::is_none")]
    pub(crate) legacy_password_hash: Option<String>,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub avatar: String,
    #[serde(default)]
    pub roles: Vec<String>,
    #[serde(default)]
    pub user_type: i64,
    #[serde(default = "yes")]
    pub enabled: bool,
    #[serde(default)]
    pub department_id: Option<String>,
    #[serde(default)]
    pub created_at: i64,
    #[serde(default)]
    pub updated_at: i64,
    #[serde(default)]
    pub version: i64,
}

fn yes() -> bool {
    true
}

impl User {
    pub fn new(username: &str, password_hash: String, roles: Vec<String>, now: i64) -> User {
        User {
            username: username.to_string(),
            password_hash,
            legacy_password_hash: None,
            email: String::new(),
            avatar: String::new(),
            roles,
            user_type: 0,
            enabled: true,
            department_id: None,
            created_at: now,
            updated_at: now,
            version: 1,
        }
    }

    /// The avatar to show: the user's own or the default picture.
    pub fn avatar_or_default(&self) -> &str {
        if self.avatar.is_empty() {
            DEFAULT_AVATAR
        } else {
            &self.avatar
        }
    }

    pub fn to_item(&self) -> store::Item {
        let key = keys::user(&self.username);
        let mut index_keys = vec![
            (store::PK, key.pk),
            (store::SK, key.sk),
            ("GSI1PK", keys::USERS_INDEX_PK.to_string()),
            ("GSI1SK", self.username.to_lowercase()),
        ];
        if !self.email.trim().is_empty() {
            index_keys.push(("GSI2PK", keys::user_email_index_pk(&self.email)));
            index_keys.push(("GSI2SK", self.username.to_lowercase()));
        }
        to_item(self, &index_keys)
    }

    /// The item holding the user's password hash.
    pub fn password_item(&self) -> store::Item {
        password_item(&self.username, &self.password_hash)
    }

    /// Whether the record still carries its hash the old way.
    pub fn has_legacy_hash(&self) -> bool {
        self.legacy_password_hash.is_some()
    }

    /// Writes for a new user: the record (the name must be free) and its
    /// password hash, in one transaction.
    pub fn create_ops(&self) -> Vec<store::TxOp> {
        vec![
            store::TxOp::Put { item: self.to_item(), condition: Some(Condition::item_absent()) },
            store::TxOp::Put { item: self.password_item(), condition: None },
        ]
    }
}

fn password_item(username: &str, hash: &str) -> store::Item {
    let key = keys::password(username);
    let mut item = store::Item::new();
    item.insert(store::PK.into(), key.pk.into());
    item.insert(store::SK.into(), key.sk.into());
    item.insert("passwordHash".into(), hash.into());
    item
}

/// Checks a username: 2 to 32 letters, digits, `_`, `.`, `-` or `@`.
pub fn validate_username(raw: &str) -> Result<String, ApiError> {
    let name = raw.trim();
    // The form puts the words beside its user-name field.
    let refused = |words: Text| crate::request::with_field(ApiError::bad_request(words.clone()), "username", &words);
    if name.is_empty() {
        return Err(refused(msg::auth::user_name_empty()));
    }
    let len = name.chars().count();
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '@');
    if !(2..=32).contains(&len) || !name.chars().all(allowed) {
        return Err(refused(msg::auth::user_name_invalid()));
    }
    Ok(name.to_string())
}

/// The policy for a new password of `username` (see [`auth::password_policy`]),
/// typed into the form field `field`: a refusal is a 400 whose
/// `data.fields` names that field with the reason (the strength
/// estimator's warning and suggestion), so the form shows it there.
pub fn validate_password(password: &str, username: &str, field: &str) -> Result<(), ApiError> {
    auth::password_policy(password, username).map_err(|e| {
        if e == auth::PolicyError::Unchecked {
            tracing::error!("a password was to be set by a build without the strength estimator (feature auth/strength)");
        }
        crate::request::invalid_fields(&[crate::request::FieldProblem::new(field, crate::messages::auth::policy(&e))])
    })
}

/// The user's record, without the password hash (see [`get_with_password`]).
pub async fn get(ctx: &AppCtx, username: &str) -> Result<Option<User>, ApiError> {
    match ctx.store.get(&keys::user(username)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

/// The user's record with its password hash (from the hash's own item, or
/// from an old record that still carries it), read together.
pub async fn get_with_password(ctx: &AppCtx, username: &str) -> Result<Option<User>, ApiError> {
    let mut found = ctx.store.batch_get(&[keys::user(username), keys::password(username)]).await.api()?.into_iter();
    let (Some(Some(record)), hash) = (found.next(), found.next().flatten()) else { return Ok(None) };
    let mut user: User = from_item(record)?;
    user.password_hash = hash.and_then(|item| item.get("passwordHash").and_then(|h| h.as_str()).map(str::to_string)).or_else(|| user.legacy_password_hash.clone()).unwrap_or_default();
    Ok(Some(user))
}

/// Creates a user; a taken name is a 409 that says so.
pub async fn create(ctx: &AppCtx, user: &User) -> Result<(), ApiError> {
    match ctx.store.transact(user.create_ops()).await {
        Err(store::StoreError::TransactionCanceled { failed }) if failed.contains(&0) => Err(username_taken(&user.username)),
        other => other.api(),
    }
}

pub fn username_taken(username: &str) -> ApiError {
    ApiError::conflict(msg::auth::user_name_taken(&username))
}

/// Replaces the password hash if nobody changed the user in between: the
/// hash's own item written, any hash the record itself still carries
/// removed, the record's version raised, in one transaction.
pub async fn set_password_hash(ctx: &AppCtx, user: &User, hash: String) -> Result<(), ApiError> {
    let ops = vec![
        store::TxOp::Update {
            key: keys::user(&user.username),
            actions: vec![
                UpdateAction::Remove("passwordHash".into()),
                UpdateAction::Set("updatedAt".into(), ctx.now().into()),
                UpdateAction::Add(store::VERSION.into(), 1),
            ],
            condition: Some(Condition::And(vec![Condition::item_exists(), Condition::version_is(user.version)])),
        },
        store::TxOp::Put { item: password_item(&user.username, &hash), condition: None },
    ];
    match ctx.store.transact(ops).await {
        Err(store::StoreError::TransactionCanceled { .. }) => Err(ApiError::conflict(msg::auth::account_changed_retry(&user.username))),
        other => other.api(),
    }
}

/// Moves every hash still kept in a user's record to its own item
/// (`gateway backfill`; sign-in moves one at a time). Answers how many
/// moved; a user changed meanwhile is left for the next run.
pub async fn move_password_hashes(ctx: &AppCtx) -> Result<usize, ApiError> {
    let mut moved = 0;
    for user in super::staff::matching(ctx, "").await? {
        if let Some(hash) = user.legacy_password_hash.clone() {
            match set_password_hash(ctx, &user, hash).await {
                Ok(()) => moved += 1,
                Err(e) if e.code == 409 => tracing::warn!(user = %user.username, "changed during the backfill; run it again"),
                Err(e) => return Err(e),
            }
        }
    }
    Ok(moved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_checked_with_clear_messages() {
        assert_eq!(validate_username("  admin ").unwrap(), "admin");
        assert!(validate_username("").unwrap_err().msg.en.contains("cannot be empty"));
        assert!(validate_username("a").is_err());
        assert!(validate_username("<script>").is_err());
        assert!(validate_username(&"x".repeat(33)).is_err());
        assert!(validate_username("ops.lead-01@site").is_ok());
    }

    #[test]
    fn stored_user_round_trips_with_index_keys() {
        let u = User::new("Editor", "hash".into(), vec!["Editor".into()], 7);
        let item = u.to_item();
        assert_eq!(item["PK"], "USER#editor");
        assert_eq!(item["GSI1PK"], "USERS");
        assert!(!item.contains_key("passwordHash"), "the hash has its own item");
        let back: User = from_item(item).unwrap();
        assert_eq!(back, User { password_hash: String::new(), ..u.clone() });
        let hash = u.password_item();
        assert_eq!((hash["PK"].as_str(), hash["passwordHash"].as_str()), (Some("PWD#editor"), Some("hash")));
        // A record from before keeps its hash when rewritten.
        let mut old = u.to_item();
        old.insert("passwordHash".into(), "old-hash".into());
        let old: User = from_item(old).unwrap();
        assert!(old.has_legacy_hash() && old.to_item()["passwordHash"] == "old-hash");
    }
}

/// Whether an avatar address is safe to put in an `<img src>`: empty (the
/// default picture), an http(s) URL, or a plain relative path.
pub fn is_avatar_address(s: &str) -> bool {
    s.is_empty()
        || (s.len() <= 500 && crate::validate::is_url(s) && (s.starts_with("https://") || s.starts_with("http://")))
        || (s.len() <= 200 && !s.starts_with("//") && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c)))
}

/// Changes the user's own e-mail and avatar.
pub async fn update_profile(ctx: &AppCtx, username: &str, email: &str, avatar: &str) -> Result<User, ApiError> {
    // The default picture, as user info names it, sent back unchanged means
    // "no picture of my own".
    let avatar = if avatar == DEFAULT_AVATAR { "" } else { avatar };
    if !email.is_empty() && !crate::validate::is_email(email) {
        return Err(ApiError::bad_request(msg::settings::bad_email(&email)));
    }
    if !is_avatar_address(avatar) {
        return Err(ApiError::bad_request(msg::settings::profile::bad_avatar()));
    }
    let user = get(ctx, username).await?.ok_or_else(|| ApiError::standard(401))?;
    // Only the profile's own attributes are written (and the e-mail index
    // keys): never the roles, the state or a hash the record may carry.
    let mut actions = vec![
        UpdateAction::Set("email".into(), email.into()),
        UpdateAction::Set("avatar".into(), avatar.into()),
        UpdateAction::Set("updatedAt".into(), ctx.now().into()),
        UpdateAction::Add(store::VERSION.into(), 1),
    ];
    if email.is_empty() {
        actions.extend([UpdateAction::Remove("GSI2PK".into()), UpdateAction::Remove("GSI2SK".into())]);
    } else {
        actions.push(UpdateAction::Set("GSI2PK".into(), keys::user_email_index_pk(email).into()));
        actions.push(UpdateAction::Set("GSI2SK".into(), user.username.to_lowercase().into()));
    }
    let condition = Condition::And(vec![Condition::item_exists(), Condition::version_is(user.version)]);
    match ctx.store.update(&keys::user(username), actions, Some(condition)).await {
        Err(store::StoreError::ConditionFailed) => Err(ApiError::conflict(msg::settings::profile::changed_meanwhile())),
        other => from_item(other.api()?),
    }
}
