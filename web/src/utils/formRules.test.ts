import { describe, expect, it } from 'vitest';
import { checkField, checkForm, checkRule, format } from './formRules';

describe('generic form rules', () => {
  it('fills %s in order', () => {
    expect(format('%s must be one of %s', 'Status', 'a, b')).toBe('Status must be one of a, b');
    expect(format('%s is required')).toBe('%s is required');
  });

  it('required: the default message, and optional empties pass every other check', () => {
    expect(checkRule('', { required: true }, 'Name')).toBe('Name is required');
    expect(checkRule(null, { required: true }, 'Name')).toBe('Name is required');
    expect(checkRule([], { required: true }, 'Region')).toBe('Region is required');
    expect(checkRule('x', { required: true }, 'Name')).toBeUndefined();
    expect(checkRule('', { type: 'email', max: 3 }, 'Mail')).toBeUndefined();
    expect(checkRule('', { required: true }, '名称', 'zh')).toBe('名称不能为空');
  });

  it('whitespace: only spaces count as empty', () => {
    expect(checkRule('   ', { required: true, whitespace: true }, 'Name')).toBe('Name cannot be empty');
    expect(checkRule('   ', { required: true }, 'Name')).toBeUndefined();
    expect(checkRule(' a ', { required: true, whitespace: true }, 'Name')).toBeUndefined();
  });

  it('type: number, integer, email, url', () => {
    expect(checkRule('abc', { type: 'number' }, 'Latitude')).toBe('Latitude is not a valid number');
    expect(checkRule('39.9', { type: 'number' }, 'Latitude')).toBeUndefined();
    expect(checkRule('1.5', { type: 'integer' }, 'Power')).toBe('Power is not a valid integer');
    expect(checkRule('120', { type: 'integer' }, 'Power')).toBeUndefined();
    expect(checkRule('a@b', { type: 'email' }, 'Mail')).toBe('Mail is not a valid email');
    expect(checkRule('a@b.cn', { type: 'email' }, 'Mail')).toBeUndefined();
    expect(checkRule('www.x.cn', { type: 'url' }, 'Site')).toBe('Site is not a valid url');
    expect(checkRule('https://x.cn/a', { type: 'url' }, 'Site')).toBeUndefined();
    expect(checkRule('x', { type: 'number' }, '纬度', 'zh')).toBe('纬度不是有效的数字');
  });

  it('range: string lengths in characters, numbers by value', () => {
    expect(checkRule('a'.repeat(51), { max: 50 }, 'Name')).toBe('Name cannot be longer than 50 characters');
    expect(checkRule('充'.repeat(50), { max: 50 }, 'Name')).toBeUndefined();
    expect(checkRule('a', { min: 2 }, 'Code')).toBe('Code must be at least 2 characters');
    expect(checkRule('abc', { len: 2 }, 'Code')).toBe('Code must be exactly 2 characters');
    expect(checkRule('', { required: true, min: 1, max: 20 }, 'Code')).toBe('Code is required');
    expect(checkRule('a'.repeat(21), { min: 1, max: 20 }, 'Code')).toBe('Code must be between 1 and 20 characters');
    expect(checkRule('91', { type: 'number', min: -90, max: 90 }, 'Latitude')).toBe('Latitude must be between -90 and 90');
    expect(checkRule('5', { type: 'integer', min: 10 }, 'Heartbeat')).toBe('Heartbeat cannot be less than 10');
    expect(checkRule(4000, { max: 3600 }, 'Heartbeat')).toBe('Heartbeat cannot be greater than 3600');
    expect(checkRule('3', { type: 'number', len: 2 }, 'N')).toBe('N must equal 2');
  });

  it('enum: the default message lists the choices', () => {
    expect(checkRule('x', { enum: ['ac', 'dc'] }, 'Type')).toBe('Type must be one of ac, dc');
    expect(checkRule('dc', { enum: ['ac', 'dc'] }, 'Type')).toBeUndefined();
    expect(checkRule(1, { enum: [0, 1, 2] }, 'Profile')).toBeUndefined();
  });

  it('pattern', () => {
    expect(checkRule('a b', { pattern: /^[A-Za-z0-9_-]+$/ }, 'Code')).toBe('Code value a b does not match pattern /^[A-Za-z0-9_-]+$/');
    expect(checkRule('st-1', { pattern: /^[A-Za-z0-9_-]+$/ }, 'Code')).toBeUndefined();
  });

  it('a rule message replaces the default, a validator gives its own', () => {
    expect(checkRule('', { required: true, message: 'Fill it in' }, 'Name')).toBe('Fill it in');
    expect(checkRule('x', { validator: (v) => (v === 'x' ? 'no x' : undefined) }, 'Name')).toBe('no x');
  });

  it('a field reports its first failing rule; a form lists the failing fields in order', () => {
    expect(checkField('', [{ required: true }, { max: 3 }], 'Name')).toBe('Name is required');
    expect(checkField('abcd', [{ required: true }, { max: 3 }], 'Name')).toBe('Name cannot be longer than 3 characters');
    const errors = checkForm({ a: '', b: 'ok', c: 'zz' }, [
      ['a', { label: 'A', rules: [{ required: true }] }],
      ['b', { label: 'B', rules: [{ required: true }] }],
      ['c', { label: 'C', rules: [{ enum: ['x'] }] }],
    ]);
    expect(Object.keys(errors)).toEqual(['a', 'c']);
    expect(errors.c).toBe('C must be one of x');
  });
});
