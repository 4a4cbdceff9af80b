//! The department tree (fields id, parentId, parentName, name,
//! order, createTime, children). Each department counts its children and
//! its users in counters changed in the same transaction as the writes
//! that change them, so "delete refused with children or users" holds
//! even when someone adds a child at the same moment.

use std::collections::HashMap;

use envelope::{msg, ApiError};
use serde::{Deserialize, Serialize};
use store::{Condition, Key, Query, TxOp, UpdateAction};

use super::{from_item, to_item, StoreResultExt};
use crate::ctx::AppCtx;

const INDEX_PK: &str = "DEPTS";
const MAX_NAME: usize = 50;

pub fn key(id: &str) -> Key {
    Key::new(format!("DEPT#{id}"), "DEPT")
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Department {
    pub id: String,
    /// Empty for a top-level department.
    #[serde(default)]
    pub parent_id: String,
    pub name: String,
    #[serde(default)]
    pub order: i64,
    #[serde(default)]
    pub created_at: i64,
    #[serde(default)]
    pub version: i64,
    #[serde(default)]
    pub child_count: i64,
    #[serde(default)]
    pub user_count: i64,
}

impl Department {
    fn to_item(&self) -> store::Item {
        let k = key(&self.id);
        to_item(self, &[(store::PK, k.pk), (store::SK, k.sk), ("GSI1PK", INDEX_PK.into()), ("GSI1SK", self.id.clone())])
    }
}


/// Every department (an operator has tens, one Query reads them all).
pub async fn all(ctx: &AppCtx) -> Result<Vec<Department>, ApiError> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let page = ctx.store.query(Query::index(store::Index::Gsi1, INDEX_PK).after(cursor)).await.api()?;
        for item in page.items {
            out.push(from_item(item)?);
        }
        cursor = page.cursor;
        if cursor.is_none() {
            return Ok(out);
        }
    }
}

/// A department as the tree page shows it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DepartmentNode {
    pub id: String,
    /// Empty at the top level.
    pub parent_id: String,
    pub parent_name: String,
    pub name: String,
    pub order: i64,
    /// `YYYY-MM-DD HH:mm:ss` (China time).
    pub create_time: String,
    pub user_count: i64,
    pub version: i64,
    pub children: Vec<DepartmentNode>,
}

/// The tree as the page shows it, siblings by `order` then name.
pub fn tree(departments: &[Department]) -> Vec<DepartmentNode> {
    let by_id: HashMap<&str, &Department> = departments.iter().map(|d| (d.id.as_str(), d)).collect();
    fn children_of(parent: &str, all: &[Department], by_id: &HashMap<&str, &Department>) -> Vec<DepartmentNode> {
        let mut kids: Vec<&Department> = all.iter().filter(|d| d.parent_id == parent).collect();
        kids.sort_by(|a, b| a.order.cmp(&b.order).then_with(|| a.name.cmp(&b.name)));
        kids.into_iter()
            .map(|d| DepartmentNode {
                id: d.id.clone(),
                parent_id: d.parent_id.clone(),
                parent_name: by_id.get(d.parent_id.as_str()).map(|p| p.name.clone()).unwrap_or_default(),
                name: d.name.clone(),
                order: d.order,
                create_time: super::format_time(d.created_at),
                user_count: d.user_count,
                version: d.version,
                children: children_of(&d.id, all, by_id),
            })
            .collect()
    }
    children_of("", departments, &by_id)
}

/// What an admin sets on a department.
pub struct DepartmentEdit {
    pub id: Option<String>,
    pub parent_id: String,
    pub name: String,
    pub order: i64,
    pub version: Option<i64>,
}

fn counter(id: &str, attr: &str, delta: i64) -> TxOp {
    TxOp::Update { key: key(id), actions: vec![UpdateAction::Add(attr.into(), delta)], condition: Some(Condition::item_exists()) }
}

/// The counter change of a user joining (+1) or leaving (-1) a department;
/// the condition refuses a department that does not exist.
pub fn user_count_op(id: &str, delta: i64) -> TxOp {
    counter(id, "userCount", delta)
}

