/** Helper validators of the forms. Each returns true when the value is valid. */

/** The sign-in form's check (at least 6 characters). */
export const isPassword = (value: string): boolean => value.length >= 6;
/** A new password (create, reset, change, sign-up) has at least 12 characters; the server also refuses common ones. */
export const NEW_PASSWORD_MIN = 12;
export const isNewPassword = (value: string): boolean => [...value].length >= NEW_PASSWORD_MIN;
export const isNumber = (value: string): boolean => /^[0-9]+$/.test(value);
export const isName = (value: string): boolean => /^[\u4e00-\u9fa5a-zA-Z0-9]+$/.test(value);
export function isIP(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}
export const isUrl = (value: string): boolean => /^(https?|ftp):\/\/[^\s/$.?#][^\s]*$/i.test(value);
export const isLowerCase = (value: string): boolean => /^[a-z]+$/.test(value);
export const isUpperCase = (value: string): boolean => /^[A-Z]+$/.test(value);
export const isAlphabets = (value: string): boolean => /^[A-Za-z]+$/.test(value);
export function isPort(value: string): boolean {
  if (!/^\d{1,5}$/.test(value)) return false;
  const n = Number(value);
  return n >= 0 && n <= 65535;
}
export const isPhone = (value: string): boolean => /^1\d{10}$/.test(value);
/** Chinese resident ID: 15 digits, or 17 digits + digit/X with a valid check digit. */
export function isIdCard(value: string): boolean {
  if (/^\d{15}$/.test(value)) return true;
  if (!/^\d{17}[\dXx]$/.test(value)) return false;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const checks = '10X98765432';
  const sum = weights.reduce((acc, w, i) => acc + w * Number(value[i]), 0);
  return checks[sum % 11] === value[17].toUpperCase();
}
export const isEmail = (value: string): boolean => /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/.test(value);
export const isChineseName = (value: string): boolean => /^[\u4e00-\u9fa5]{2,4}$/.test(value);
export const isBlank = (value: unknown): boolean =>
  value === null || value === undefined || (typeof value === 'string' && (value.trim() === '' || value === 'null'));
/** Landline (area code + number), 400 and 800 service numbers. */
export const isTel = (value: string): boolean =>
  /^(0\d{2,3}-?\d{7,8}(-\d{1,6})?)$|^(400|800)-?\d{3}-?\d{4}$/.test(value);
export const isNum = (value: string): boolean => /^\d+(\.\d{1,2})?$/.test(value);
export function isJson(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
}

/** Login form checks (user name required, password of 6 or more): returns i18n keys of the failed rules. */
export function validateLogin(form: { username: string; password: string }): { username?: string; password?: string } {
  const errors: { username?: string; password?: string } = {};
  if (isBlank(form.username)) errors.username = 'login.usernameRequired';
  if (!isPassword(form.password)) errors.password = 'login.passwordMin';
  return errors;
}
