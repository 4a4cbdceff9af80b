//! Managing staff accounts (the /setting/userManagement page): list,
//! create, edit, reset a password, delete. Every write is one transaction
//! with the user-count counters of the roles it adds or removes, so these
//! rules hold even under concurrent edits:
//! - a user can only be given a role that exists;
//! - the last holder of Admin cannot be deleted or lose the role;
//! - a role still held by someone cannot be deleted (see `roles`);
//! - a user can only join a department that exists, and a department
//!   with users cannot be deleted (see `departments`).

use envelope::{msg, ApiError};
use serde::Serialize;
use serde_json::Value;
use store::{Condition, Query, SortKey, TxOp, UpdateAction};

use super::departments;
use super::users::{self, User};
use super::{from_item, keys, StoreResultExt};
use crate::ctx::AppCtx;

/// What the list shows of a user (never the password hash).
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    pub id: String,
    pub username: String,
    pub email: String,
    pub avatar: String,
    pub roles: Vec<String>,
    pub department_id: Option<String>,
    pub enabled: bool,
    /// `YYYY-MM-DD HH:mm:ss`, as the spec's user list shows it.
    pub datatime: String,
    pub version: i64,
}

pub fn view(u: &User) -> UserView {
    UserView {
        id: u.username.clone(),
        username: u.username.clone(),
        email: u.email.clone(),
        avatar: u.avatar.clone(),
        roles: u.roles.clone(),
        department_id: u.department_id.clone(),
        enabled: u.enabled,
        datatime: crate::domain::format_time(u.created_at),
        version: u.version,
    }
}

/// Users whose name starts with `prefix` (case-insensitive), by name.
/// Staff lists are small (hundreds), so the whole matching range is read
/// with one Query on the users index and paged in memory.
pub async fn matching(ctx: &AppCtx, prefix: &str) -> Result<Vec<User>, ApiError> {
    let mut found = Vec::new();
    let mut cursor = None;
    loop {
        let query = Query::index(store::Index::Gsi1, keys::USERS_INDEX_PK).sort_key(SortKey::BeginsWith(prefix.to_lowercase())).after(cursor);
        let query = if prefix.is_empty() { Query { sk: None, ..query } } else { query };
        let page = ctx.store.query(query).await.api()?;
        for item in page.items {
            found.push(from_item::<User>(item)?);
        }
        cursor = page.cursor;
        if cursor.is_none() {
            return Ok(found);
        }
    }
}

/// What an admin may set on an account.
#[derive(Debug, Clone)]
pub struct AccountEdit {
    pub username: String,
    pub email: String,
    pub roles: Vec<String>,
    pub department_id: Option<String>,
    pub enabled: bool,
    /// Required for a new account; ignored on edit (use reset).
    pub password: Option<String>,
    /// The version the edit was made from; None creates an account.
    pub version: Option<i64>,
}


fn check_edit(edit: &AccountEdit) -> Result<(), ApiError> {
    if !edit.email.is_empty() && !crate::validate::is_email(&edit.email) {
        let words = msg::settings::bad_email(&edit.email);
        return Err(crate::request::with_field(ApiError::bad_request(words.clone()), "email", &words));
    }
    if edit.roles.len() > 20 {
        return Err(ApiError::bad_request(msg::settings::users::too_many_roles()));
    }
    Ok(())
}

/// A counter change that goes with a user write (a role's or a
/// department's holder count), and what to tell the user when its
/// condition fails.
struct CounterOp {
    op: TxOp,
    refusal: ApiError,
}

/// The change on one role's count, with the conditions that keep the
/// rules: the role exists, and Admin never drops to no holder.
fn role_counter((role, delta): (String, i64)) -> CounterOp {
    let mut condition = Condition::item_exists();
    if delta < 0 && role == permission::ADMIN_ROLE {
        condition = Condition::And(vec![condition, Condition::Gt("userCount".into(), Value::from(1))]);
    }
    let refusal = if delta > 0 {
        ApiError::bad_request(msg::settings::users::no_such_role(&role))
    } else {
        ApiError::conflict(msg::settings::users::last_holder(&role))
    };
    CounterOp { op: TxOp::Update { key: keys::role(&role), actions: vec![UpdateAction::Add("userCount".into(), delta)], condition: Some(condition) }, refusal }
}

/// The change on one department's user count (it must exist).
fn department_counter((id, delta): (String, i64)) -> CounterOp {
    let refusal = ApiError::bad_request(msg::settings::users::no_such_department(&id));
    CounterOp { op: departments::user_count_op(&id, delta), refusal }
}

/// Counter changes between a user's old and new roles and department.
fn counter_ops(before: (&[String], Option<&str>), after: (&[String], Option<&str>)) -> Vec<CounterOp> {
    let mut ops: Vec<CounterOp> = role_changes(before.0, after.0).into_iter().map(role_counter).collect();
    if before.1 != after.1 {
        ops.extend(before.1.map(|d| department_counter((d.to_string(), -1))));
        ops.extend(after.1.map(|d| department_counter((d.to_string(), 1))));
    }
    ops
}

/// Runs a user's writes (the record first, then its password item, which
/// has no condition) with its counter changes as one transaction; a failed
/// condition on the user itself is answered by `user_refusal`.
async fn write_with_counters(ctx: &AppCtx, user_ops: Vec<TxOp>, counters: Vec<CounterOp>, user_refusal: ApiError) -> Result<(), ApiError> {
    let user_writes = user_ops.len();
    let mut ops = user_ops;
    let mut refusals = Vec::with_capacity(counters.len());
    for c in counters {
        ops.push(c.op);
        refusals.push(c.refusal);
    }
    match ctx.store.transact(ops).await {
        Ok(()) => {
            ctx.roles.invalidate().await;
            Ok(())
        }
        Err(store::StoreError::TransactionCanceled { failed }) if failed.contains(&0) => Err(user_refusal),
        Err(store::StoreError::TransactionCanceled { failed }) => {
            let first = failed.first().copied().unwrap_or(user_writes);
            Err(refusals.into_iter().nth(first.saturating_sub(user_writes)).unwrap_or_else(|| ApiError::standard(409)))
        }
        Err(e) => Err(e).api(),
    }
}

