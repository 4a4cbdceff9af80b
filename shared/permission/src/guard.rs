//! Guards and the permission check (an admin always passes; role and
//! permission parts combine with AND).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::roles::Principal;

/// A route or endpoint guard.
///
/// JSON forms:
/// - a list of names, e.g. `["Admin"]`: passes if any listed name is among
///   the user's roles plus permissions (an empty list passes only admins);
/// - an object `{ "role": [...], "permission": [...], "mode": "oneOf" }`
///   (see [`GuardSpec`]); `role` and `permission` also accept one string.
///
/// A bare string or any other shape is not a guard (and denies when met in
/// a route, see [`crate::filter_routes`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Guard {
    List(Vec<String>),
    Spec(GuardSpec),
}

/// The object form of a guard. The role check and the permission check
/// are each evaluated by [`Mode`] and combine with AND; an empty list imposes
/// no constraint for its part. Unknown fields are rejected (a typo such as
/// `roles` must not silently open a route).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuardSpec {
    #[serde(default, deserialize_with = "one_or_many")]
    pub role: Vec<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub permission: Vec<String>,
    #[serde(default)]
    pub mode: Mode,
}

/// How the names listed in a [`GuardSpec`] part are matched.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Mode {
    /// Any listed name is held (the default).
    #[default]
    OneOf,
    /// Every listed name is held.
    AllOf,
    /// None of the listed names is held ("everyone except").
    Except,
}

impl Mode {
    /// Evaluates one part of a [`GuardSpec`]; an empty `listed` passes.
    fn check(self, listed: &[String], held: &[String]) -> bool {
        if listed.is_empty() {
            return true;
        }
        let holds = |name: &String| held.contains(name);
        match self {
            Mode::OneOf => listed.iter().any(holds),
            Mode::AllOf => listed.iter().all(holds),
            Mode::Except => !listed.iter().any(holds),
        }
    }

    fn parse(s: &str) -> Option<Self> {
        match s {
            "oneOf" => Some(Mode::OneOf),
            "allOf" => Some(Mode::AllOf),
            "except" => Some(Mode::Except),
            _ => None,
        }
    }
}

fn one_or_many<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

/// Whether `p` passes `guard`:
/// no guard passes; an admin always passes; a list passes if any listed name
/// is among the roles plus permissions; an object passes if both its role
/// part and its permission part pass under its mode.
pub fn can(p: &Principal, guard: Option<&Guard>) -> bool {
    let Some(guard) = guard else {
        return true;
    };
    if p.is_admin() {
        return true;
    }
    match guard {
        Guard::List(names) => names
            .iter()
            .any(|n| p.roles.contains(n) || p.permissions.contains(n)),
        Guard::Spec(spec) => {
            spec.mode.check(&spec.role, &p.roles)
                && spec.mode.check(&spec.permission, &p.permissions)
        }
    }
}

/// Parses a guard from JSON with a clear error message (for menu/route
/// validation). Accepts exactly what `Guard`'s `Deserialize` accepts.
pub fn parse_guard(v: &Value) -> Result<Guard, String> {
    match v {
        Value::Array(items) => string_list(items, "guard").map(Guard::List),
        Value::Object(map) => {
            let mut spec = GuardSpec::default();
            for (key, value) in map {
                match key.as_str() {
                    "role" => spec.role = one_or_many_value(value, "guard.role")?,
                    "permission" => {
                        spec.permission = one_or_many_value(value, "guard.permission")?
                    }
                    "mode" => {
                        spec.mode = value.as_str().and_then(Mode::parse).ok_or_else(|| {
                            format!(
                                "guard.mode must be one of \"oneOf\", \"allOf\", \"except\", got {}",
                                describe(value)
                            )
                        })?
                    }
                    other => {
                        return Err(format!(
                            "unknown guard field \"{other}\" (expected role, permission, mode)"
                        ))
                    }
                }
            }
            Ok(Guard::Spec(spec))
        }
        other => Err(format!(
            "guard must be a list of role/permission names or an object {{role, permission, mode}}, got {}",
            describe(other)
        )),
    }
}

fn one_or_many_value(v: &Value, what: &str) -> Result<Vec<String>, String> {
    match v {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) => string_list(items, what),
        other => Err(format!(
            "{what} must be a string or a list of strings, got {}",
            describe(other)
        )),
    }
}

