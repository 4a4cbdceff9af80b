//! Roles, permissions, route guards and route-tree filtering.
//!
//! Pure logic, no I/O:
//! - [`Principal`]: a user's roles and the de-duplicated union of their
//!   roles' permissions; [`Principal::is_admin`] is the "full access" flag.
//! - [`Guard`]: a route/endpoint guard, either a list of role/permission names
//!   or a `{role, permission, mode}` object; [`can`] evaluates it.
//! - [`filter_routes`]: drops every route (and its subtree) whose
//!   `meta.guard` denies the principal. Malformed guards deny (fail closed).
//! - [`SEEDED_ROLES`] / [`default_role_permissions`]: the seeded roles and
//!   their permissions (source of truth for the seed).

mod guard;
mod roles;
mod routes;

pub use guard::{can, parse_guard, Guard, GuardSpec, Mode};
pub use roles::{
    default_role_permissions, Principal, ADMIN_ROLE, CHARGER_CONFIGURE, ALL_PERMISSIONS, EDITOR_ROLE, REFUND_APPROVE, SEEDED_ROLES, SETTINGS_MANAGE, SYSTEM_DELETE,
    SYSTEM_READ, SYSTEM_WRITE, TEST_ROLE,
};
pub use routes::{filter_routes, route_guard};
