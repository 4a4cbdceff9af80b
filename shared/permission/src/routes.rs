//! Route-tree filtering by guard: a route the user may not pass is dropped
//! with its subtree.

use serde_json::{Map, Value};

use crate::guard::{can, parse_guard, Guard};
use crate::roles::Principal;

/// The guard of one route object (`meta.guard`).
///
/// `Ok(None)` when the route has no guard (no `meta`, `meta` null, no
/// `meta.guard` or `meta.guard` null). `Err` when the route is not an object,
/// `meta` is not an object or the guard is malformed.
pub fn route_guard(route: &Value) -> Result<Option<Guard>, String> {
    let obj = route
        .as_object()
        .ok_or_else(|| "route must be an object".to_owned())?;
    match obj.get("meta") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(meta)) => match meta.get("guard") {
            None | Some(Value::Null) => Ok(None),
            Some(g) => parse_guard(g).map(Some),
        },
        Some(_) => Err("route meta must be an object".to_owned()),
    }
}

/// Keeps the routes `p` may see, recursively.
///
/// A route whose `meta.guard` denies is dropped with its whole subtree.
/// Fails closed, never panics: a route that is not an object, has a malformed
/// `meta`/guard, or has a `children` that is neither a list nor null is
/// dropped. A kept parent whose children were all dropped keeps an empty
/// `children` list. All other fields are kept unchanged.
pub fn filter_routes(routes: &[Value], p: &Principal) -> Vec<Value> {
    routes.iter().filter_map(|r| filter_route(r, p)).collect()
}

