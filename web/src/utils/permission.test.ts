import { describe, expect, it } from 'vitest';
import { aclFromUserInfo, hasAccess } from './permission';

const editor = { admin: false, role: ['Editor'], permission: ['read:system', 'write:system'] };
const tester = { admin: false, role: ['Test'], permission: ['read:system'] };

describe('permission check', () => {
  it('admin always passes', () => {
    expect(hasAccess({ admin: true, role: [], permission: [] }, { role: ['Editor'], mode: 'except' })).toBe(true);
  });

  it('no guard passes', () => {
    expect(hasAccess(editor, undefined)).toBe(true);
    expect(hasAccess(editor, [])).toBe(true);
  });

  it('a list passes when any item is among roles plus permissions', () => {
    expect(hasAccess(editor, ['Admin'])).toBe(false);
    expect(hasAccess(editor, ['Admin', 'Editor'])).toBe(true);
    expect(hasAccess(editor, ['write:system'])).toBe(true);
    expect(hasAccess(tester, ['delete:system'])).toBe(false);
  });

  it('modes: oneOf (default), allOf, except', () => {
    expect(hasAccess(editor, { role: ['Admin', 'Editor'] })).toBe(true);
    expect(hasAccess(editor, { role: ['Admin', 'Editor'], mode: 'allOf' })).toBe(false);
    expect(hasAccess(editor, { role: ['Editor'], mode: 'except' })).toBe(false);
    expect(hasAccess(tester, { role: ['Editor'], mode: 'except' })).toBe(true);
  });

  it('role and permission checks combine with AND', () => {
    expect(hasAccess(editor, { role: ['Editor'], permission: ['delete:system'] })).toBe(false);
    expect(hasAccess(editor, { role: ['Editor'], permission: ['write:system'] })).toBe(true);
  });

  it('a role or permission may be one name instead of a list (as the server takes it)', () => {
    expect(hasAccess(editor, { role: 'Editor' })).toBe(true);
    expect(hasAccess(editor, { role: 'Admin' })).toBe(false);
    expect(hasAccess(editor, { permission: 'write:system', mode: 'allOf' })).toBe(true);
    expect(hasAccess(tester, { role: 'Editor', mode: 'except' })).toBe(true);
  });

  it('role names are case-sensitive', () => {
    expect(hasAccess(editor, ['editor'])).toBe(false);
  });

  it('admin flag = roles include Admin; lists de-duplicated', () => {
    expect(aclFromUserInfo(['Admin', 'Editor']).admin).toBe(true);
    expect(aclFromUserInfo(['Editor'], ['a', 'a']).permission).toEqual(['a']);
  });
});
