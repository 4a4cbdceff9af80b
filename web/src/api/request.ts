import {
  API_BASE,
  CODE_FIELD,
  CONTENT_TYPE,
  DEBOUNCE_URLS,
  MSG_FIELD,
  REFRESH_TOKEN_FIELD,
  REQUEST_TIMEOUT_MS,
  SUCCESS_CODES,
  TOKEN_FIELD,
  type Language,
} from '@/config';
import i18n from '@/i18n';
import { capitalised, messageCatalogue, renderMessage } from '@/i18n/messages';
import { goTo, resetAndGoToLogin } from '@/store/session';
import { saveToken, userStore } from '@/store/user';
import { beginLoading, endLoading, notify } from '@/utils/notify';
import { getRefreshToken, getToken } from '@/utils/storage';
import type { components } from './schema';

/**
 * The server's answer: the `{code, msg, msgKey, msgArgs, data}` envelope
 * (`msgKey` names the message in the server's catalogue, `msgArgs` its
 * arguments; see `@/i18n/messages`).
 */
export interface Envelope<T> {
  code: number | string;
  msg: string;
  msgKey?: string;
  msgArgs?: Record<string, unknown>;
  data: T;
}

export interface RequestOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  params?: Record<string, string | number | boolean | undefined>;
  data?: unknown;
  headers?: Record<string, string>;
  timeout?: number;
  /**
   * The caller marks a 400's fields on its form (see `fieldProblems`), so the
   * request layer leaves out the toast when the answer names them.
   */
  fieldErrors?: boolean;
}

/** One field a 400 names (`data.fields` of the asset and card routes). */
export type FieldProblem = NonNullable<components['responses']['Error400']['content']['application/json']['data']>['fields'][number];

/** The fields a 400 answer names, if any. */
export function fieldProblems(body: unknown): FieldProblem[] {
  const fields = (body as { data?: { fields?: unknown } } | undefined)?.data?.fields;
  if (!Array.isArray(fields)) return [];
  return fields.filter((f): f is FieldProblem => !!f && typeof f === 'object' && typeof (f as FieldProblem).field === 'string' && typeof (f as FieldProblem).en === 'string');
}

/**
 * The server's reason for refusing `field` (a 400 naming it in
 * `data.fields`), in the reader's language; undefined when the error names
 * no such field. A form shows it next to that field.
 */
export function problemOf(err: unknown, field: string, zh: boolean): string | undefined {
  if (!(err instanceof RequestError) || Number(err.code) !== 400) return undefined;
  const found = fieldProblems(err.body).find((p) => p.field === field);
  return found && (zh ? found.zh : found.en);
}

/**
 * After a request made with `fieldErrors` failed: the message for `field`
 * if the answer named it; otherwise the request layer left a 400 that names
 * other fields untoasted, so it is toasted here (nothing goes unsaid).
 */
export function messageForField(err: unknown, field: string, zh: boolean): string | undefined {
  const mine = problemOf(err, field, zh);
  if (mine === undefined && err instanceof RequestError && Number(err.code) === 400 && fieldProblems(err.body).length > 0) {
    notify(err.message, 'error');
  }
  return mine;
}

/** A rejected request: `code` is the envelope or HTTP status, 0 for network errors. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: number | string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

const isSuccess = (code: unknown): boolean => SUCCESS_CODES.includes(code as number | string);

export function buildUrl(url: string, params?: RequestOptions['params']): string {
  const base = /^https?:/.test(url) ? url : `${API_BASE}${url}`;
  if (!params) return base;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, String(v));
  const qs = query.toString();
  return qs ? `${base}${base.includes('?') ? '&' : '?'}${qs}` : base;
}

/** Standard text for a status, else "Request failed with status code n". */
export function standardMessage(code: number | string): string {
  const key = `request.status.${code}`;
  return i18n.exists(key) ? i18n.t(key) : i18n.t('request.failedWithStatus', { code });
}

const uiLanguage = (): Language => (i18n.language?.startsWith('zh') ? 'zh' : 'en');

type Args = Parameters<typeof renderMessage>[2];

/**
 * The answer with its words in the UI language from the server's catalogue
 * (the language may have changed since the request left): `msg` from
 * `msgKey`, and each field of `data.fields` from its `key` (capitalised,
 * as the server writes words shown on their own). What the catalogue
 * cannot render keeps the server's words.
 */
async function inUiLanguage(body: Record<string, unknown> | null): Promise<Record<string, unknown> | null> {
  const fields = fieldProblems(body).filter((f) => typeof f.key === 'string');
  if (!body || (typeof body.msgKey !== 'string' && fields.length === 0)) return body;
  const lang = uiLanguage();
  let catalogue: Record<string, string>;
  try {
    catalogue = await messageCatalogue(lang);
  } catch {
    return body;
  }
  const render = (key: unknown, args: unknown): string | undefined =>
    typeof key === 'string' ? renderMessage(catalogue, key, (args ?? {}) as Args, lang) : undefined;
  const msg = render(body.msgKey, body.msgArgs);
  if (msg !== undefined) body = { ...body, [MSG_FIELD]: msg };
  if (fields.length > 0) {
    const data = body.data as Record<string, unknown>;
    const localised = (data.fields as FieldProblem[]).map((f) => {
      const words = render(f.key, f.args);
      return words === undefined ? f : { ...f, [lang]: capitalised(words) };
    });
    body = { ...body, data: { ...data, fields: localised } };
  }
  return body;
}

const acceptLanguage = (): string => (i18n.language?.startsWith('zh') ? 'zh-CN' : 'en');

