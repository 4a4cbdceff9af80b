//! The menu and route tree the SPA builds its navigation from. Stored as
//! one versioned record (the whole tree is a few kilobytes) and served
//! filtered by the caller's roles.

use envelope::ApiError;
use permission::Principal;
use serde_json::Value;

use super::{keys, StoreResultExt};
use crate::ctx::AppCtx;

/// The tree the product ships with: the charging pages and
/// the template's demo tree. Seeded into the store on first run.
pub const SEED_TREE_JSON: &str = include_str!("../../data/menu-routes.json");

/// A route node as the shell and the menu page are sent it (the document's
/// schema; the tree itself is kept and validated as JSON, `menu_edit`).
/// An editor may add meta flags the SPA ignores, so meta stays open.
#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
pub struct RouteNode {
    /// Relative to the parent, or absolute (`/...`), or an external link.
    path: String,
    /// Unique in the tree; the page's key.
    name: String,
    /// A page component (`menu_edit::known_components`), or `Layout` for a section.
    #[serde(skip_serializing_if = "Option::is_none")]
    component: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    redirect: Option<String>,
    meta: RouteMeta,
    #[serde(skip_serializing_if = "Option::is_none")]
    children: Option<Vec<RouteNode>>,
    /// The node's name again (the menu page's row key); menu page only.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
}

/// A route's display and access flags.
#[derive(schemars::JsonSchema)]
#[schemars(extend("additionalProperties" = true))]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct RouteMeta {
    /// A key of the SPA's menu titles (zh), translated by the SPA.
    title: String,
    /// A Remix icon name (e.g. `home-4-line`).
    #[serde(skip_serializing_if = "Option::is_none")]
    icon: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    is_custom_svg: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hidden: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    level_hidden: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    no_closable: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dynamic_new_tab: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    badge: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dot: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    active_menu: Option<String>,
    /// Who may see it: a list of role/permission names, or `{role, permission, mode}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    guard: Option<GuardDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    no_keep_alive: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tab_hidden: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    breadcrumb_hidden: Option<bool>,
    /// `_blank` for an external link opened in a new tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<String>,
}

/// A route guard (see `permission::parse_guard`).
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum GuardDoc {
    Names(Vec<String>),
    Spec {
        #[serde(skip_serializing_if = "Option::is_none")]
        role: Option<OneOrMany>,
        #[serde(skip_serializing_if = "Option::is_none")]
        permission: Option<OneOrMany>,
        #[serde(skip_serializing_if = "Option::is_none")]
        mode: Option<GuardMode>,
    },
}

#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub enum GuardMode {
    OneOf,
    AllOf,
    Except,
}

/// The seeded tree, parsed.
pub fn seed_tree() -> Vec<Value> {
    serde_json::from_str(SEED_TREE_JSON).expect("data/menu-routes.json is a JSON array (checked by a test)")
}

/// The stored tree.
pub async fn load(ctx: &AppCtx) -> Result<Vec<Value>, ApiError> {
    let item = ctx.store.get(&keys::menu_tree()).await.api()?;
    Ok(match item.and_then(|mut i| i.remove("routes")) {
        Some(Value::Array(routes)) => routes,
        _ => Vec::new(),
    })
}

/// The stored tree and its version (for edits).
pub async fn load_versioned(ctx: &AppCtx) -> Result<(Vec<Value>, i64), ApiError> {
    let item = ctx.store.get(&keys::menu_tree()).await.api()?;
    let version = item.as_ref().and_then(|i| i.get(store::VERSION)).and_then(Value::as_i64).unwrap_or(0);
    let routes = match item.and_then(|mut i| i.remove("routes")) {
        Some(Value::Array(routes)) => routes,
        _ => Vec::new(),
    };
    Ok((routes, version))
}

/// The tree this server serves: the stored one with the product's own
/// entries ([`with_product_entries`]), without the demo pages while they
/// are off ([`in_service`]). The menu and the 403 pages both read it, so a
/// page the menu may show is one the 403 list knows.
pub async fn served(ctx: &AppCtx) -> Result<Vec<Value>, ApiError> {
    Ok(in_service(ctx, with_product_entries(load(ctx).await?)))
}

