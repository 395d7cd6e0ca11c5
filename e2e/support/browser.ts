import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, type TestContext } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Flags that keep Chromium from reaching for the network on a machine that has none.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Browser tests need Chromium at ${CHROMIUM}: install Debian's package with "apt-get install -y chromium" (.ci/run does this).`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A fresh browser profile (no stored theme, language or service worker), in Japan's time zone. */
export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({ baseURL, locale: 'ja-JP', timezoneId: 'Asia/Tokyo', viewport: { width: 1280, height: 800 } });
}

/** Collects console errors so a test can assert the page ran clean (or logged what it should). */
export function watchConsole(page: Page): { errors: string[]; messages: string[] } {
  const errors: string[] = [];
  const messages: string[] = [];
  page.on('console', (message) => {
    messages.push(`${message.type()}: ${message.text()}`);
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { errors, messages };
}

function launched<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is only there inside a test`);
  return value;
}

const SHOWN_TEXT = 1_500;

/**
 * After a failed test, what each open tab shows (address and visible text): a wait that ran out under
 * a loaded CI run otherwise says only what it waited for, not what the page showed instead.
 */
async function showOpenPages(contexts: readonly BrowserContext[], { task }: TestContext): Promise<void> {
  if (task.result?.state !== 'fail') return;
  for (const context of contexts) {
    for (const page of context.pages()) {
      const text = await page
        .evaluate(() => document.body.innerText, undefined)
        .catch((error: unknown) => `(no text: ${error instanceof Error ? error.message : String(error)})`);
      console.error(`[${task.name}] open tab ${page.url()}:\n${text.replace(/\n{2,}/g, '\n').slice(0, SHOWN_TEXT)}`);
    }
  }
}

/** One Chromium for the whole test file. */
export function useBrowser(): { readonly browser: Browser } {
  const state: { browser?: Browser } = {};
  beforeAll(async () => {
    state.browser = await launchBrowser();
  });
  afterEach(async (context) => {
    await showOpenPages(state.browser?.contexts() ?? [], context);
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return {
    get browser() {
      return launched(state.browser, 'the browser');
    },
  };
}

/** One Chromium for the file, and a fresh profile with one tab for every test. */
export function useBrowserTab(baseURL: string): { readonly browser: Browser; readonly context: BrowserContext; readonly page: Page } {
  const shared = useBrowser();
  const state: { context?: BrowserContext; page?: Page } = {};
  beforeEach(async () => {
    state.context = await newContext(shared.browser, baseURL);
    state.page = await state.context.newPage();
  });
  afterEach(async (context) => {
    // Hooks run last-registered first: the tab is shown here, before it is closed.
    await showOpenPages(state.context === undefined ? [] : [state.context], context);
    await state.context?.close();
  });
  return {
    get browser() {
      return shared.browser;
    },
    get context() {
      return launched(state.context, 'the browser context');
    },
    get page() {
      return launched(state.page, 'the page');
    },
  };
}
