import { defineConfig } from 'vitest/config';
import { translationParts } from './packages/web/src/locales/translationPartsPlugin.ts';

/**
 * One test command, five projects: shared rules, the WebAssembly parser against real recordings, the server against real databases, the web app in
 * jsdom, and end-to-end browser tests against one built server (run after `vite build`).
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', environment: 'node', include: ['packages/shared/src/**/*.test.ts'] } },
      {
        test: {
          name: 'parser',
          environment: 'node',
          include: ['packages/parser/src/**/*.test.ts'],
          // Builds packages/parser/dist (the WebAssembly module) when it is missing or stale.
          globalSetup: ['packages/parser/scripts/build.mjs'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['packages/server/src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'simulator', environment: 'node', include: ['packages/simulator/src/**/*.test.ts'] } },
      { test: { name: 'analysis', environment: 'node', include: ['packages/analysis/src/**/*.test.ts'] } },
      {
        // The language files' parts, as the build makes them (src/lib/i18n.ts imports them so).
        plugins: [translationParts()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['packages/web/src/**/*.test.{ts,tsx}'],
          // Rendering a whole Mantine form in jsdom takes seconds on a busy 2-core machine.
          testTimeout: 20_000,
          setupFiles: ['packages/web/src/testing/setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['e2e/support/globalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 150_000,
          // A page under a loaded machine can take seconds to settle: 1 s (vitest's default) made
          // polls that wait for a page fail by timing alone. Polls that wait longer say so themselves.
          expect: { poll: { timeout: 10_000, interval: 100 } },
          // Each file drives its own browser; two at a time suits the 2-core machine.
          maxWorkers: 2,
        },
      },
    ],
  },
});
