//! Roles, permissions and the principal (a user's permissions are the
//! de-duplicated union over their roles).

use serde::{Deserialize, Serialize};

/// The full-access role. Role names are case-sensitive (`"admin"` is not admin).
pub const ADMIN_ROLE: &str = "Admin";
/// The seeded editor role.
pub const EDITOR_ROLE: &str = "Editor";
/// The seeded read-only role.
pub const TEST_ROLE: &str = "Test";

/// Read access to the system.
pub const SYSTEM_READ: &str = "read:system";
/// Write access to the system.
pub const SYSTEM_WRITE: &str = "write:system";
/// Delete access to the system.
pub const SYSTEM_DELETE: &str = "delete:system";
/// Approving a refund of a charging order (money leaves the operator).
pub const REFUND_APPROVE: &str = "approve:refund";
/// Managing staff accounts, roles, departments, menus and reading the
/// system log (the /setting pages).
pub const SETTINGS_MANAGE: &str = "manage:settings";

/// Remote operations that change how a charger works (reset, configuration,
/// firmware, local lists, charging profiles): Admin only. Starting,
/// stopping, unlocking, availability, triggers and reservations are
/// everyday operations under write:system.
pub const CHARGER_CONFIGURE: &str = "configure:charger";

/// Every permission a role can grant, for checking role edits.
pub const ALL_PERMISSIONS: &[&str] = &[SYSTEM_READ, SYSTEM_WRITE, SYSTEM_DELETE, REFUND_APPROVE, SETTINGS_MANAGE, CHARGER_CONFIGURE];

/// The seeded roles and their permissions: the seed's source of truth.
///
/// To add business permissions, add the constant above and list it under the
/// roles that hold it; [`default_role_permissions`] follows automatically.
pub const SEEDED_ROLES: &[(&str, &[&str])] = &[
    (ADMIN_ROLE, &[SYSTEM_READ, SYSTEM_WRITE, SYSTEM_DELETE, REFUND_APPROVE, SETTINGS_MANAGE, CHARGER_CONFIGURE]),
    (EDITOR_ROLE, &[SYSTEM_READ, SYSTEM_WRITE]),
    (TEST_ROLE, &[SYSTEM_READ]),
];

/// Permissions of a seeded role (empty for an unknown role; case-sensitive).
pub fn default_role_permissions(role: &str) -> Vec<String> {
    SEEDED_ROLES
        .iter()
        .find(|(name, _)| *name == role)
        .map(|(_, perms)| perms.iter().map(|p| (*p).to_owned()).collect())
        .unwrap_or_default()
}

/// An authenticated user as seen by the permission checks
/// (the spec's access-control state: admin flag, roles, permissions).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Principal {
    pub username: String,
    pub roles: Vec<String>,
    pub permissions: Vec<String>,
}

impl Principal {
    /// Builds a principal; `permissions` is the de-duplicated union of
    /// `role_permissions(role)` over `roles`, in order of first appearance.
    /// Duplicate roles are dropped too (first appearance kept).
    pub fn new<S: Into<String>>(
        username: impl Into<String>,
        roles: impl IntoIterator<Item = S>,
        role_permissions: impl Fn(&str) -> Vec<String>,
    ) -> Self {
        let mut unique_roles: Vec<String> = Vec::new();
        for role in roles {
            push_unique(&mut unique_roles, role.into());
        }
        let mut permissions: Vec<String> = Vec::new();
        for role in &unique_roles {
            for perm in role_permissions(role) {
                push_unique(&mut permissions, perm);
            }
        }
        Self {
            username: username.into(),
            roles: unique_roles,
            permissions,
        }
    }

    /// The "full access" flag: holds the role [`ADMIN_ROLE`] (exact case).
    pub fn is_admin(&self) -> bool {
        self.has_role(ADMIN_ROLE)
    }

    /// Holds this role (exact, case-sensitive match).
    pub fn has_role(&self, role: &str) -> bool {
        self.roles.iter().any(|r| r == role)
    }

