import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Module<T> = { default: T };

/**
 * A lazily loaded component that can be loaded ahead of its first render.
 * Once loaded, its first render does not suspend: React.lazy only stays
 * synchronous when the factory's thenable calls back at once, so a loaded
 * module is handed over through such a thenable. This matters beyond one
 * render: a Suspense fallback shown at all makes React hold the content
 * back for its reveal throttle (300 ms), which was most of the time between
 * the session's answers and the first screen.
 */
export function preloadable<T extends ComponentType>(load: () => Promise<Module<T>>): {
  Component: LazyExoticComponent<T>;
  preload: () => Promise<Module<T>>;
} {
  let loaded: Module<T> | undefined;
  let loading: Promise<Module<T>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (m) => (loaded = m),
      (err) => {
        loading = undefined; // a failed chunk may be asked for again
        throw err;
      },
    ));
  const Component = lazy(() => (loaded ? ({ then: (resolve: (m: Module<T>) => void) => resolve(loaded!) } as PromiseLike<Module<T>> as Promise<Module<T>>) : preload()));
  return { Component, preload };
}
