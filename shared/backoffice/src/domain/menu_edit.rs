//! Editing the stored menu/route tree (the /setting/menuManagement page).
//! A node is named by its unique `name`; every edit rebuilds the whole tree
//! and checks it before the versioned write, so the sidebar never receives
//! a tree with duplicate names or paths, unknown views or broken guards.

use std::collections::{BTreeSet, HashSet};

use envelope::{msg, ApiError};
use serde_json::{Map, Value};
use store::Condition;

use super::{menus, StoreResultExt};
use crate::ctx::AppCtx;

/// The `component` keyword that maps a route to the layout shell (any other names a view file).
pub const LAYOUT: &str = "Layout";
const MAX_TITLE: usize = 50;


/// The components a node may name: the layout shell and every view the
/// shipped tree uses (the SPA's registry test keeps those views built).
pub fn known_components() -> BTreeSet<String> {
    fn walk(nodes: &[Value], out: &mut BTreeSet<String>) {
        for n in nodes {
            if let Some(c) = n.get("component").and_then(Value::as_str) {
                out.insert(c.to_string());
            }
            walk(n.get("children").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]), out);
        }
    }
    let mut out = BTreeSet::from([LAYOUT.to_string()]);
    walk(&menus::seed_tree(), &mut out);
    out
}

fn name_of(node: &Value) -> &str {
    node.get("name").and_then(Value::as_str).unwrap_or_default()
}

fn children(node: &Value) -> &[Value] {
    node.get("children").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
}

/// The tree with `id` (= name) on every node, as the page lists it, and
/// the number of nodes.
pub fn with_ids(nodes: &[Value]) -> (Vec<Value>, usize) {
    let mut count = 0;
    fn walk(nodes: &[Value], count: &mut usize) -> Vec<Value> {
        nodes
            .iter()
            .map(|n| {
                *count += 1;
                let mut n = n.clone();
                if let Some(obj) = n.as_object_mut() {
                    let id = obj.get("name").cloned().unwrap_or(Value::Null);
                    obj.insert("id".into(), id);
                    let kids = obj.get("children").and_then(Value::as_array).map(|k| walk(k, count));
                    if let Some(kids) = kids {
                        obj.insert("children".into(), Value::Array(kids));
                    }
                }
                n
            })
            .collect()
    }
    let list = walk(nodes, &mut count);
    (list, count)
}

/// Checks a whole tree.
pub fn validate(nodes: &[Value]) -> Result<(), ApiError> {
    let known = known_components();
    let mut names = HashSet::new();
    let mut paths = HashSet::new();
    fn walk(nodes: &[Value], parent: &str, known: &BTreeSet<String>, names: &mut HashSet<String>, paths: &mut HashSet<String>) -> Result<(), ApiError> {
        for n in nodes {
            let name = name_of(n);
            if name.trim().is_empty() {
                return Err(ApiError::bad_request(msg::settings::menus::name_needed()));
            }
            if !names.insert(name.to_string()) {
                return Err(ApiError::conflict(msg::settings::menus::name_twice(&name)));
            }
            let path = n.get("path").and_then(Value::as_str).unwrap_or_default().trim();
            if path.is_empty() {
                return Err(ApiError::bad_request(msg::settings::menus::path_needed(&name)));
            }
            let external = menus::is_external(path);
            let full = if external || path.starts_with('/') || path == "*" {
                path.to_string()
            } else {
                format!("{}/{path}", parent.trim_end_matches('/'))
            };
            if !external && !paths.insert(full.clone()) {
                return Err(ApiError::conflict(msg::settings::menus::path_twice(&full)));
            }
            match n.get("component").and_then(Value::as_str) {
                Some(c) if !known.contains(c) => {
                    return Err(ApiError::bad_request(msg::settings::menus::unknown_component(&c, &name)))
                }
                None if !external && children(n).is_empty() && n.get("redirect").is_none() => {
                    return Err(ApiError::bad_request(msg::settings::menus::component_needed(&name)))
                }
                _ => {}
            }
            let meta = n.get("meta").and_then(Value::as_object);
            let title = meta.and_then(|m| m.get("title")).and_then(Value::as_str).unwrap_or_default();
            if title.trim().is_empty() || title.chars().count() > MAX_TITLE {
                return Err(ApiError::bad_request(msg::settings::menus::title_length(MAX_TITLE, &name)));
            }
            if let Some(guard) = meta.and_then(|m| m.get("guard")) {
                permission::parse_guard(guard).map_err(|e| ApiError::bad_request(msg::settings::menus::bad_guard(&name, &e)))?;
            }
            walk(children(n), &full, known, names, paths)?;
        }
        Ok(())
    }
    walk(nodes, "", &known, &mut names, &mut paths)
}

