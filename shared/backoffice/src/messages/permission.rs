//! Permissions and guards in words: what a permission lets one do, what a
//! page's guard asks for, and the 403 of a missing permission.

use envelope::{msg, Arg, Text};
use permission::{Guard, Mode};

/// What `permission` lets its holder do; none for a name that is no permission.
pub fn permission_words(permission: &str) -> Option<Text> {
    Some(match permission {
        permission::SYSTEM_READ => msg::permission::system_read(),
        permission::SYSTEM_WRITE => msg::permission::system_write(),
        permission::SYSTEM_DELETE => msg::permission::system_delete(),
        permission::REFUND_APPROVE => msg::permission::refund_approve(),
        permission::SETTINGS_MANAGE => msg::permission::settings_manage(),
        permission::CHARGER_CONFIGURE => msg::permission::charger_configure(),
        _ => return None,
    })
}

/// The 403 message of a call whose permission the caller lacks.
pub fn missing(needed: &str) -> Text {
    msg::permission::missing(needed, permission_words(needed).unwrap_or_else(|| Text::same(needed)))
}

/// What a guard asks for, for a 403 page that says why: "the role Admin",
/// "the permission manage:settings (...)", "one of the roles: A, B".
pub fn guard(guard: &Guard) -> Text {
    let name = |n: &String| match permission_words(n) {
        Some(words) => msg::permission::needs::permission(n, words),
        None => msg::permission::needs::role(n),
    };
    let group = |names: &[String], kind: Text, mode: Mode| -> Option<Text> {
        if names.is_empty() {
            return None;
        }
        let list = Arg::names(names);
        Some(match mode {
            Mode::OneOf => msg::permission::needs::one_of(kind, list),
            Mode::AllOf => msg::permission::needs::all_of(kind, list),
            Mode::Except => msg::permission::needs::none_of(kind, list),
        })
    };
    let parts: Vec<Text> = match guard {
        Guard::List(names) if names.len() == 1 => vec![name(&names[0])],
        Guard::List(names) if names.is_empty() => vec![msg::permission::needs::role(permission::ADMIN_ROLE)],
        Guard::List(names) => group(names, msg::permission::kind::roles_or_permissions(), Mode::OneOf).into_iter().collect(),
        Guard::Spec(spec) => {
            let roles = match (spec.role.len(), spec.mode) {
                (1, Mode::OneOf | Mode::AllOf) => Some(name(&spec.role[0])),
                _ => group(&spec.role, msg::permission::kind::roles(), spec.mode),
            };
            let permissions = match (spec.permission.len(), spec.mode) {
                (1, Mode::OneOf | Mode::AllOf) => Some(name(&spec.permission[0])),
                _ => group(&spec.permission, msg::permission::kind::permissions(), spec.mode),
            };
            roles.into_iter().chain(permissions).collect()
        }
    };
    msg::permission::needs::all(Arg::List(parts, "common.separator.and"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_permission_is_described_in_both_languages() {
        for p in permission::ALL_PERMISSIONS {
            let words = permission_words(p).unwrap_or_else(|| panic!("{p} has no words"));
            assert!(words.en != *p && words.zh != *p && !words.zh.is_ascii(), "{p}");
        }
        assert_eq!(permission_words("x:y"), None);
    }

    #[test]
    fn a_guard_is_said_in_words() {
        let g = |v: serde_json::Value| permission::parse_guard(&v).unwrap();
        let t = guard(&g(serde_json::json!(["Admin"])));
        assert_eq!((t.en.as_str(), t.zh.as_str()), ("the role Admin", "角色 Admin"));
        let t = guard(&g(serde_json::json!({"permission": "manage:settings"})));
        assert!(t.en.contains("manage:settings") && t.zh.contains("管理系统设置"), "{t:?}");
        let t = guard(&g(serde_json::json!({"role": ["Editor"], "mode": "except"})));
        assert_eq!((t.en.as_str(), t.zh.as_str()), ("none of the roles: Editor", "不属于以下角色：Editor"));
        let t = guard(&g(serde_json::json!({"role": ["A", "B"], "permission": "read:system"})));
        assert_eq!(t.en, "one of the roles: A, B and the permission read:system (read the business data)");
        assert_eq!(t.zh, "以下角色之一：A、B，并且“查看业务数据”权限（read:system）");
    }
}