/// The served tree ([`served`]) as the caller may see it.
pub async fn visible_to(ctx: &AppCtx, principal: &Principal) -> Result<Vec<Value>, ApiError> {
    Ok(permission::filter_routes(&served(ctx).await?, principal))
}

/// The tree as this server offers it: the demo pages only while they are on.
pub fn in_service(ctx: &AppCtx, tree: Vec<Value>) -> Vec<Value> {
    if ctx.config.demo_pages {
        tree
    } else {
        without_demo(&tree)
    }
}

/// Whether a page component is one of the template's demo pages (the
/// component keys of the spec's demo route tree: `vab/...`, `other/...`,
/// `mall/...`, `error/...`, the dashboard and workbench demos). Told by
/// the component, so a demo page moved elsewhere in the menu stays a demo.
pub fn is_demo_component(component: &str) -> bool {
    ["vab/", "other/", "mall/", "error/"].iter().any(|p| component.starts_with(p)) || matches!(component, "index/dashboard" | "index/workbench")
}

/// The tree without the demo pages; a section left with no page (the
/// components, other, mall and error page sections) goes too, with an external link
/// it held.
pub fn without_demo(tree: &[Value]) -> Vec<Value> {
    tree.iter()
        .filter_map(|node| {
            if node.get("component").and_then(Value::as_str).is_some_and(is_demo_component) {
                return None;
            }
            let Some(children) = node.get("children").and_then(Value::as_array).filter(|c| !c.is_empty()) else {
                return Some(node.clone());
            };
            let kept = without_demo(children);
            let pages = kept.iter().any(|c| c.get("component").and_then(Value::as_str).is_some_and(|c| c != LAYOUT) || c.get("children").and_then(Value::as_array).is_some_and(|c| !c.is_empty()));
            if !pages {
                return None;
            }
            let mut node = node.clone();
            node["children"] = Value::Array(kept);
            Some(node)
        })
        .collect()
}

const LAYOUT: &str = "Layout";

/// A page of the menu the caller may not open, and what it needs: the
/// SPA shows 403 (saying this) instead of 404 for it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForbiddenPage {
    /// The page's full path, e.g. `/setting/userManagement`.
    pub path: String,
    /// Its menu title (a key of the SPA's menu titles, zh).
    pub title: String,
    /// What its guard asks for, in English and in Chinese.
    pub needs_en: String,
    pub needs_zh: String,
}

