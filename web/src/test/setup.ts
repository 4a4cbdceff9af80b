import '@testing-library/jest-dom/vitest';

// jsdom lacks these browser APIs that Fluent UI and the shell use.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom does not lay out, so it has no scrolling: make the calls no-ops.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
window.scrollTo = (() => {}) as typeof window.scrollTo;

// The areas' strings arrive with the first page in the app; tests render
// pages and components directly, so they get them before any test runs.
import { loadFeatureStrings } from '@/pages/featureStrings';
await loadFeatureStrings();
