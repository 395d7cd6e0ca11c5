import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// The first render of a lazy route compiles its module; on a busy 2-core machine that can pass 1 s.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks the layout APIs Mantine reads; these stand-ins behave like a desktop browser.
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  });
}

class ResizeObserverStandIn {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: typeof ResizeObserverStandIn }).ResizeObserver = ResizeObserverStandIn;
}

window.scrollTo = () => undefined;

afterEach(() => {
  cleanup();
});
