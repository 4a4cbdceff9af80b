import type { ReactNode } from 'react';
import { userStore } from '@/store/user';
import type { Guard } from '@/router/types';
import { hasAccess } from '@/utils/permission';

/** True when the signed-in user passes the guard. */
export function usePermission(guard: Guard | undefined): boolean {
  const admin = userStore.use((s) => s.admin);
  const role = userStore.use((s) => s.role);
  const permission = userStore.use((s) => s.permission);
  return hasAccess({ admin, role, permission }, guard);
}

/** Renders its children only when permitted (the permissions directive). */
export function Permission({ guard, children }: { guard: Guard; children: ReactNode }) {
  return usePermission(guard) ? <>{children}</> : null;
}
