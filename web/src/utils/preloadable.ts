import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from '@/config';

type Module<T> = { default: T };

/**
 * A page's code that did not arrive: the request failed, or nothing came
 * within CHUNK_LOAD_TIMEOUT_MS (120 s). The tab shows a retry
 * (`ChunkBoundary`) instead of a blank page.
 */
export class ChunkLoadError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'ChunkLoadError';
  }
}

/** `load()`, failing with a ChunkLoadError when it fails or takes longer than `ms`. */
export function withChunkTimeout<T>(load: () => Promise<T>, ms: number = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`The page's code did not load within ${Math.round(ms / 1000)} s`, true)), ms);
    load().then(
      (m) => {
        clearTimeout(timer);
        resolve(m);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof ChunkLoadError ? err : new ChunkLoadError(err instanceof Error ? err.message : String(err), false));
      },
    );
  });
}

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
  fresh: () => LazyExoticComponent<T>;
} {
  let loaded: Module<T> | undefined;
  let loading: Promise<Module<T>> | undefined;
  const preload = () =>
    (loading ??= withChunkTimeout(load).then(
      (m) => (loaded = m),
      (err) => {
        loading = undefined; // a failed chunk may be asked for again
        throw err;
      },
    ));
  // React.lazy keeps a rejection for good, so a retry needs a new component
  // (`fresh`); the module, once it arrives, is shared by all of them.
  const fresh = () => lazy(() => (loaded ? ({ then: (resolve: (m: Module<T>) => void) => resolve(loaded!) } as PromiseLike<Module<T>> as Promise<Module<T>>) : preload()));
  return { Component: fresh(), preload, fresh };
}
