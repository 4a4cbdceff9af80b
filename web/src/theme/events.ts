/**
 * The spec's 'theme' (open the drawer) and 'random-theme' events, as DOM
 * events on window so any part of the app (or a console) can raise them.
 */
export type ThemeEvent = 'theme' | 'random-theme';

export const emitThemeEvent = (name: ThemeEvent): void => {
  window.dispatchEvent(new Event(name));
};

export function onThemeEvent(name: ThemeEvent, handler: () => void): () => void {
  window.addEventListener(name, handler);
  return () => window.removeEventListener(name, handler);
}