function encodeBody(data: unknown, contentType: string): BodyInit | undefined {
  if (data === undefined) return undefined;
  if (contentType.includes('application/x-www-form-urlencoded')) {
    return new URLSearchParams(Object.entries(data as Record<string, unknown>).map(([k, v]) => [k, String(v)])).toString();
  }
  return JSON.stringify(data);
}

interface RawResult {
  status: number;
  body: Record<string, unknown> | null;
}

/** One HTTP exchange with timeout; no envelope handling. */
async function exchange(opts: RequestOptions, token: string): Promise<RawResult> {
  const headers: Record<string, string> = { 'Content-Type': CONTENT_TYPE, 'Accept-Language': acceptLanguage(), ...opts.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  const controller = new AbortController();
  const timeout = opts.timeout ?? REQUEST_TIMEOUT_MS;
  const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), timeout);
  let res: Response;
  try {
    res = await fetch(buildUrl(opts.url, opts.params), {
      method: opts.method ?? 'GET',
      headers,
      body: encodeBody(opts.data, headers['Content-Type']),
      signal: controller.signal,
    });
  } catch (err) {
    const timedOut = controller.signal.aborted;
    const message = timedOut ? i18n.t('request.timeout', { ms: timeout }) : i18n.t('request.networkError');
    throw new RequestError(message, 0, err);
  } finally {
    clearTimeout(timer);
  }
  let body: Record<string, unknown> | null = null;
  try {
    const text = await res.text();
    body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

// ---- 402: one refresh at a time; other requests wait for it.
// The refresh token is one use (the server ends the session when one comes
// back), so tabs of one browser must not trade the same token twice: the
// trade runs under a Web Lock shared by the tabs, and a tab that finds a
// token newer than its own in storage (another tab refreshed) takes it.
let refreshing: Promise<string> | null = null;

async function underTabLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request('backoffice-token-refresh', work) : work();
}

async function tradeRefreshToken(staleToken: string): Promise<string> {
  const stored = getToken();
  if (stored && stored !== staleToken) {
    saveToken({ token: stored, refreshToken: getRefreshToken() });
    return stored;
  }
  const { status, body } = await exchange({ url: '/refreshToken', headers: { 'X-Refresh-Token': getRefreshToken() } }, '');
  const code = body?.[CODE_FIELD] ?? status;
  const data = body?.data as Record<string, unknown> | undefined;
  const token = data?.[TOKEN_FIELD];
  const refreshToken = data?.[REFRESH_TOKEN_FIELD];
  if (!isSuccess(code) || typeof token !== 'string' || !token) {
    throw new RequestError(String(body?.[MSG_FIELD] ?? standardMessage(401)), 401, body);
  }
  saveToken({ token, refreshToken: typeof refreshToken === 'string' ? refreshToken : '' });
  return token;
}

export function refreshTokenOnce(): Promise<string> {
  if (!refreshing) {
    const staleToken = userStore.get().token;
    refreshing = underTabLock(() => tradeRefreshToken(staleToken)).finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

/**
 * Sends a request and applies the envelope rules:
 * success codes resolve with the envelope; 401 resets the session and goes to
 * login; 402 refreshes the token (single flight) and retries once; 403 goes to
 * the forbidden page; anything else toasts `msg` (or the standard text) and rejects.
 */
export async function request<T = unknown>(opts: RequestOptions): Promise<Envelope<T>> {
  const masked = DEBOUNCE_URLS.some((u) => opts.url.includes(u));
  if (masked) beginLoading();
  try {
    return await send<T>(opts, false);
  } finally {
    if (masked) endLoading();
  }
}

async function send<T>(opts: RequestOptions, retried: boolean): Promise<Envelope<T>> {
  const usedToken = userStore.get().token;
  let result: RawResult;
  try {
    result = await exchange(opts, usedToken);
  } catch (err) {
    if (err instanceof RequestError) notify(err.message, 'error');
    throw err;
  }
  const { status } = result;
  const code = (result.body?.[CODE_FIELD] ?? status) as number | string;
  const success = isSuccess(code) && status < 400;
  // A plain success needs no words; any other answer is shown in the UI language.
  const body = success && result.body?.msgKey === 'envelope.success' ? result.body : await inUiLanguage(result.body);
  const msg = typeof body?.[MSG_FIELD] === 'string' && body[MSG_FIELD] ? (body[MSG_FIELD] as string) : '';
  if (success) return body as unknown as Envelope<T>;

  switch (Number(code)) {
    case 401:
      notify(msg || standardMessage(401), 'warning');
      resetAndGoToLogin();
      break;
    case 402:
      if (!retried) {
        try {
          // Another request may already have refreshed while this one was in flight.
          if (userStore.get().token === usedToken) await refreshTokenOnce();
        } catch (err) {
          // The server says why (signed out for inactivity, session ended, token reused).
          const why = err instanceof RequestError && err.message ? err.message : standardMessage(401);
          notify(why, 'warning');
          resetAndGoToLogin();
          throw new RequestError(why, 401, body);
        }
        return send<T>(opts, true);
      }
      resetAndGoToLogin();
      break;
    case 403: {
      // The server names the permission that is missing; the 403 page says it.
      const permission = (body as { data?: { permission?: unknown } } | undefined)?.data?.permission;
      goTo(typeof permission === 'string' ? `/403?permission=${encodeURIComponent(permission)}` : '/403');
      break;
    }
    default:
      if (!(opts.fieldErrors && Number(code) === 400 && fieldProblems(body).length > 0)) notify(msg || standardMessage(code), 'error');
  }
  throw new RequestError(msg || standardMessage(code), code, body);
}

export const get = <T>(url: string, params?: RequestOptions['params']) => request<T>({ url, params });
export const post = <T>(url: string, data?: unknown, extra?: Pick<RequestOptions, 'fieldErrors'>) => request<T>({ url, method: 'POST', data, ...extra });