fn filter_route(route: &Value, p: &Principal) -> Option<Value> {
    let guard = route_guard(route).ok()?;
    if !can(p, guard.as_ref()) {
        return None;
    }
    let obj = route.as_object()?;
    let mut out = Map::with_capacity(obj.len());
    for (key, value) in obj {
        if key == "children" {
            match value {
                Value::Array(children) => {
                    out.insert(key.clone(), Value::Array(filter_routes(children, p)));
                }
                Value::Null => {
                    out.insert(key.clone(), Value::Null);
                }
                _ => return None,
            }
        } else {
            out.insert(key.clone(), value.clone());
        }
    }
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roles::default_role_permissions;
    use serde_json::json;

    fn user(name: &str) -> Principal {
        let roles: &[&str] = match name {
            "admin" => &["Admin"],
            "editor" => &["Editor"],
            "test" => &["Admin", "Editor"],
            _ => &[],
        };
        Principal::new(name, roles.iter().copied(), default_role_permissions)
    }

    /// A cut-down copy of the template's demo route tree.
    fn demo_routes() -> Vec<Value> {
        let v = json!([
            {"path": "/", "name": "Root", "component": "Layout", "redirect": "/index",
             "meta": {"title": "首页", "icon": "home-2-line"},
             "children": [
                {"path": "index", "name": "Index", "component": "@/views/index",
                 "meta": {"title": "首页", "icon": "home-2-line", "noClosable": true}}
             ]},
            {"path": "/vab", "name": "Vab", "component": "Layout",
             "meta": {"title": "组件", "icon": "code-box-line"},
             "children": [
                {"path": "table", "name": "Table", "component": "@/views/vab/table",
                 "meta": {"title": "表格", "guard": {"role": ["Editor"], "mode": "except"}},
                 "children": [
                    {"path": "comprehensiveTable", "name": "ComprehensiveTable",
                     "component": "@/views/vab/table/comprehensiveTable",
                     "meta": {"title": "综合表格"}}
                 ]},
                {"path": "card", "name": "Card", "component": "@/views/vab/card",
                 "meta": {"title": "卡片"}},
                {"path": "list", "name": "List", "component": "@/views/vab/list",
                 "meta": {"title": "列表", "guard": ["Admin"]}},
                {"path": "https://example.com", "name": "ExternalLink",
                 "meta": {"title": "外链", "target": "_blank",
                          "guard": {"role": ["Admin", "Editor"], "mode": "oneOf"}}}
             ]},
            {"path": "/other", "name": "Other", "component": "Layout",
             "meta": {"title": "其他", "guard": ["Admin"]},
             "children": [
                {"path": "workflow", "name": "Workflow", "meta": {"title": "工作流"}},
                {"path": "//vab.example", "name": "OtherLink",
                 "meta": {"title": "外链", "guard": {"role": ["Admin", "Editor"], "mode": "oneOf"}}}
             ]},
            {"path": "/mall", "name": "Mall", "component": "Layout",
             "meta": {"title": "商城", "guard": ["Admin"], "badge": "Hot"},
             "children": [
                {"path": "goods", "name": "Goods", "meta": {"title": "商品列表"}}
             ]},
            {"path": "/setting", "name": "Setting", "component": "Layout",
             "meta": {"title": "配置", "guard": ["Admin"]},
             "children": [
                {"path": "userManagement", "name": "UserManagement", "meta": {"title": "用户管理"}}
             ]},
            {"path": "/error", "name": "Error", "component": "Layout",
             "meta": {"title": "错误页", "hidden": true},
             "children": [
                {"path": "403", "name": "Error403", "meta": {"title": "403"}},
                {"path": "404", "name": "Error404", "meta": {"title": "404"}}
             ]},
            {"path": "/*", "redirect": "/404", "meta": {"hidden": true}}
        ]);
        v.as_array().unwrap().clone()
    }

    /// Collects route names depth-first ("Parent/Child").
    fn names(routes: &[Value]) -> Vec<String> {
        fn walk(routes: &[Value], prefix: &str, out: &mut Vec<String>) {
            for r in routes {
                let name = r.get("name").and_then(Value::as_str).unwrap_or("?");
                let full = if prefix.is_empty() {
                    name.to_owned()
                } else {
                    format!("{prefix}/{name}")
                };
                out.push(full.clone());
                if let Some(children) = r.get("children").and_then(Value::as_array) {
                    walk(children, &full, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(routes, "", &mut out);
        out
    }

    #[test]
    fn editor_loses_table_and_admin_only_sections_but_keeps_external_link() {
        let filtered = filter_routes(&demo_routes(), &user("editor"));
        assert_eq!(
            names(&filtered),
            vec![
                "Root",
                "Root/Index",
                "Vab",
                "Vab/Card",
                "Vab/ExternalLink",
                "Error",
                "Error/Error403",
                "Error/Error404",
                "?",
            ]
        );
    }

    #[test]
    fn admin_and_test_see_everything() {
        let all = names(&demo_routes());
        for name in ["admin", "test"] {
            let filtered = filter_routes(&demo_routes(), &user(name));
            assert_eq!(names(&filtered), all, "{name}");
            assert_eq!(
                filtered,
                demo_routes(),
                "{name}: routes otherwise unchanged"
            );
        }
    }

    #[test]
    fn user_without_roles_sees_only_unguarded_and_except_routes() {
        let filtered = filter_routes(&demo_routes(), &user("nobody"));
        assert_eq!(
            names(&filtered),
            vec![
                "Root",
                "Root/Index",
                "Vab",
                "Vab/Table",
                "Vab/Table/ComprehensiveTable",
                "Vab/Card",
                "Error",
                "Error/Error403",
                "Error/Error404",
                "?",
            ]
        );
    }

    #[test]
    fn other_fields_are_preserved() {
        let filtered = filter_routes(&demo_routes(), &user("editor"));
        let vab = &filtered[1];
        assert_eq!(vab["component"], "Layout");
        assert_eq!(
            vab["meta"],
            json!({"title": "组件", "icon": "code-box-line"})
        );
        let link = &vab["children"][1];
        assert_eq!(link["meta"]["target"], "_blank");
        assert_eq!(filtered[0]["redirect"], "/index");
    }

    #[test]
    fn malformed_guards_and_routes_deny_without_panicking() {
        let routes = json!([
            {"name": "BadGuardString", "meta": {"guard": "Admin"}},
            {"name": "BadGuardTypo", "meta": {"guard": {"roles": ["Admin"]}}},
            {"name": "BadGuardMode", "meta": {"guard": {"role": ["Admin"], "mode": "any"}}},
            {"name": "BadGuardItem", "meta": {"guard": ["Admin", 3]}},
            {"name": "BadMeta", "meta": "hidden"},
            {"name": "BadChildren", "children": {"name": "x"}},
            "not a route",
            42,
            null,
            {"name": "NullGuard", "meta": {"guard": null}},
            {"name": "NullMeta", "meta": null},
            {"name": "NullChildren", "children": null},
            {"name": "Parent", "children": [
                {"name": "BadChild", "meta": {"guard": 1}},
                {"name": "GoodChild"}
            ]}
        ]);
        let routes = routes.as_array().unwrap();
        for name in ["admin", "editor", "test", "nobody"] {
            let filtered = filter_routes(routes, &user(name));
            assert_eq!(
                names(&filtered),
                vec![
                    "NullGuard",
                    "NullMeta",
                    "NullChildren",
                    "Parent",
                    "Parent/GoodChild"
                ],
                "{name}"
            );
        }
    }

    #[test]
    fn denied_parent_drops_subtree_even_if_children_are_open() {
        let routes = json!([
            {"name": "P", "meta": {"guard": ["Admin"]}, "children": [
                {"name": "Open"},
                {"name": "ForEditor", "meta": {"guard": ["Editor"]}}
            ]}
        ]);
        let filtered = filter_routes(routes.as_array().unwrap(), &user("editor"));
        assert!(filtered.is_empty());
    }

    #[test]
    fn parent_with_all_children_denied_keeps_empty_children() {
        let routes = json!([
            {"name": "P", "children": [{"name": "A", "meta": {"guard": ["Admin"]}}]}
        ]);
        let filtered = filter_routes(routes.as_array().unwrap(), &user("editor"));
        assert_eq!(filtered, vec![json!({"name": "P", "children": []})]);
    }

    #[test]
    fn deep_nesting_is_filtered() {
        let routes = json!([
            {"name": "m1", "children": [
                {"name": "m2", "children": [
                    {"name": "m3", "children": [
                        {"name": "m4", "meta": {"guard": ["delete:system"]}},
                        {"name": "m4b", "meta": {"guard": ["write:system"]}}
                    ]}
                ]}
            ]}
        ]);
        let filtered = filter_routes(routes.as_array().unwrap(), &user("editor"));
        assert_eq!(
            names(&filtered),
            vec!["m1", "m1/m2", "m1/m2/m3", "m1/m2/m3/m4b"]
        );
    }

    #[test]
    fn route_guard_reports_errors() {
        assert_eq!(route_guard(&json!({"path": "/"})), Ok(None));
        assert_eq!(
            route_guard(&json!({"meta": {"guard": ["Admin"]}})),
            Ok(Some(Guard::List(vec!["Admin".into()])))
        );
        assert!(route_guard(&json!([]))
            .unwrap_err()
            .contains("route must be an object"));
        assert!(route_guard(&json!({"meta": 1}))
            .unwrap_err()
            .contains("meta must be an object"));
        assert!(route_guard(&json!({"meta": {"guard": "x"}}))
            .unwrap_err()
            .contains("guard must be"));
    }
}
