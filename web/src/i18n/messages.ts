/**
 * The server's message catalogue (`shared/envelope/messages/{zh,en}.json`,
 * the one source of every message the API answers): each answer names its
 * message by key (`msgKey`) with its arguments (`msgArgs`), and `data.fields`
 * names each field's words the same way (`key`, `args`), so the SPA shows
 * them in the UI language from the same files the server uses. A language's
 * file is fetched the first time an answer needs it (its own chunk, not in
 * the first download).
 */
import type { Language } from '@/config';

type Catalogue = Record<string, string>;

/** An argument as the server sends it: text, another message, text written in code, or a list. */
type Arg = string | number | { key: string; args?: Args } | { en: string; zh: string } | { list: Arg[]; separator: string };
type Args = Record<string, Arg>;

const LOADERS: Record<Language, () => Promise<{ default: Catalogue }>> = {
  zh: () => import('../../../shared/envelope/messages/zh.json'),
  en: () => import('../../../shared/envelope/messages/en.json'),
};

const loaded: Partial<Record<Language, Promise<Catalogue>>> = {};

/** The catalogue of `lang`, fetched once. */
export function messageCatalogue(lang: Language): Promise<Catalogue> {
  loaded[lang] ??= LOADERS[lang]().then((m) => m.default);
  return loaded[lang];
}

/** `template` with its `{name}` placeholders filled (`{{` and `}}` are braces). */
function fill(template: string, args: Args, catalogue: Catalogue, lang: Language): string | undefined {
  let failed = false;
  const text = template.replace(/\{\{|\}\}|\{([A-Za-z0-9]+)\}/g, (whole, name: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    const arg = name === undefined ? undefined : args[name];
    const shown = arg === undefined ? undefined : argText(arg, catalogue, lang);
    if (shown === undefined) failed = true;
    return shown ?? whole;
  });
  return failed ? undefined : text;
}

function argText(arg: Arg, catalogue: Catalogue, lang: Language): string | undefined {
  if (typeof arg === 'string' || typeof arg === 'number') return String(arg);
  if ('key' in arg) return renderMessage(catalogue, arg.key, arg.args ?? {}, lang);
  if ('list' in arg) {
    const separator = catalogue[arg.separator];
    const items = arg.list.map((a) => argText(a, catalogue, lang));
    return separator === undefined || items.some((i) => i === undefined) ? undefined : items.join(separator);
  }
  return lang === 'zh' ? arg.zh : arg.en;
}

/** The message `key` with `args` in the catalogue's language; undefined when the catalogue lacks it. */
export function renderMessage(catalogue: Catalogue, key: string, args: Args, lang: Language): string | undefined {
  const template = catalogue[key];
  return template === undefined ? undefined : fill(template, args, catalogue, lang);
}

/** Words shown on their own beside a field start with a capital (as the server writes them). */
export const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
