import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// `findBy…` and `waitFor` wait for a state of the page; their deadline only
// bounds a failure. Testing Library's 1 s default is shorter than the first
// load of a lazy page while the machine is busy (the app tests then failed
// with the login form still a spinner): wait up to 10 s, within the tests'
// own 15 s limit.
configure({ asyncUtilTimeout: 10_000 });

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
