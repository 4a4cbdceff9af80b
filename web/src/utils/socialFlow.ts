/**
 * The social-login flows this tab started, kept in sessionStorage (one tab,
 * survives the round trip to the provider, gone with the tab) by `state`:
 * the `binding` the server wants back with the code, and what the flow is
 * for. A return whose state this tab did not start finds nothing here.
 */
export type SocialIntent = 'signIn' | 'link';

interface Pending {
  binding: string;
  intent: SocialIntent;
  /** Where to go after a link (the personal center's route). */
  back?: string;
}

const PREFIX = 'social-flow:';

export function rememberFlow(state: string, pending: Pending): void {
  sessionStorage.setItem(PREFIX + state, JSON.stringify(pending));
}

/** The flow of a returning state, removed: a state is used once. */
export function takeFlow(state: string): Pending | null {
  const key = PREFIX + state;
  const raw = sessionStorage.getItem(key);
  sessionStorage.removeItem(key);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<Pending>;
    if (typeof parsed.binding !== 'string' || (parsed.intent !== 'signIn' && parsed.intent !== 'link')) return null;
    return { binding: parsed.binding, intent: parsed.intent, back: typeof parsed.back === 'string' ? parsed.back : undefined };
  } catch {
    return null;
  }
}

/** Starts a flow: remembers it, then sends the browser to the provider. */
export function goToProvider(auth: { url: string; state: string; binding: string }, intent: SocialIntent, back?: string): void {
  rememberFlow(auth.state, { binding: auth.binding, intent, back });
  window.location.assign(auth.url);
}