/// Role counter changes between two role lists.
fn role_changes(before: &[String], after: &[String]) -> Vec<(String, i64)> {
    let added = after.iter().filter(|r| !before.contains(r)).map(|r| (r.clone(), 1));
    let removed = before.iter().filter(|r| !after.contains(r)).map(|r| (r.clone(), -1));
    added.chain(removed).collect()
}

fn dedup(roles: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in roles.iter().map(|r| r.trim()).filter(|r| !r.is_empty()) {
        if !out.iter().any(|o| o == r) {
            out.push(r.to_string());
        }
    }
    out
}

/// Creates (version None) or edits an account. An admin cannot disable
/// or demote themselves, so nobody locks themselves out by accident.
pub async fn save(ctx: &AppCtx, actor: &str, mut edit: AccountEdit) -> Result<User, ApiError> {
    edit.username = users::validate_username(&edit.username)?;
    edit.email = edit.email.trim().to_string();
    edit.roles = dedup(&edit.roles);
    check_edit(&edit)?;
    let now = ctx.now();
    let (user, user_ops, counters) = match edit.version {
        None => {
            let password = edit.password.as_deref().unwrap_or_default();
            users::validate_password(password, &edit.username, "password")?;
            let hash = crate::password_work::hash(password).await?;
            let mut user = User::new(&edit.username, hash, edit.roles.clone(), now);
            user.email = edit.email;
            user.department_id = edit.department_id;
            user.enabled = edit.enabled;
            let ops = user.create_ops();
            let counters = counter_ops((&[], None), (&user.roles, user.department_id.as_deref()));
            (user, ops, counters)
        }
        Some(version) => {
            let current = users::get(ctx, &edit.username).await?.ok_or_else(|| no_such_user(&edit.username))?;
            let was_admin = current.roles.iter().any(|r| r == permission::ADMIN_ROLE);
            let stays_admin = edit.roles.iter().any(|r| r == permission::ADMIN_ROLE);
            if current.username.eq_ignore_ascii_case(actor) && (!edit.enabled || was_admin && !stays_admin) {
                return Err(ApiError::bad_request(msg::settings::users::not_yourself()));
            }
            let counters = counter_ops((&current.roles, current.department_id.as_deref()), (&edit.roles, edit.department_id.as_deref()));
            let user = User {
                email: edit.email,
                roles: edit.roles,
                department_id: edit.department_id,
                enabled: edit.enabled,
                updated_at: now,
                version: version.saturating_add(1),
                ..current
            };
            let op = TxOp::Put { item: user.to_item(), condition: Some(Condition::version_is(version)) };
            (user, vec![op], counters)
        }
    };
    let user_refusal = if edit.version.is_none() { users::username_taken(&user.username) } else { stale(&user.username) };
    write_with_counters(ctx, user_ops, counters, user_refusal).await?;
    Ok(user)
}

fn stale(username: &str) -> ApiError {
    ApiError::conflict(msg::settings::users::stale(&username))
}

fn no_such_user(username: &str) -> ApiError {
    ApiError::not_found(msg::settings::users::not_found(&username))
}

/// Deletes an account and ends its sessions; never the actor's own, never
/// the last Admin.
pub async fn delete(ctx: &AppCtx, actor: &str, username: &str) -> Result<(), ApiError> {
    if username.eq_ignore_ascii_case(actor) {
        return Err(ApiError::bad_request(msg::settings::users::not_delete_yourself()));
    }
    let user = users::get(ctx, username).await?.ok_or_else(|| no_such_user(username))?;
    let counters = counter_ops((&user.roles, user.department_id.as_deref()), (&[], None));
    let ops = vec![
        TxOp::Delete { key: keys::user(&user.username), condition: Some(Condition::version_is(user.version)) },
        TxOp::Delete { key: keys::password(&user.username), condition: None },
    ];
    write_with_counters(ctx, ops, counters, stale(&user.username)).await?;
    crate::domain::sessions::end_all_except(ctx, &user.username, None).await?;
    // Its social identities go too: none may sign in as a later account
    // of the same name (sign-in also checks both sides of a link agree).
    crate::domain::oauth::unlink_all(ctx, &user.username).await?;
    // A later account of the same name starts with every notice unread.
    crate::domain::notices::forget_reader(ctx, &user.username).await?;
    Ok(())
}

/// Sets a new password for another user and ends their sessions. Never
/// the actor's own: that goes through the personal center, which asks for
/// the current password, so a stolen session cannot take the account over.
pub async fn reset_password(ctx: &AppCtx, actor: &str, username: &str, password: &str) -> Result<(), ApiError> {
    if username.eq_ignore_ascii_case(actor) {
        return Err(ApiError::bad_request(msg::settings::users::not_reset_yourself()));
    }
    users::validate_password(password, username, "password")?;
    let user = users::get(ctx, username).await?.ok_or_else(|| no_such_user(username))?;
    let hash = crate::password_work::hash(password).await?;
    users::set_password_hash(ctx, &user, hash).await?;
    crate::domain::sessions::end_all_except(ctx, &user.username, None).await?;
    Ok(())
}