/// Removes the node named `name` (with its subtree) and returns it.
fn take(nodes: &mut Vec<Value>, name: &str) -> Option<Value> {
    if let Some(i) = nodes.iter().position(|n| name_of(n) == name) {
        return Some(nodes.remove(i));
    }
    nodes.iter_mut().find_map(|n| n.get_mut("children").and_then(Value::as_array_mut).and_then(|kids| take(kids, name)))
}

/// The children list of the node named `parent` ("" = the top level).
fn children_mut<'a>(nodes: &'a mut Vec<Value>, parent: &str) -> Option<&'a mut Vec<Value>> {
    if parent.is_empty() {
        return Some(nodes);
    }
    for n in nodes.iter_mut() {
        if name_of(n) == parent {
            let obj = n.as_object_mut()?;
            let kids = obj.entry("children").or_insert_with(|| Value::Array(Vec::new()));
            return kids.as_array_mut();
        }
        if let Some(found) = n.get_mut("children").and_then(Value::as_array_mut).and_then(|k| children_mut(k, parent)) {
            return Some(found);
        }
    }
    None
}

/// The parent's name ("" = top level) and the index of the node named `name`.
fn position(nodes: &[Value], parent: &str, name: &str) -> Option<(String, usize)> {
    if let Some(i) = nodes.iter().position(|n| name_of(n) == name) {
        return Some((parent.to_string(), i));
    }
    nodes.iter().find_map(|n| position(children(n), name_of(n), name))
}

fn contains(node: &Value, name: &str) -> bool {
    name_of(node) == name || children(node).iter().any(|c| contains(c, name))
}

/// The node fields an editor may set (anything else is dropped).
fn clean_node(node: &Value) -> Result<Map<String, Value>, ApiError> {
    let obj = node.as_object().ok_or_else(|| ApiError::bad_request(msg::settings::menus::node_not_object()))?;
    let mut out = Map::new();
    for field in ["path", "name", "component", "redirect"] {
        match obj.get(field) {
            // The name is the entry's key: one spelling (`names`), as the
            // edit's originalName and parentName are.
            Some(Value::String(s)) if field == "name" => {
                let key = names::MenuKey::parse(s).map_err(|r| ApiError::bad_request(msg::request::field_words("node.name", crate::messages::names::refusal(&r))))?;
                if !key.is_empty() {
                    out.insert(field.into(), Value::String(key.into_string()));
                }
            }
            Some(Value::String(s)) if !s.trim().is_empty() => {
                out.insert(field.into(), Value::String(s.trim().to_string()));
            }
            Some(Value::String(_)) | Some(Value::Null) | None => {}
            Some(_) => return Err(ApiError::bad_request(msg::settings::menus::not_text(&field))),
        }
    }
    if let Some(meta) = obj.get("meta") {
        if !meta.is_object() {
            return Err(ApiError::bad_request(msg::settings::menus::meta_not_object()));
        }
        out.insert("meta".into(), meta.clone());
    }
    Ok(out)
}

