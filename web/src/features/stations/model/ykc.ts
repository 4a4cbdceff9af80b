/**
 * The protocols a pile may be registered for (the field keeps its first
 * name, `ocppVersion`): OCPP-J over WebSocket, or the 云快充 (YKC) binary
 * protocol over TCP. What the pages need to tell them apart: the choices,
 * the pile number a YKC pile must have, where it connects, and the names
 * of its frames (`@/api/ykcFrames`, generated from the codec's catalogue).
 */
import { YKC_FRAMES } from '@/api/ykcFrames';
import type { OcppVersion } from '../api/assets';

/** Every protocol a pile may speak, in the order the pile dialog offers them. */
export const PROTOCOLS: readonly OcppVersion[] = ['1.6', '2.0.1', 'ykc1.5', 'ykc1.6'];

/** A protocol's key in the locale strings (`ykc.protocol.<key>`): i18next reads a dot as nesting. */
export const protocolKey = (v: string | null | undefined): string => ({ '1.6': 'ocpp16', '2.0.1': 'ocpp201', 'ykc1.5': 'ykc15', 'ykc1.6': 'ykc16' })[v ?? '1.6'] ?? 'ocpp16';

/** Whether a pile of this protocol speaks YKC (no version: OCPP 1.6, the server's default). */
export const isYkc = (v: string | null | undefined): boolean => v === 'ykc1.5' || v === 'ykc1.6';

/** A YKC pile's code is its pile number: 14 decimal digits (7 BCD bytes on the wire; the server refuses any other). */
export const YKC_PILE_NUMBER = /^\d{14}$/;
export const isYkcPileNumber = (code: string): boolean => YKC_PILE_NUMBER.test(code.trim());

/**
 * Where a YKC pile is pointed: this site's host name and the gateway's YKC
 * port (`host:port`, the form a pile's configuration takes); null when the
 * gateway has no YKC listener (`ykcPort` null).
 */
export function ykcAddress(port: number | null | undefined, location: { hostname: string } = window.location): string | null {
  return port == null ? null : `${location.hostname}:${port}`;
}

export type YkcFrameName = keyof typeof YKC_FRAMES;
export type YkcFrame = (typeof YKC_FRAMES)[YkcFrameName];

/** A YKC message of the log (`action`, the catalogue's name), if it is one. */
export const ykcFrame = (action: string | null | undefined): YkcFrame | undefined =>
  action && Object.prototype.hasOwnProperty.call(YKC_FRAMES, action) ? YKC_FRAMES[action as YkcFrameName] : undefined;

/** A frame type as the specification writes it: `0x3B`. */
export const frameTypeHex = (n: number): string => `0x${n.toString(16).toUpperCase().padStart(2, '0')}`;

/** A YKC frame's name in the reader's language (Chinese as the specification has it, else English); undefined for no YKC frame. */
export function ykcFrameName(action: string | null | undefined, language: string | undefined): string | undefined {
  const f = ykcFrame(action);
  if (!f) return undefined;
  return language?.toLowerCase().startsWith('zh') ? f.zh : f.en;
}

/** The frames' names by catalogue name in one language, for the locale strings. */
export const frameNames = (language: 'zh' | 'en'): Record<YkcFrameName, string> =>
  Object.fromEntries(Object.entries(YKC_FRAMES).map(([k, f]) => [k, f[language]])) as Record<YkcFrameName, string>;

/** Raw bytes in upper-case hex, grouped by byte for the eye ("68 0C 00 …"); as the log keeps them when unreadable. */
export function hexBytes(hex: string): string {
  const h = hex.replace(/\s+/g, '');
  if (!/^[0-9A-Fa-f]*$/.test(h) || h.length % 2) return hex;
  return (h.toUpperCase().match(/../g) ?? []).join(' ');
}
