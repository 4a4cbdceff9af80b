//! No escalation through the settings pages: whoever manages staff and
//! roles may hand out only what they hold themselves. Without this, a user
//! with `manage:settings` could give themselves the Admin role, write
//! `approve:refund` into their own role, or reset an Admin's password and
//! sign in as them.
//!
//! A set of roles is compared by its powers: the permissions its roles
//! grant, plus "Admin" itself for the Admin role (an Admin passes every
//! check, including ones no permission names).

use std::collections::BTreeSet;

use envelope::{msg, ApiError, Text};
use permission::{Principal, ADMIN_ROLE};

use crate::ctx::AppCtx;
use crate::domain::users::User;

/// The powers `roles` give their holder.
pub async fn powers_of_roles(ctx: &AppCtx, roles: &[String]) -> Result<BTreeSet<String>, ApiError> {
    let mut powers: BTreeSet<String> = ctx.roles.permissions_of(ctx, roles).await?.into_iter().collect();
    if roles.iter().any(|r| r == ADMIN_ROLE) {
        powers.insert(ADMIN_ROLE.to_string());
        powers.extend(permission::ALL_PERMISSIONS.iter().map(|p| p.to_string()));
    }
    Ok(powers)
}

/// The powers the actor holds now.
fn powers_of_actor(actor: &Principal) -> BTreeSet<String> {
    let mut powers: BTreeSet<String> = actor.permissions.iter().cloned().collect();
    if actor.is_admin() {
        powers.insert(ADMIN_ROLE.to_string());
        powers.extend(permission::ALL_PERMISSIONS.iter().map(|p| p.to_string()));
    }
    powers
}

/// What of `wanted` the actor lacks (empty: nothing).
fn lacking(actor: &Principal, wanted: &BTreeSet<String>) -> Vec<String> {
    let held = powers_of_actor(actor);
    wanted.difference(&held).cloned().collect()
}

fn refused(what: Text, missing: &[String]) -> ApiError {
    ApiError::new(403, msg::settings::privilege::holds_more(missing.join(", "), what))
}

/// Giving `roles` to an account (creating it or changing its roles).
pub async fn may_grant_roles(ctx: &AppCtx, actor: &Principal, roles: &[String]) -> Result<(), ApiError> {
    let missing = lacking(actor, &powers_of_roles(ctx, roles).await?);
    if missing.is_empty() {
        Ok(())
    } else {
        Err(refused(msg::settings::privilege::grant_roles(), &missing))
    }
}

/// Changing, disabling, deleting or resetting the password of `user`: not
/// of someone who can do more than the actor.
pub async fn may_manage_user(ctx: &AppCtx, actor: &Principal, user: &User) -> Result<(), ApiError> {
    let missing = lacking(actor, &powers_of_roles(ctx, &user.roles).await?);
    if missing.is_empty() {
        Ok(())
    } else {
        Err(refused(msg::settings::privilege::manage_user(&user.username), &missing))
    }
}

/// Writing `permissions` into a role, or changing a role that has `current`.
pub fn may_define_role(actor: &Principal, name: &str, current: &[String], permissions: &[String]) -> Result<(), ApiError> {
    // Names that are no permission at all are the validator's 400, not a 403.
    let known = |p: &&String| permission::ALL_PERMISSIONS.contains(&p.trim());
    let mut wanted: BTreeSet<String> = permissions.iter().chain(current).filter(known).map(|p| p.trim().to_string()).collect();
    if name == ADMIN_ROLE {
        wanted.insert(ADMIN_ROLE.to_string());
    }
    let missing = lacking(actor, &wanted);
    if missing.is_empty() {
        Ok(())
    } else {
        Err(refused(msg::settings::privilege::define_role(name), &missing))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn principal(roles: &[&str], permissions: &[&str]) -> Principal {
        Principal { username: "u".into(), roles: roles.iter().map(|r| r.to_string()).collect(), permissions: permissions.iter().map(|p| p.to_string()).collect() }
    }

    #[test]
    fn a_role_may_carry_only_what_its_author_holds() {
        let manager = principal(&["Ops"], &[permission::SETTINGS_MANAGE, permission::SYSTEM_READ]);
        assert!(may_define_role(&manager, "Viewer", &[], &[permission::SYSTEM_READ.into()]).is_ok());
        let err = may_define_role(&manager, "Ops", &[], &[permission::SETTINGS_MANAGE.into(), permission::REFUND_APPROVE.into()]).unwrap_err();
        assert_eq!(err.code, 403);
        assert!(err.msg.en.contains(permission::REFUND_APPROVE), "{}", err.msg.en);
        // Taking a permission away from a stronger role is changing it too.
        assert!(may_define_role(&manager, "Finance", &[permission::REFUND_APPROVE.into()], &[]).is_err());
        assert!(may_define_role(&manager, ADMIN_ROLE, &[], &[]).is_err());
        let admin = principal(&[ADMIN_ROLE], &[]);
        assert!(may_define_role(&admin, ADMIN_ROLE, &[], &[permission::REFUND_APPROVE.into()]).is_ok());
    }
}
