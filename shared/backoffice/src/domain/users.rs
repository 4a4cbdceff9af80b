//! Staff accounts.

use envelope::{ApiError, Text};
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
    /// argon2id PHC string; never leaves the server.
    pub password_hash: String,
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
}

/// Checks a username: 2 to 32 letters, digits, `_`, `.`, `-` or `@`.
pub fn validate_username(raw: &str) -> Result<String, ApiError> {
    let name = raw.trim();
    // The form puts the words beside its user-name field.
    let refused = |en: &str, zh: &str| crate::request::with_field(ApiError::bad_request(Text::new(en, zh)), "username", &crate::request::capitalised(en), zh);
    if name.is_empty() {
        return Err(refused("user name cannot be empty", "用户名不能为空"));
    }
    let len = name.chars().count();
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '@');
    if !(2..=32).contains(&len) || !name.chars().all(allowed) {
        return Err(refused("user name must be 2 to 32 letters, digits, '_', '.', '-' or '@'", "用户名须为 2 到 32 位字母、数字或 _ . - @"));
    }
    Ok(name.to_string())
}

/// The policy for a new password of `username` (see [`auth::password_policy`]);
/// a refusal names `field` (the body's password field) for the form.
pub fn validate_password(field: &str, password: &str, username: &str) -> Result<(), ApiError> {
    auth::password_policy(password, username).map_err(|e| {
        let en = crate::request::capitalised(&e.en());
        crate::request::with_field(ApiError::bad_request(Text::new(e.en(), e.zh())), field, &en, e.zh())
    })
}

pub async fn get(ctx: &AppCtx, username: &str) -> Result<Option<User>, ApiError> {
    match ctx.store.get(&keys::user(username)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

/// Creates a user; a taken name is a 409 that says so.
pub async fn create(ctx: &AppCtx, user: &User) -> Result<(), ApiError> {
    match ctx.store.put(user.to_item(), Some(Condition::item_absent())).await {
        Err(store::StoreError::ConditionFailed) => Err(username_taken(&user.username)),
        other => other.api(),
    }
}

pub fn username_taken(username: &str) -> ApiError {
    ApiError::conflict(Text::new(
        format!("the user name '{username}' is already taken"),
        format!("用户名“{username}”已被占用"),
    ))
}

/// Replaces the password hash if nobody changed the user in between.
pub async fn set_password_hash(ctx: &AppCtx, user: &User, hash: String) -> Result<User, ApiError> {
    let item = ctx
        .store
        .update(
            &keys::user(&user.username),
            vec![
                UpdateAction::Set("passwordHash".into(), hash.into()),
                UpdateAction::Set("updatedAt".into(), ctx.now().into()),
                UpdateAction::Add(store::VERSION.into(), 1),
            ],
            Some(Condition::And(vec![Condition::item_exists(), Condition::version_is(user.version)])),
        )
        .await
        .api()?;
    from_item(item)
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
        let back: User = from_item(item).unwrap();
        assert_eq!(back, u);
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
        return Err(ApiError::bad_request(Text::new(format!("'{email}' is not an e-mail address"), format!("“{email}”不是有效的邮箱地址"))));
    }
    if !is_avatar_address(avatar) {
        return Err(ApiError::bad_request(Text::new(
            "the avatar must be an http(s) address or left empty for the default picture",
            "头像须为 http(s) 地址，留空则使用默认头像",
        )));
    }
    let user = get(ctx, username).await?.ok_or_else(|| ApiError::standard(401))?;
    let updated = User { email: email.to_string(), avatar: avatar.to_string(), updated_at: ctx.now(), version: user.version + 1, ..user.clone() };
    match ctx.store.put(updated.to_item(), Some(Condition::version_is(user.version))).await {
        Err(store::StoreError::ConditionFailed) => Err(ApiError::conflict(Text::new(
            "your account was changed meanwhile; reload and try again",
            "账号信息已被修改，请刷新后重试",
        ))),
        other => other.api().map(|()| updated),
    }
}
