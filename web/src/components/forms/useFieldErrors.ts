import { useCallback, useEffect, useRef, useState, type FocusEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldProblems, RequestError } from '@/api/request';
import { checkField, type FieldSpec } from '@/utils/formRules';
import { notify } from '@/utils/notify';

/**
 * Per-field validation of a form: each field is checked
 * with the form rules when the user leaves it and all of them on Save; the
 * message shows on the field (Fluent `Field` validationMessage, with
 * `data-field={key}` on the Field) and Save focuses the first field at
 * fault. A server 400 that names fields (`data.fields`) is put on those
 * fields the same way; what the form does not show is toasted.
 */
export function useFieldErrors<K extends string>(specs: () => ReadonlyArray<[K, FieldSpec]>) {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const container = useRef<HTMLDivElement>(null);

  const focus = useCallback((k: K) => {
    const wrap = container.current?.querySelector<HTMLElement>(`[data-field="${k}"]`);
    const target = wrap?.querySelector<HTMLElement>('input:not([disabled]), textarea, button:not([disabled]), [tabindex]:not([tabindex="-1"])');
    target?.focus();
  }, []);

  // Focus moves once the messages are on screen (a message may move the field).
  const focusNext = useRef<K | undefined>(undefined);
  useEffect(() => {
    if (focusNext.current === undefined) return;
    focus(focusNext.current);
    focusNext.current = undefined;
  }, [errors, focus]);

  const setError = useCallback((k: K, message: string | undefined) => setErrors((e) => ({ ...e, [k]: message })), []);

  /** Check one field (on blur, or on change once it is marked). */
  const check = (k: K, value: unknown): string | undefined => {
    const spec = specs().find(([key]) => key === k)?.[1];
    const why = spec ? checkField(value, spec.rules, spec.label, lang) : undefined;
    setError(k, why);
    return why;
  };

  /**
   * The blur handler of a field. Leaving a field for the dialog's buttons
   * (`data-no-blur-check`) checks nothing: Save checks every field anyway, and
   * a message appearing between the button's mousedown and mouseup would move
   * the button away from the pointer and lose the click.
   */
  const onLeave = (k: K, value: () => unknown) => (e: FocusEvent<HTMLElement>) => {
    const to = e.relatedTarget as HTMLElement | null;
    if (to?.closest('[data-no-blur-check]')) return;
    check(k, value());
  };

  /** Check every field (Save): marks them all, focuses the first at fault; true when all pass. */
  const checkAll = (values: Record<K, unknown>, extra: Partial<Record<K, string>> = {}): boolean => {
    const next: Partial<Record<K, string>> = {};
    let first: K | undefined;
    for (const [k, spec] of specs()) {
      const why = checkField(values[k], spec.rules, spec.label, lang) ?? extra[k];
      if (why) {
        next[k] = why;
        first ??= k;
      }
    }
    focusNext.current = first;
    setErrors(next);
    return first === undefined;
  };

  /**
   * Put a failed save's 400 on the fields it names; `toKey` maps the server's
   * field (`lat`, `connectors[0].qrCode`) to the form's key, or undefined when
   * the form has no such field. Returns true when at least one field was marked.
   */
  const fromServer = (err: unknown, toKey: (serverField: string) => K | undefined): boolean => {
    if (!(err instanceof RequestError) || Number(err.code) !== 400) return false;
    const problems = fieldProblems(err.body);
    if (problems.length === 0) return false;
    const zh = lang.startsWith('zh');
    const next: Partial<Record<K, string>> = {};
    const unshown: string[] = [];
    let first: K | undefined;
    for (const p of problems) {
      const k = toKey(p.field);
      const text = zh ? p.zh : p.en;
      if (k === undefined) unshown.push(text);
      else if (!next[k]) {
        next[k] = text;
        first ??= k;
      }
    }
    focusNext.current = first;
    setErrors(next);
    // Problems with no field on this form still need saying.
    if (unshown.length) notify(unshown.join(zh ? '；' : '; '), 'error');
    return true;
  };

  const reset = useCallback(() => setErrors({}), []);

  return { errors, check, onLeave, checkAll, fromServer, setError, reset, container, focus };
}