fn string_list(items: &[Value], what: &str) -> Result<Vec<String>, String> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.clone()),
            other => Err(format!(
                "{what}[{i}] must be a string, got {}",
                describe(other)
            )),
        })
        .collect()
}

fn describe(v: &Value) -> String {
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    };
    let mut text = v.to_string();
    if text.chars().count() > 40 {
        text = text.chars().take(40).collect::<String>() + "…";
    }
    format!("{kind} ({text})")
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
            "tester" => &["Test"],
            "nobody" => &[],
            _ => unreachable!(),
        };
        Principal::new(name, roles.iter().copied(), default_role_permissions)
    }

    fn guard(v: Value) -> Guard {
        parse_guard(&v).unwrap_or_else(|e| panic!("{v}: {e}"))
    }

    #[test]
    fn demo_users_against_spec_guards() {
        // (guard JSON, [admin, editor, test, tester(Test role), nobody])
        let table: Vec<(Value, [bool; 5])> = vec![
            // table section: everyone except Editor
            (
                json!({"role": ["Editor"], "mode": "except"}),
                [true, false, true, true, true],
            ),
            // Admin only
            (json!(["Admin"]), [true, false, true, false, false]),
            // external link: Admin or Editor
            (
                json!({"role": ["Admin", "Editor"], "mode": "oneOf"}),
                [true, true, true, false, false],
            ),
            // list matches permissions too
            (json!(["read:system"]), [true, true, true, true, false]),
            (json!(["write:system"]), [true, true, true, false, false]),
            (json!(["delete:system"]), [true, false, true, false, false]),
            (
                json!(["delete:system", "Editor"]),
                [true, true, true, false, false],
            ),
            // role names are case-sensitive
            (json!(["editor"]), [true, false, true, false, false]),
            // empty list: nothing listed is held -> admins only
            (json!([]), [true, false, true, false, false]),
            // empty object: no constraint
            (json!({}), [true, true, true, true, true]),
            (json!({"mode": "allOf"}), [true, true, true, true, true]),
            (json!({"mode": "except"}), [true, true, true, true, true]),
            // oneOf is the default mode
            (
                json!({"role": ["Editor", "Test"]}),
                [true, true, true, true, false],
            ),
            (json!({"role": "Editor"}), [true, true, true, false, false]),
            // allOf
            (
                json!({"role": ["Editor", "Test"], "mode": "allOf"}),
                [true, false, true, false, false],
            ),
            (
                json!({"permission": ["read:system", "write:system"], "mode": "allOf"}),
                [true, true, true, false, false],
            ),
            // except on permissions
            (
                json!({"permission": "delete:system", "mode": "except"}),
                [true, true, true, true, true],
            ),
            (
                json!({"permission": ["write:system"], "mode": "except"}),
                [true, false, true, true, true],
            ),
            // role AND permission
            (
                json!({"role": ["Editor"], "permission": ["delete:system"]}),
                [true, false, true, false, false],
            ),
            (
                json!({"role": ["Editor", "Test"], "permission": ["read:system"]}),
                [true, true, true, true, false],
            ),
            (
                json!({"role": ["Test"], "permission": ["write:system"]}),
                [true, false, true, false, false],
            ),
            (
                json!({"role": "Editor", "permission": "delete:system", "mode": "except"}),
                [true, false, true, true, true],
            ),
            (
                json!({"role": ["Test"], "permission": ["read:system", "write:system"], "mode": "allOf"}),
                [true, false, true, false, false],
            ),
            // a role name in the permission part of a spec does not match roles
            (
                json!({"permission": ["Editor"]}),
                [true, false, true, false, false],
            ),
            // admin always passes, even "except Admin"
            (
                json!({"role": ["Admin"], "mode": "except"}),
                [true, true, true, true, true],
            ),
        ];
        let users = ["admin", "editor", "test", "tester", "nobody"];
        for (g, expected) in &table {
            let parsed = guard(g.clone());
            for (name, want) in users.iter().zip(expected) {
                assert_eq!(
                    can(&user(name), Some(&parsed)),
                    *want,
                    "user {name}, guard {g}"
                );
            }
        }
    }

    #[test]
    fn no_guard_allows_everyone() {
        for name in ["admin", "editor", "test", "tester", "nobody"] {
            assert!(can(&user(name), None), "{name}");
        }
    }

    #[test]
    fn spec_with_both_parts_and_modes_directly() {
        let p = user("editor");
        let spec = |role: &[&str], permission: &[&str], mode| {
            Guard::Spec(GuardSpec {
                role: role.iter().map(|s| s.to_string()).collect(),
                permission: permission.iter().map(|s| s.to_string()).collect(),
                mode,
            })
        };
        assert!(can(
            &p,
            Some(&spec(&["Editor"], &["write:system"], Mode::OneOf))
        ));
        assert!(!can(
            &p,
            Some(&spec(&["Editor"], &["delete:system"], Mode::OneOf))
        ));
        assert!(!can(
            &p,
            Some(&spec(&["Admin"], &["write:system"], Mode::OneOf))
        ));
        assert!(can(
            &p,
            Some(&spec(
                &["Editor"],
                &["read:system", "write:system"],
                Mode::AllOf
            ))
        ));
        assert!(!can(
            &p,
            Some(&spec(&["Editor", "Admin"], &["read:system"], Mode::AllOf))
        ));
        assert!(can(
            &p,
            Some(&spec(&["Admin"], &["delete:system"], Mode::Except))
        ));
        assert!(!can(
            &p,
            Some(&spec(&["Admin"], &["read:system"], Mode::Except))
        ));
    }

    #[test]
    fn serde_forms() {
        let cases = [
            (json!(["Admin"]), Guard::List(vec!["Admin".into()])),
            (
                json!({"role": "Admin"}),
                Guard::Spec(GuardSpec {
                    role: vec!["Admin".into()],
                    ..Default::default()
                }),
            ),
            (
                json!({"permission": "read:system", "mode": "allOf"}),
                Guard::Spec(GuardSpec {
                    permission: vec!["read:system".into()],
                    mode: Mode::AllOf,
                    ..Default::default()
                }),
            ),
            (
                json!({"role": ["Editor"], "mode": "except"}),
                Guard::Spec(GuardSpec {
                    role: vec!["Editor".into()],
                    mode: Mode::Except,
                    ..Default::default()
                }),
            ),
        ];
        for (v, expected) in cases {
            let via_serde: Guard = serde_json::from_value(v.clone()).unwrap();
            assert_eq!(via_serde, expected, "{v}");
            assert_eq!(parse_guard(&v).unwrap(), expected, "{v}");
            // serialises back to a form that parses to the same guard
            let out = serde_json::to_value(&expected).unwrap();
            assert_eq!(parse_guard(&out).unwrap(), expected);
        }
        assert_eq!(serde_json::to_value(Mode::OneOf).unwrap(), json!("oneOf"));
        assert_eq!(serde_json::to_value(Mode::AllOf).unwrap(), json!("allOf"));
        assert_eq!(serde_json::to_value(Mode::Except).unwrap(), json!("except"));
        assert_eq!(
            serde_json::to_value(guard(json!({"role": "Editor", "mode": "except"}))).unwrap(),
            json!({"role": ["Editor"], "permission": [], "mode": "except"})
        );
    }

    #[test]
    fn malformed_guards_are_rejected_with_clear_messages() {
        let cases = [
            (json!("Admin"), "guard must be a list"),
            (json!(null), "got null"),
            (json!(1), "got a number"),
            (json!(true), "got a boolean"),
            (json!(["Admin", 1]), "guard[1] must be a string"),
            (json!([null]), "guard[0] must be a string"),
            (json!({"roles": ["Admin"]}), "unknown guard field \"roles\""),
            (
                json!({"role": ["Admin"], "mode": "oneof"}),
                "guard.mode must be one of",
            ),
            (json!({"mode": 1}), "guard.mode must be one of"),
            (json!({"role": 5}), "guard.role must be a string or a list"),
            (
                json!({"role": null}),
                "guard.role must be a string or a list",
            ),
            (
                json!({"permission": [true]}),
                "guard.permission[0] must be a string",
            ),
            (json!({"permission": {"a": 1}}), "guard.permission must be"),
        ];
        for (v, needle) in cases {
            let err = parse_guard(&v).expect_err(&v.to_string());
            assert!(
                err.contains(needle),
                "{v}: {err:?} should contain {needle:?}"
            );
            // serde agrees that these are not guards
            assert!(
                serde_json::from_value::<Guard>(v.clone()).is_err(),
                "serde accepted {v}"
            );
        }
    }

    #[test]
    fn long_values_are_truncated_in_messages() {
        let v = json!("x".repeat(500));
        let err = parse_guard(&v).unwrap_err();
        assert!(err.len() < 200, "{err}");
    }
}