/// The pages of `tree` (the server's, demo pages already dropped when off)
/// whose guard, or an ancestor's, refuses `principal`.
pub fn forbidden_pages(tree: &[Value], principal: &Principal) -> Vec<ForbiddenPage> {
    fn leaves(nodes: &[Value], parent: &str, needs: &envelope::Text, out: &mut Vec<ForbiddenPage>) {
        for n in nodes {
            let path = full_path(parent, n);
            match n.get("children").and_then(Value::as_array).filter(|c| !c.is_empty()) {
                Some(children) => leaves(children, &path, needs, out),
                None if !is_external(&path) && !path.contains(':') && path != "*" => out.push(ForbiddenPage {
                    title: n.get("meta").and_then(|m| m.get("title")).and_then(Value::as_str).unwrap_or_default().to_string(),
                    path,
                    needs_en: needs.en.clone(),
                    needs_zh: needs.zh.clone(),
                }),
                None => {}
            }
        }
    }
    fn walk(nodes: &[Value], parent: &str, principal: &Principal, out: &mut Vec<ForbiddenPage>) {
        for n in nodes {
            let path = full_path(parent, n);
            let Ok(guard) = permission::route_guard(n) else { continue };
            if !permission::can(principal, guard.as_ref()) {
                let needs = guard.as_ref().map_or_else(|| envelope::Text::same(""), crate::messages::permission::guard);
                leaves(std::slice::from_ref(n), parent, &needs, out);
            } else if let Some(children) = n.get("children").and_then(Value::as_array) {
                walk(children, &path, principal, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(tree, "", principal, &mut out);
    out
}

/// A node's full path under `parent` (external and absolute paths stand alone).
fn full_path(parent: &str, node: &Value) -> String {
    let path = node.get("path").and_then(Value::as_str).unwrap_or_default();
    if is_external(path) || path.starts_with('/') {
        path.to_string()
    } else if parent.ends_with('/') {
        format!("{parent}{path}")
    } else {
        format!("{parent}/{path}")
    }
}

/// The publishers' notice page (publish, edit, withdraw), a menu entry for
/// those who may publish (write:system) besides the bell's button.
pub const NOTICE_PATH: &str = "/notice";

fn path_of(route: &Value) -> &str {
    route.get("path").and_then(Value::as_str).unwrap_or_default()
}

/// The stored tree with the entries every tree of the product has: the
/// notice page (after finance), as the seed tree declares it, for stores
/// seeded before it existed. A tree that has it (moved, retitled or guarded
/// otherwise by an Admin) is served as it is.
pub fn with_product_entries(mut stored: Vec<Value>) -> Vec<Value> {
    with_security_events(&mut stored);
    if stored.iter().any(|r| path_of(r) == NOTICE_PATH) {
        return stored;
    }
    let Some(entry) = seed_tree().into_iter().find(|r| path_of(r) == NOTICE_PATH) else {
        return stored;
    };
    let at = stored.iter().position(|r| path_of(r) == "/money").map_or(stored.len(), |i| i + 1);
    stored.insert(at, entry);
    stored
}

/// The fleet's security events page, under the charger link's menu
/// (`/connector`, after the charging cards), as the seed tree declares it.
pub const SECURITY_EVENTS_PATH: &str = "securityEvents";

/// Adds the security events page to a stored tree seeded before it (a
/// tree without `/connector`, or whose `/connector` has it, is unchanged).
fn with_security_events(stored: &mut [Value]) {
    let Some(entry) = seed_tree().into_iter().find(|r| path_of(r) == "/connector").and_then(|c| {
        c.get("children").and_then(Value::as_array).and_then(|k| k.iter().find(|r| path_of(r) == SECURITY_EVENTS_PATH).cloned())
    }) else {
        return;
    };
    let Some(children) = stored.iter_mut().find(|r| path_of(r) == "/connector").and_then(|c| c.get_mut("children")).and_then(Value::as_array_mut) else { return };
    if children.iter().any(|r| path_of(r) == SECURITY_EVENTS_PATH) {
        return;
    }
    let at = children.iter().position(|r| path_of(r) == "cards").map_or(children.len(), |i| i + 1);
    children.insert(at, entry);
}

/// Where every signed-in user finds their own personal center. The spec's
/// tree puts it at `/setting/personalCenter`, under the Admin-only
/// `/setting`; everyone else reaches the same page here, a hidden route
/// (no menu entry: the avatar menu links to it).
pub const SELF_SERVICE_PATH: &str = "/user/personalCenter";

/// The personal center's route for every signed-in user. It is part of the
/// product, not of the editable menu: added to the tree served (so stores
/// seeded before it, and menu edits, cannot lose it), never stored.
pub fn self_service_route() -> Value {
    serde_json::from_str(SELF_SERVICE_JSON).expect("data/self-service-route.json is a JSON object (checked by a test)")
}

/// The self-service route as data (its title is a menu title the SPA's
/// menu dictionary translates, like the seeded tree's).
const SELF_SERVICE_JSON: &str = include_str!("../../data/self-service-route.json");

/// The tree a caller gets: what their roles may see of the stored tree,
/// plus the self-service route (unless the stored tree already has `/user`).
pub fn with_self_service(mut visible: Vec<Value>) -> Vec<Value> {
    if !visible.iter().any(|r| r.get("path").and_then(Value::as_str) == Some("/user")) {
        visible.push(self_service_route());
    }
    visible
}

/// The record that holds a tree.
pub fn tree_item(routes: Vec<Value>, version: i64, now: i64) -> store::Item {
    let key = keys::menu_tree();
    let mut item = store::Item::new();
    item.insert(store::PK.into(), key.pk.into());
    item.insert(store::SK.into(), key.sk.into());
    item.insert("routes".into(), Value::Array(routes));
    item.insert(store::VERSION.into(), version.into());
    item.insert("updatedAt".into(), now.into());
    item
}

/// Every (title, full path) of the visible, non-hidden, internal routes,
/// for the header search.
pub fn searchable_entries(routes: &[Value]) -> Vec<(String, String)> {
    fn walk(routes: &[Value], parent: &str, out: &mut Vec<(String, String)>) {
        for r in routes {
            let path = r.get("path").and_then(Value::as_str).unwrap_or_default();
            let meta = r.get("meta");
            let hidden = meta.and_then(|m| m.get("hidden")).and_then(Value::as_bool).unwrap_or(false);
            let external = is_external(path);
            // Dynamic segments (`:id`) have no single page to open.
            if hidden || path == "*" || (!external && path.contains(':')) {
                continue;
            }
            let full = if external || path.starts_with('/') {
                path.to_string()
            } else if parent.ends_with('/') {
                format!("{parent}{path}")
            } else {
                format!("{parent}/{path}")
            };
            let children = r.get("children").and_then(Value::as_array);
            match children {
                Some(children) if !children.is_empty() => walk(children, &full, out),
                _ => {
                    if let Some(title) = meta.and_then(|m| m.get("title")).and_then(Value::as_str) {
                        out.push((title.to_string(), full));
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(routes, "", &mut out);
    out
}

/// External links start with http(s):, mailto:, tel: or //.
pub fn is_external(path: &str) -> bool {
    ["http:", "https:", "mailto:", "tel:", "//"].iter().any(|p| path.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shipped_tree_parses_and_holds_the_charging_pages() {
        let tree = seed_tree();
        let paths: Vec<String> = searchable_entries(&tree).into_iter().map(|(_, p)| p).collect();
        for page in ["/order/orderindex", "/connector/station", "/connector/connectors", "/money/moneyIndex"] {
            assert!(paths.iter().any(|p| p == page), "{page} missing from {paths:?}");
        }
    }

    #[test]
    fn the_security_events_page_is_in_every_tree_once_after_the_cards_for_every_role() {
        let mut older = seed_tree();
        let connector = older.iter_mut().find(|r| path_of(r) == "/connector").expect("the charger menu");
        connector["children"].as_array_mut().unwrap().retain(|r| path_of(r) != SECURITY_EVENTS_PATH);
        let served = with_product_entries(older);
        let children = |tree: &[Value]| -> Vec<String> {
            tree.iter().find(|r| path_of(r) == "/connector").unwrap()["children"].as_array().unwrap().iter().map(|r| path_of(r).to_string()).collect()
        };
        let paths = children(&served);
        let at = paths.iter().position(|p| p == SECURITY_EVENTS_PATH).expect("added to a tree seeded before it");
        assert_eq!(paths[at - 1], "cards");
        assert_eq!(children(&with_product_entries(served.clone())), paths, "not added twice");
        assert_eq!(children(&with_product_entries(seed_tree())), children(&seed_tree()), "the seed tree has it");
        let reader = Principal { username: "te".into(), roles: vec!["Test".into()], permissions: vec![permission::SYSTEM_READ.into()] };
        let entries: Vec<String> = searchable_entries(&permission::filter_routes(&served, &reader)).into_iter().map(|(_, p)| p).collect();
        assert!(entries.contains(&"/connector/securityEvents".to_string()), "{entries:?}");
    }

    #[test]
    fn the_notice_page_is_in_every_tree_once_after_finance_for_publishers() {
        let older: Vec<Value> = seed_tree().into_iter().filter(|r| path_of(r) != NOTICE_PATH).collect();
        let served = with_product_entries(older);
        let paths: Vec<&str> = served.iter().map(path_of).collect();
        let at = paths.iter().position(|p| *p == NOTICE_PATH).expect("added to a tree seeded before it");
        assert_eq!(paths[at - 1], "/money");
        assert_eq!(with_product_entries(served.clone()).len(), served.len(), "not added twice");
        assert_eq!(with_product_entries(seed_tree()).len(), seed_tree().len(), "the seed tree has it");
        let publisher = Principal { username: "ed".into(), roles: vec!["Editor".into()], permissions: vec![permission::SYSTEM_READ.into(), permission::SYSTEM_WRITE.into()] };
        let reader = Principal { username: "te".into(), roles: vec!["Test".into()], permissions: vec![permission::SYSTEM_READ.into()] };
        let entries = |p: &Principal| searchable_entries(&permission::filter_routes(&served, p)).into_iter().map(|(_, path)| path).collect::<Vec<_>>();
        assert!(entries(&publisher).contains(&"/notice/manage".to_string()), "{:?}", entries(&publisher));
        assert!(!entries(&reader).iter().any(|p| p.starts_with(NOTICE_PATH)), "readers do not publish");
    }

    #[test]
    fn the_self_service_route_is_added_once_and_hidden() {
        assert_eq!(self_service_route()["redirect"], SELF_SERVICE_PATH, "the data file and the path agree");
        let tree = with_self_service(seed_tree());
        assert_eq!(tree.iter().filter(|r| r["path"] == "/user").count(), 1);
        assert_eq!(with_self_service(tree.clone()).len(), tree.len(), "not added twice");
        let paths: Vec<String> = searchable_entries(&tree).into_iter().map(|(_, p)| p).collect();
        assert!(!paths.iter().any(|p| p == SELF_SERVICE_PATH), "hidden: not in the menu or the search");
    }

    #[test]
    fn without_the_demo_pages_only_the_product_stays() {
        let tree = without_demo(&seed_tree());
        let top: Vec<&str> = tree.iter().map(|r| r["path"].as_str().unwrap()).collect();
        assert_eq!(top, ["/", "/order", "/connector", "/money", "/notice", "/setting"]);
        let root: Vec<&str> = tree[0]["children"].as_array().unwrap().iter().map(|r| r["path"].as_str().unwrap()).collect();
        assert_eq!(root, ["index"], "the dashboard and workbench demos go");
        let paths: Vec<String> = searchable_entries(&tree).into_iter().map(|(_, p)| p).collect();
        assert!(paths.iter().all(|p| !p.starts_with("/vab") && !p.starts_with("/other") && !p.starts_with("/mall") && !p.starts_with("/error") && !p.starts_with("http")), "{paths:?}");
    }

    #[test]
    fn an_editor_is_told_what_user_management_needs() {
        let editor = Principal::new("e", ["Editor"], permission::default_role_permissions);
        let pages = forbidden_pages(&without_demo(&seed_tree()), &editor);
        let users = pages.iter().find(|p| p.path == "/setting/userManagement").expect("forbidden, not unknown");
        assert_eq!((users.title.as_str(), users.needs_zh.as_str()), ("用户管理", "角色 Admin"));
        assert!(!pages.iter().any(|p| p.path == "/order/orderindex"), "what an editor may open is not listed");
        let admin = Principal::new("a", ["Admin"], permission::default_role_permissions);
        assert!(forbidden_pages(&seed_tree(), &admin).is_empty());
    }

    #[test]
    fn search_entries_resolve_relative_paths_and_skip_hidden() {
        let tree = vec![json!({"path": "/order", "component": "Layout", "meta": {"title": "订单"}, "children": [
            {"path": "orderindex", "meta": {"title": "订单列表"}},
            {"path": "detail", "meta": {"title": "订单详情", "hidden": true}},
            {"path": "https://example.com", "meta": {"title": "外链"}}
        ]})];
        assert_eq!(
            searchable_entries(&tree),
            vec![("订单列表".to_string(), "/order/orderindex".to_string()), ("外链".into(), "https://example.com".into())]
        );
    }
}
