import type { Acl, Guard, GuardMode } from '@/router/types';

function check(required: string[], held: string[], mode: GuardMode): boolean {
  switch (mode) {
    case 'allOf':
      return required.every((r) => held.includes(r));
    case 'except':
      return !required.some((r) => held.includes(r));
    default:
      return required.some((r) => held.includes(r));
  }
}

/**
 * An admin always passes; no guard passes; a list passes when any
 * item is among the user's roles plus permissions; an object checks role and
 * permission with its mode (oneOf default, allOf, except) and ANDs the two.
 * Role names are case-sensitive.
 */
/** A guard's role or permission: one name or a list (the server takes both). */
const names = (v: string | string[] | null | undefined): string[] => (v == null ? [] : Array.isArray(v) ? v : [v]);

export function hasAccess(acl: Acl, guard: Guard | undefined | null): boolean {
  if (acl.admin) return true;
  if (!guard) return true;
  if (Array.isArray(guard)) {
    if (guard.length === 0) return true;
    const held = [...acl.role, ...acl.permission];
    return guard.some((g) => held.includes(g));
  }
  const mode = guard.mode ?? 'oneOf';
  const role = names(guard.role);
  const permission = names(guard.permission);
  const roleOk = role.length ? check(role, acl.role, mode) : true;
  const permissionOk = permission.length ? check(permission, acl.permission, mode) : true;
  return roleOk && permissionOk;
}

export const ADMIN_ROLE = 'Admin';

/** Access-control state from server user info: admin = roles include 'Admin'. */
export function aclFromUserInfo(roles: string[] = [], permissions: string[] = []): Acl {
  return { admin: roles.includes(ADMIN_ROLE), role: [...new Set(roles)], permission: [...new Set(permissions)] };
}
