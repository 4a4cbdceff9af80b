/**
 * The generic form rules: required, type, range, enum,
 * pattern, whitespace, email and url, with the default messages the spec
 * names ('%s is required', '%s must be one of %s', ...). One rule object may
 * combine several checks; the first failing check gives the message. Forms
 * run them per field (on leaving a field and on Save) through `checkField`.
 */

export type RuleType = 'string' | 'number' | 'integer' | 'email' | 'url';

export interface Rule {
  required?: boolean;
  type?: RuleType;
  /** Strings: length in characters; numbers: the value. */
  min?: number;
  max?: number;
  len?: number;
  enum?: ReadonlyArray<string | number>;
  pattern?: RegExp;
  /** Text made only of spaces counts as empty. */
  whitespace?: boolean;
  /** A check of its own: returns a message (already filled in) or nothing. */
  validator?: (value: unknown) => string | undefined;
  /** Replaces the default message of whichever check fails. */
  message?: string;
}

export type MessageKey =
  | 'required'
  | 'whitespace'
  | 'enum'
  | 'pattern'
  | 'type'
  | 'string.len'
  | 'string.min'
  | 'string.max'
  | 'string.range'
  | 'number.len'
  | 'number.min'
  | 'number.max'
  | 'number.range';

/** The spec's defaults (async-validator's wording). */
export const MESSAGES_EN: Record<MessageKey, string> = {
  required: '%s is required',
  whitespace: '%s cannot be empty',
  enum: '%s must be one of %s',
  pattern: '%s value %s does not match pattern %s',
  type: '%s is not a valid %s',
  'string.len': '%s must be exactly %s characters',
  'string.min': '%s must be at least %s characters',
  'string.max': '%s cannot be longer than %s characters',
  'string.range': '%s must be between %s and %s characters',
  'number.len': '%s must equal %s',
  'number.min': '%s cannot be less than %s',
  'number.max': '%s cannot be greater than %s',
  'number.range': '%s must be between %s and %s',
};

export const MESSAGES_ZH: Record<MessageKey, string> = {
  required: '%s不能为空',
  whitespace: '%s不能为空白',
  enum: '%s须为%s之一',
  pattern: '%s的值%s不符合格式%s',
  type: '%s不是有效的%s',
  'string.len': '%s须为%s个字符',
  'string.min': '%s至少%s个字符',
  'string.max': '%s不能超过%s个字符',
  'string.range': '%s须为%s到%s个字符',
  'number.len': '%s须等于%s',
  'number.min': '%s不能小于%s',
  'number.max': '%s不能大于%s',
  'number.range': '%s须在%s到%s之间',
};

const TYPE_NAMES_ZH: Record<RuleType, string> = { string: '文本', number: '数字', integer: '整数', email: '邮箱地址', url: '网址' };

export const messagesFor = (lang: string): Record<MessageKey, string> => (lang.startsWith('zh') ? MESSAGES_ZH : MESSAGES_EN);

/** '%s' placeholders filled in order, as the spec's messages are written. */
export function format(template: string, ...args: Array<string | number>): string {
  let i = 0;
  return template.replace(/%s/g, () => (i < args.length ? String(args[i++]) : '%s'));
}

const EMAIL = /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/;
const URL_RE = /^(https?|ftp):\/\/[^\s/$.?#][^\s]*$/i;

const isEmpty = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v === '') || (Array.isArray(v) && v.length === 0);

/** A form's text as the number it stands for (NaN when it is not one). */
function asNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') return Number(v.trim());
  return NaN;
}

/** The first message of one rule for `value`, or undefined when it passes. */
export function checkRule(value: unknown, rule: Rule, label: string, lang = 'en'): string | undefined {
  const m = messagesFor(lang);
  const fail = (key: MessageKey, ...args: Array<string | number>) => rule.message ?? format(m[key], label, ...args);
  if (isEmpty(value) || (rule.whitespace && typeof value === 'string' && value.trim() === '')) {
    if (rule.required) return fail(isEmpty(value) ? 'required' : 'whitespace');
    return undefined; // an optional empty field passes every other check
  }
  const type = rule.type ?? (typeof value === 'number' ? 'number' : 'string');
  const typeName = lang.startsWith('zh') ? TYPE_NAMES_ZH[type] : type;
  let num = NaN;
  switch (type) {
    case 'number':
      num = asNumber(value);
      if (!Number.isFinite(num)) return fail('type', typeName);
      break;
    case 'integer':
      num = asNumber(value);
      if (!Number.isInteger(num)) return fail('type', typeName);
      break;
    case 'email':
      if (!EMAIL.test(String(value))) return fail('type', typeName);
      break;
    case 'url':
      if (!URL_RE.test(String(value))) return fail('type', typeName);
      break;
    default:
      break;
  }
  const numeric = type === 'number' || type === 'integer';
  // Lengths count characters (a Chinese character is one), as the server does.
  const size = numeric ? num : [...String(value)].length;
  const kind = numeric ? 'number' : 'string';
  if (rule.len !== undefined && size !== rule.len) return fail(`${kind}.len`, rule.len);
  if (rule.min !== undefined && rule.max !== undefined && (size < rule.min || size > rule.max)) return fail(`${kind}.range`, rule.min, rule.max);
  if (rule.min !== undefined && rule.max === undefined && size < rule.min) return fail(`${kind}.min`, rule.min);
  if (rule.max !== undefined && rule.min === undefined && size > rule.max) return fail(`${kind}.max`, rule.max);
  if (rule.enum && !rule.enum.map(String).includes(String(value))) return fail('enum', rule.enum.join(', '));
  if (rule.pattern && !rule.pattern.test(String(value))) return fail('pattern', String(value), String(rule.pattern));
  if (rule.validator) {
    const why = rule.validator(value);
    if (why) return rule.message ?? why;
  }
  return undefined;
}

/** The first failing rule's message for a field. */
export function checkField(value: unknown, rules: ReadonlyArray<Rule>, label: string, lang = 'en'): string | undefined {
  for (const r of rules) {
    const why = checkRule(value, r, label, lang);
    if (why) return why;
  }
  return undefined;
}

export type FieldSpec = { label: string; rules: ReadonlyArray<Rule> };

/** Every field's message (only the failing ones), in the order the fields are listed. */
export function checkForm<K extends string>(values: Record<K, unknown>, fields: ReadonlyArray<[K, FieldSpec]>, lang = 'en'): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [k, spec] of fields) {
    const why = checkField(values[k], spec.rules, spec.label, lang);
    if (why) out[k] = why;
  }
  return out;
}
