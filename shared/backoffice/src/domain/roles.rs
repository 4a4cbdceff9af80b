//! Roles and the permissions they grant. A user's permissions are the
//! de-duplicated union over their roles (spec point 6).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use envelope::ApiError;
use serde::{Deserialize, Serialize};
use store::Query;
use tokio::sync::Mutex;

use super::{from_item, keys, to_item, StoreResultExt};
use crate::ctx::AppCtx;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Role {
    pub name: String,
    pub permissions: Vec<String>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub version: i64,
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
        })
        .collect()
}
