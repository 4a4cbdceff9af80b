//! Roles and the permissions they grant. A user's permissions are the
//! de-duplicated union over their roles.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use envelope::{msg, ApiError, Arg};
use serde::{Deserialize, Serialize};
use store::Query;
use tokio::sync::Mutex;

use super::{from_item, keys, to_item, StoreResultExt};
use crate::ctx::AppCtx;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Role {
    pub name: String,
    pub permissions: Vec<String>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub version: i64,
    /// How many users hold the role; changed in the same transaction as
    /// every user write, so "in use" and "last admin" checks are exact.
    #[serde(default)]
    pub user_count: i64,
}

impl Role {
    pub fn to_item(&self) -> store::Item {
        let key = keys::role(&self.name);
        to_item(
            self,
            &[
                (store::PK, key.pk),
                (store::SK, key.sk),
                ("GSI1PK", keys::ROLES_INDEX_PK.to_string()),
                ("GSI1SK", self.name.clone()),
            ],
        )
    }
}

/// How long a process trusts its copy of the role definitions. Roles change
/// rarely; a role edit in this process clears the copy at once, other
/// processes (other Lambdas) see it within this time.
const ROLE_CACHE_TTL: Duration = Duration::from_secs(10);

/// The role definitions, read with one Query and kept briefly, so that
/// authenticating a request costs one store call, not one per role.
#[derive(Default)]
pub struct RoleCache {
    loaded: Mutex<Option<(Instant, HashMap<String, Vec<String>>)>>,
}

impl RoleCache {
    /// The permissions granted by `roles`, de-duplicated, in first-seen order.
    pub async fn permissions_of(&self, ctx: &AppCtx, roles: &[String]) -> Result<Vec<String>, ApiError> {
        let mut guard = self.loaded.lock().await;
        let fresh = guard.as_ref().is_some_and(|(at, _)| at.elapsed() < ROLE_CACHE_TTL);
        if !fresh {
            *guard = Some((Instant::now(), load_all(ctx).await?.into_iter().map(|r| (r.name, r.permissions)).collect()));
        }
        let table = &guard.as_ref().expect("filled above").1;
        let mut union: Vec<String> = Vec::new();
        for role in roles {
            for p in table.get(role).into_iter().flatten() {
                if !union.contains(p) {
                    union.push(p.clone());
                }
            }
        }
        Ok(union)
    }

    /// Forgets the cached definitions (after a role edit).
    pub async fn invalidate(&self) {
        *self.loaded.lock().await = None;
    }
}

/// Every role, by name.
pub async fn load_all(ctx: &AppCtx) -> Result<Vec<Role>, ApiError> {
    let mut roles = Vec::new();
    let mut cursor = None;
    loop {
        let page = ctx
            .store
            .query(Query::index(store::Index::Gsi1, keys::ROLES_INDEX_PK).after(cursor))
            .await
            .api()?;
        for item in page.items {
            roles.push(from_item(item)?);
        }
        cursor = page.cursor;
        if cursor.is_none() {
            return Ok(roles);
        }
    }
}

/// The seeded roles (Admin, Editor, Test) with the spec's permissions.
pub fn seeded() -> Vec<Role> {
    permission::SEEDED_ROLES
        .iter()
        .map(|(name, perms)| Role {
            name: (*name).to_string(),
            permissions: perms.iter().map(|p| (*p).to_string()).collect(),
            description: String::new(),
            version: 1,
            user_count: 0,
        })
        .collect()
}

/// What an admin may set on a role.
#[derive(Debug, Clone)]
pub struct RoleEdit {
    pub name: String,
    /// The role's current name when renaming it.
    pub old_name: Option<String>,
    pub permissions: Vec<String>,
    pub description: String,
    /// The version the edit was made from; None creates a role.
    pub version: Option<i64>,
}



/// Role names are case-sensitive (`admin` is not `Admin`): 1 to 32 letters, digits, `_` or `-`.
pub fn validate_name(raw: &str) -> Result<String, ApiError> {
    let name = raw.trim();
    let ok = (1..=32).contains(&name.chars().count()) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(name.to_string())
    } else {
        Err(ApiError::bad_request(msg::settings::roles::bad_name()))
    }
}

