import { describe, expect, it } from 'vitest';
import * as v from './validate';

describe('helper validators', () => {
  it('password at least 6 characters', () => {
    expect(v.isPassword('12345')).toBe(false);
    expect(v.isPassword('123456')).toBe(true);
  });
  it('digits, names, case and letters', () => {
    expect(v.isNumber('0123')).toBe(true);
    expect(v.isNumber('12a')).toBe(false);
    expect(v.isName('张三abc1')).toBe(true);
    expect(v.isName('a b')).toBe(false);
    expect(v.isLowerCase('abc')).toBe(true);
    expect(v.isUpperCase('ABC')).toBe(true);
    expect(v.isAlphabets('aBc')).toBe(true);
    expect(v.isAlphabets('a1')).toBe(false);
  });
  it('IPv4, URL, port', () => {
    expect(v.isIP('192.168.1.1')).toBe(true);
    expect(v.isIP('256.1.1.1')).toBe(false);
    expect(v.isIP('1.1.1')).toBe(false);
    expect(v.isUrl('https://example.com/a')).toBe(true);
    expect(v.isUrl('ftp://files.example.com')).toBe(true);
    expect(v.isUrl('mailto:a@b.c')).toBe(false);
    expect(v.isPort('0')).toBe(true);
    expect(v.isPort('65535')).toBe(true);
    expect(v.isPort('65536')).toBe(false);
  });
  it('phone, ID card, e-mail, Chinese name', () => {
    expect(v.isPhone('13800138000')).toBe(true);
    expect(v.isPhone('23800138000')).toBe(false);
    expect(v.isPhone('1380013800')).toBe(false);
    expect(v.isIdCard('11010519491231002X')).toBe(true);
    expect(v.isIdCard('110105194912310021')).toBe(false);
    expect(v.isEmail('a.b@example.com')).toBe(true);
    expect(v.isEmail('a@b')).toBe(false);
    expect(v.isChineseName('张三')).toBe(true);
    expect(v.isChineseName('张')).toBe(false);
    expect(v.isChineseName('欧阳诸葛先生')).toBe(false);
  });
  it('blank, landline, 2-decimal numbers, JSON', () => {
    expect(v.isBlank(null)).toBe(true);
    expect(v.isBlank('')).toBe(true);
    expect(v.isBlank('null')).toBe(true);
    expect(v.isBlank('x')).toBe(false);
    expect(v.isTel('010-12345678')).toBe(true);
    expect(v.isTel('400-123-4567')).toBe(true);
    expect(v.isTel('800-123-4567')).toBe(true);
    expect(v.isTel('12345')).toBe(false);
    expect(v.isNum('3.14')).toBe(true);
    expect(v.isNum('3.141')).toBe(false);
    expect(v.isJson('{"a":1}')).toBe(true);
    expect(v.isJson('1')).toBe(false);
    expect(v.isJson('{')).toBe(false);
  });
  it('login form messages', () => {
    expect(v.validateLogin({ username: '', password: '123' })).toEqual({ username: 'login.usernameRequired', password: 'login.passwordMin' });
    expect(v.validateLogin({ username: 'admin', password: '123456' })).toEqual({});
  });
});
