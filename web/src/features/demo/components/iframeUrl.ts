import FRAME_HOSTS from '@/config/frame-hosts.json';

/** Only absolute http(s) URLs may be framed; anything else (javascript:, data:, relative) is refused. */
export function safeFrameUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** The iframe search box: a URL as typed (scheme added when missing) or a web search of the words. */
export function searchTarget(input: string, engine = 'https://www.bing.com/search?q='): string | null {
  const text = input.trim();
  if (!text) return null;
  const direct = safeFrameUrl(text) ?? (/^[\w-]+(\.[\w-]+)+(:\d+)?(\/\S*)?$/.test(text) ? safeFrameUrl(`https://${text}`) : null);
  return direct ?? `${engine}${encodeURIComponent(text)}`;
}

export const iframeViewPath = (url: string, title: string): string => `/other/iframe/view?${new URLSearchParams({ url, title }).toString()}`;

/**
 * Whether the back-office may show `url` in a frame: its origin is on the
 * allow-list the server's Content-Security-Policy (frame-src) also lists.
 */
export const frameable = (url: string): boolean => FRAME_HOSTS.includes(new URL(url).origin);