fn checked_permissions(permissions: &[String]) -> Result<Vec<String>, ApiError> {
    let mut out: Vec<String> = Vec::new();
    for p in permissions.iter().map(|p| p.trim()) {
        if !permission::ALL_PERMISSIONS.contains(&p) {
            return Err(ApiError::bad_request(msg::settings::roles::bad_permission(Arg::names(&permission::ALL_PERMISSIONS), p)));
        }
        if !out.iter().any(|o| o == p) {
            out.push(p.to_string());
        }
    }
    Ok(out)
}

pub async fn get(ctx: &AppCtx, name: &str) -> Result<Option<Role>, ApiError> {
    ctx.store.get(&keys::role(name)).await.api()?.map(from_item).transpose()
}

fn in_use(name: &str, holders: i64) -> ApiError {
    ApiError::conflict(msg::settings::roles::held(&holders, &name))
}

/// Creates or edits a role. Renaming is a delete and a create in one
/// transaction, allowed only while nobody holds the role.
pub async fn save(ctx: &AppCtx, edit: RoleEdit) -> Result<Role, ApiError> {
    let name = validate_name(&edit.name)?;
    let permissions = checked_permissions(&edit.permissions)?;
    let description: String = edit.description.trim().chars().take(200).collect();
    let renamed_from = edit.old_name.map(|o| o.trim().to_string()).filter(|o| !o.is_empty() && *o != name);
    let result = match (edit.version, renamed_from) {
        (None, _) => {
            let role = Role { name, permissions, description, version: 1, user_count: 0 };
            let put = ctx.store.put(role.to_item(), Some(store::Condition::item_absent())).await;
            match put {
                Err(store::StoreError::ConditionFailed) => {
                    return Err(ApiError::conflict(msg::settings::roles::exists(&role.name)))
                }
                other => other.api().map(|()| role),
            }
        }
        (Some(version), Some(old)) => {
            let current = get(ctx, &old).await?.ok_or_else(|| no_such_role(&old))?;
            if current.user_count > 0 {
                return Err(in_use(&old, current.user_count));
            }
            let role = Role { name, permissions, description, version: version.saturating_add(1), user_count: 0 };
            let ops = vec![
                store::TxOp::Delete {
                    key: keys::role(&old),
                    condition: Some(store::Condition::And(vec![
                        store::Condition::version_is(version),
                        store::Condition::counter_is_zero("userCount"),
                    ])),
                },
                store::TxOp::Put { item: role.to_item(), condition: Some(store::Condition::item_absent()) },
            ];
            match ctx.store.transact(ops).await {
                Err(store::StoreError::TransactionCanceled { failed }) if failed.contains(&1) => {
                    return Err(ApiError::conflict(msg::settings::roles::exists(&role.name)))
                }
                Err(store::StoreError::TransactionCanceled { .. }) => return Err(stale_role(&old)),
                other => other.api().map(|()| role),
            }
        }
        (Some(version), None) => {
            let current = get(ctx, &name).await?.ok_or_else(|| no_such_role(&name))?;
            let role = Role { permissions, description, version: version.saturating_add(1), ..current };
            let actions = vec![
                store::UpdateAction::Set("permissions".into(), serde_json::json!(role.permissions)),
                store::UpdateAction::Set("description".into(), serde_json::json!(role.description)),
                store::UpdateAction::Set(store::VERSION.into(), serde_json::json!(role.version)),
            ];
            match ctx.store.update(&keys::role(&name), actions, Some(store::Condition::version_is(version))).await {
                Err(store::StoreError::ConditionFailed) => return Err(stale_role(&name)),
                other => other.api().map(|_| role),
            }
        }
    };
    ctx.roles.invalidate().await;
    result
}

fn stale_role(name: &str) -> ApiError {
    ApiError::conflict(msg::settings::roles::stale(&name))
}

fn no_such_role(name: &str) -> ApiError {
    ApiError::not_found(msg::settings::roles::not_found(&name))
}

/// Deletes a role nobody holds (the condition re-checks the count at the
/// moment of the delete, so a concurrent grant cannot slip in between).
pub async fn delete(ctx: &AppCtx, name: &str) -> Result<(), ApiError> {
    let current = get(ctx, name).await?.ok_or_else(|| no_such_role(name))?;
    if current.user_count > 0 {
        return Err(in_use(name, current.user_count));
    }
    let unused = store::Condition::counter_is_zero("userCount");
    match ctx.store.delete(&keys::role(name), Some(unused)).await {
        Err(store::StoreError::ConditionFailed) => Err(in_use(name, 1)),
        other => other.api().map(|_| ()),
    }?;
    ctx.roles.invalidate().await;
    Ok(())
}
