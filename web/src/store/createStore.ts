import { useSyncExternalStore } from 'react';

/**
 * A minimal external store: one state object, set/merge, subscribe, and a
 * selector hook. Enough for the shell's few global facts; a state library
 * would add weight for nothing. Non-React code (request layer, guard) reads
 * and writes the same store through get/set.
 */
export interface Store<S> {
  get(): S;
  set(next: Partial<S> | ((s: S) => Partial<S>)): void;
  subscribe(listener: () => void): () => void;
  use<T>(selector: (s: S) => T): T;
}

export function createStore<S extends object>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<() => void>();
  const store: Store<S> = {
    get: () => state,
    set(next) {
      const patch = typeof next === 'function' ? next(state) : next;
      state = { ...state, ...patch };
      listeners.forEach((l) => l());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    use<T>(selector: (s: S) => T): T {
      return useSyncExternalStore(store.subscribe, () => selector(state), () => selector(state));
    },
  };
  return store;
}