    /// Holds this permission (exact match). Note: this does not apply the
    /// admin bypass; use [`crate::can`] for guard checks.
    pub fn has_permission(&self, permission: &str) -> bool {
        self.permissions.iter().any(|p| p == permission)
    }
}

fn push_unique(list: &mut Vec<String>, item: String) {
    if !list.contains(&item) {
        list.push(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn seeded_role_permissions_follow_the_spec() {
        let cases: &[(&str, &[&str])] = &[
            ("Admin", &["read:system", "write:system", "delete:system", "approve:refund", "manage:settings", "configure:charger"]),
            ("Editor", &["read:system", "write:system"]),
            ("Test", &["read:system"]),
            ("admin", &[]),
            ("Nobody", &[]),
            ("", &[]),
        ];
        for (role, expected) in cases {
            assert_eq!(
                default_role_permissions(role),
                strings(expected),
                "role {role}"
            );
        }
    }

    #[test]
    fn permissions_are_the_deduplicated_union_in_first_appearance_order() {
        let cases: &[(&[&str], &[&str])] = &[
            (
                &["Admin"],
                &["read:system", "write:system", "delete:system", "approve:refund", "manage:settings", "configure:charger"],
            ),
            (&["Editor"], &["read:system", "write:system"]),
            (&["Test"], &["read:system"]),
            (
                &["Admin", "Editor"],
                &["read:system", "write:system", "delete:system", "approve:refund", "manage:settings", "configure:charger"],
            ),
            (
                &["Test", "Editor", "Admin"],
                &["read:system", "write:system", "delete:system", "approve:refund", "manage:settings", "configure:charger"],
            ),
            (&["Editor", "Test"], &["read:system", "write:system"]),
            (&["Unknown"], &[]),
            (&[], &[]),
        ];
        for (roles, expected) in cases {
            let p = Principal::new("u", roles.iter().copied(), default_role_permissions);
            assert_eq!(p.permissions, strings(expected), "roles {roles:?}");
        }
    }

    #[test]
    fn duplicate_roles_are_dropped_and_order_kept() {
        let p = Principal::new(
            "u",
            ["Editor", "Admin", "Editor", "Admin"],
            default_role_permissions,
        );
        assert_eq!(p.roles, strings(&["Editor", "Admin"]));
        assert_eq!(p.username, "u");
    }

    #[test]
    fn custom_role_permission_source_is_used() {
        let source = |role: &str| match role {
            "A" => strings(&["x", "y", "x"]),
            "B" => strings(&["z", "y"]),
            _ => vec![],
        };
        let p = Principal::new("u", ["A", "B"], source);
        assert_eq!(p.permissions, strings(&["x", "y", "z"]));
    }

    #[test]
    fn admin_flag_is_case_sensitive() {
        let cases: &[(&[&str], bool)] = &[
            (&["Admin"], true),
            (&["Admin", "Editor"], true),
            (&["Editor", "Admin"], true),
            (&["Editor"], false),
            (&["Test"], false),
            (&["admin"], false),
            (&["ADMIN"], false),
            (&[" Admin"], false),
            (&[], false),
        ];
        for (roles, expected) in cases {
            let p = Principal::new("u", roles.iter().copied(), default_role_permissions);
            assert_eq!(p.is_admin(), *expected, "roles {roles:?}");
        }
    }

    #[test]
    fn has_role_and_has_permission() {
        let p = Principal::new("editor", ["Editor"], default_role_permissions);
        assert!(p.has_role("Editor"));
        assert!(!p.has_role("editor"));
        assert!(p.has_permission(SYSTEM_WRITE));
        assert!(!p.has_permission(SYSTEM_DELETE));
    }

    #[test]
    fn principal_serde_roundtrip() {
        let p = Principal::new("test", ["Admin", "Editor"], default_role_permissions);
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "username": "test",
                "roles": ["Admin", "Editor"],
                "permissions": ["read:system", "write:system", "delete:system", "approve:refund", "manage:settings", "configure:charger"],
            })
        );
        let back: Principal = serde_json::from_value(json).unwrap();
        assert_eq!(back, p);
    }
}