/// Creates or edits a department, refusing unknown parents, cycles and a
/// second child of the same name under one parent.
pub async fn save(ctx: &AppCtx, edit: DepartmentEdit) -> Result<Department, ApiError> {
    let name = edit.name.trim().to_string();
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return Err(ApiError::bad_request(msg::settings::departments::name_length(MAX_NAME)));
    }
    // Some clients send "0" for "no parent".
    let parent_id = match edit.parent_id.trim() {
        "0" => String::new(),
        other => other.to_string(),
    };
    let departments = all(ctx).await?;
    let by_id: HashMap<&str, &Department> = departments.iter().map(|d| (d.id.as_str(), d)).collect();
    if !parent_id.is_empty() && !by_id.contains_key(parent_id.as_str()) {
        return Err(ApiError::bad_request(msg::settings::departments::no_parent(&parent_id)));
    }
    let this_id = edit.id.clone().unwrap_or_default();
    // Walking up from the new parent must never reach the department itself.
    let mut up = parent_id.as_str();
    while !up.is_empty() {
        if up == this_id {
            return Err(ApiError::bad_request(msg::settings::departments::under_itself()));
        }
        up = by_id.get(up).map(|d| d.parent_id.as_str()).unwrap_or("");
    }
    if departments.iter().any(|d| d.parent_id == parent_id && d.name == name && d.id != this_id) {
        return Err(ApiError::conflict(msg::settings::departments::name_taken(&name)));
    }
    let is_new = edit.id.as_deref().is_none_or(str::is_empty);
    let (saved, mut ops, moved_from) = if is_new {
        let dept = Department {
            id: uuid::Uuid::now_v7().simple().to_string(),
            parent_id: parent_id.clone(),
            name,
            order: edit.order,
            created_at: ctx.now(),
            version: 1,
            child_count: 0,
            user_count: 0,
        };
        let ops = vec![TxOp::Put { item: dept.to_item(), condition: Some(Condition::item_absent()) }];
        (dept, ops, None)
    } else {
        let version = edit.version.ok_or_else(|| ApiError::bad_request(msg::settings::departments::version_needed()))?;
        let current = by_id.get(this_id.as_str()).map(|d| (*d).clone()).ok_or_else(|| no_such(&this_id))?;
        let moved_from = (current.parent_id != parent_id).then(|| current.parent_id.clone());
        let dept = Department { parent_id: parent_id.clone(), name, order: edit.order, version: version.saturating_add(1), ..current };
        let ops = vec![TxOp::Put { item: dept.to_item(), condition: Some(Condition::version_is(version)) }];
        (dept, ops, moved_from)
    };
    // The parents' child counters follow a new or moved department.
    if let Some(old) = moved_from.as_deref().filter(|o| !o.is_empty()) {
        ops.push(counter(old, "childCount", -1));
    }
    if (is_new || moved_from.is_some()) && !parent_id.is_empty() {
        ops.push(counter(&parent_id, "childCount", 1));
    }
    match ctx.store.transact(ops).await {
        Ok(()) => Ok(saved),
        Err(store::StoreError::TransactionCanceled { failed }) if failed.contains(&0) && !is_new => Err(stale(&saved.name)),
        Err(store::StoreError::TransactionCanceled { .. }) => Err(ApiError::conflict(msg::settings::departments::changed_meanwhile())),
        Err(e) => Err(e).api(),
    }
}

fn stale(name: &str) -> ApiError {
    ApiError::conflict(msg::settings::departments::stale(&name))
}

fn no_such(id: &str) -> ApiError {
    ApiError::not_found(msg::settings::departments::not_found(&id))
}

/// Deletes a department that has neither sub-departments nor users.
pub async fn delete(ctx: &AppCtx, id: &str) -> Result<(), ApiError> {
    let current: Department = match ctx.store.get(&key(id)).await.api()? {
        Some(item) => from_item(item)?,
        None => return Err(no_such(id)),
    };
    if current.child_count > 0 {
        return Err(ApiError::conflict(msg::settings::departments::has_children(&current.name)));
    }
    if current.user_count > 0 {
        return Err(ApiError::conflict(msg::settings::departments::has_users(&current.name)));
    }
    let mut ops = vec![TxOp::Delete {
        key: key(id),
        condition: Some(Condition::And(vec![Condition::version_is(current.version), Condition::counter_is_zero("childCount"), Condition::counter_is_zero("userCount")])),
    }];
    if !current.parent_id.is_empty() {
        ops.push(counter(&current.parent_id, "childCount", -1));
    }
    match ctx.store.transact(ops).await {
        Err(store::StoreError::TransactionCanceled { .. }) => Err(stale(&current.name)),
        other => other.api(),
    }
}

/// The departments a fresh store starts with: `head` and its `children`.
pub async fn seed(ctx: &AppCtx, head: &str, children: &[&str]) -> Result<(), ApiError> {
    let head = save(ctx, DepartmentEdit { id: None, parent_id: String::new(), name: head.into(), order: 1, version: None }).await?;
    for (order, name) in children.iter().enumerate() {
        save(ctx, DepartmentEdit { id: None, parent_id: head.id.clone(), name: name.to_string(), order: order as i64 + 1, version: None }).await?;
    }
    Ok(())
}