/// Creates (no `original_name`) or edits one node, placing it under
/// `parent_name`, and saves the tree over `version`.
pub async fn save_node(ctx: &AppCtx, original_name: Option<&str>, parent_name: &str, node: &Value, version: i64) -> Result<i64, ApiError> {
    let (mut tree, stored_version) = menus::load_versioned(ctx).await?;
    if stored_version != version {
        return Err(stale());
    }
    let mut fields = clean_node(node)?;
    // An edit that keeps the parent keeps the node's place among its siblings.
    let mut keep_at = None;
    let placed = match original_name {
        Some(original) => {
            let (old_parent, index) = position(&tree, "", original).ok_or_else(|| no_such(original))?;
            if old_parent == parent_name {
                keep_at = Some(index);
            }
            let old = take(&mut tree, original).ok_or_else(|| no_such(original))?;
            if !parent_name.is_empty() && contains(&old, parent_name) {
                return Err(ApiError::bad_request(msg::settings::menus::under_itself()));
            }
            if let Some(kids) = old.get("children") {
                fields.insert("children".into(), kids.clone());
            }
            Value::Object(fields)
        }
        None => Value::Object(fields),
    };
    let siblings = children_mut(&mut tree, parent_name).ok_or_else(|| no_such(parent_name))?;
    match keep_at {
        Some(index) if index <= siblings.len() => siblings.insert(index, placed),
        _ => siblings.push(placed),
    }
    validate(&tree)?;
    write(ctx, tree, version).await
}

/// Deletes a node without children.
pub async fn delete_node(ctx: &AppCtx, name: &str, version: i64) -> Result<i64, ApiError> {
    let (mut tree, stored_version) = menus::load_versioned(ctx).await?;
    if stored_version != version {
        return Err(stale());
    }
    let node = take(&mut tree, name).ok_or_else(|| no_such(name))?;
    if !children(&node).is_empty() {
        return Err(ApiError::conflict(msg::settings::menus::has_children(&name)));
    }
    write(ctx, tree, version).await
}

async fn write(ctx: &AppCtx, tree: Vec<Value>, version: i64) -> Result<i64, ApiError> {
    let item = menus::tree_item(tree, version + 1, ctx.now());
    match ctx.store.put(item, Some(Condition::version_is(version))).await {
        Err(store::StoreError::ConditionFailed) => Err(stale()),
        other => other.api().map(|()| version + 1),
    }
}

fn stale() -> ApiError {
    ApiError::conflict(msg::settings::menus::changed_meanwhile())
}

fn no_such(name: &str) -> ApiError {
    ApiError::not_found(msg::settings::menus::not_found(&name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_shipped_tree_is_valid() {
        validate(&menus::seed_tree()).unwrap();
    }

    #[test]
    fn broken_trees_are_refused_with_a_reason() {
        let page = |name: &str, path: &str, component: &str| json!({"name": name, "path": path, "component": component, "meta": {"title": name}});
        let section = |kids: Vec<Value>| json!({"name": "S", "path": "/s", "component": "Layout", "meta": {"title": "S"}, "children": kids});
        let cases = [
            (vec![section(vec![page("A", "a", "index/index"), page("A", "b", "index/index")])], "used twice"),
            (vec![section(vec![page("A", "a", "index/index"), page("B", "a", "index/index")])], "'/s/a' is used twice"),
            (vec![section(vec![page("A", "a", "no/such/view")])], "unknown component"),
            (vec![section(vec![json!({"name": "A", "path": "a", "component": "index/index", "meta": {"title": ""}})])], "title"),
            (vec![section(vec![json!({"name": "A", "path": "a", "component": "index/index", "meta": {"title": "A", "guard": {"mode": "sometimes"}}})])], "guard"),
        ];
        for (tree, says) in cases {
            let err = validate(&tree).unwrap_err();
            assert!(err.msg.en.contains(says), "{says}: {}", err.msg.en);
        }
    }

    #[test]
    fn a_node_cannot_move_under_its_own_child() {
        let tree = json!({"name": "A", "children": [{"name": "B", "children": [{"name": "C"}]}]});
        assert!(contains(&tree, "C"));
        assert!(!contains(&tree, "D"));
    }
}
