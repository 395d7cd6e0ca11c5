import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin, type HtmlTagDescriptor } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { translationParts } from './src/locales/translationPartsPlugin.ts';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text files worth compressing: the server sends `<file>.br` or `<file>.gz` when the browser accepts it. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|wasm|txt)$/;
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Brotli (best quality) and gzip copies of the built files, made once at build time so the server
 * never compresses a static file per request (@fastify/static `preCompressed`). Last, after the
 * service worker is written; the copies' extensions keep them out of the worker's precache list.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'nemuri-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        let before = 0;
        let after = 0;
        for (const file of await filesUnder(outDir)) {
          // sw.js is what browsers compare byte for byte to find a new release: it is sent as it
          // is on disk (compressed per request), so a copy can never be older than the file.
          if (!COMPRESSIBLE.test(file) || file === join(outDir, 'sw.js') || file === join(outDir, NOTIFICATION_WORKER)) continue;
          const content = await readFile(file);
          if (content.length < MIN_BYTES) continue;
          const [br, gz] = await Promise.all([
            brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
            gzipped(content, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
          before += content.length;
          after += br.length;
        }
        this.info(`precompressed ${Math.round(before / 1024)} kB of text files to ${Math.round(after / 1024)} kB (brotli)`);
      },
    },
  };
}

/** The service worker's notification handlers (src/app/shell/notificationWorker.ts), imported by /sw.js. */
const NOTIFICATION_WORKER = 'sw-notifications.js';

/**
 * Builds the notification handlers as their own file with a fixed name: Workbox's generated worker
 * loads it with importScripts, and browsers compare imported scripts byte for byte on update
 * checks, so a changed handler is a new release of the worker.
 */
function notificationWorker(): Plugin {
  return {
    name: 'nemuri-notification-worker',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: resolve(import.meta.dirname, 'src/app/shell/notificationWorker.ts'), fileName: NOTIFICATION_WORKER });
    },
    // importScripts runs a classic script: an import in it (a module moved to a shared chunk by
    // the code-splitting groups below) would stop the worker from installing.
    generateBundle(_options, bundle) {
      const chunk = bundle[NOTIFICATION_WORKER];
      if (chunk?.type === 'chunk' && (chunk.imports.length > 0 || chunk.dynamicImports.length > 0)) {
        this.error(`${NOTIFICATION_WORKER} must be self-contained, but it imports ${[...chunk.imports, ...chunk.dynamicImports].join(', ')}`);
      }
    },
  };
}

/** index.html's session check (src/lib/http/sessionCheck.ts): a build entry of its own. */
const SESSION_CHECK = resolve(import.meta.dirname, 'src/lib/http/sessionCheck.ts');
/**
 * Lazy chunks that the first page of a signed-out visit (the sign-in page, where `/` sends them)
 * always needs: the sign-in screen and the default language's translations.
 */
const FIRST_PAGE_CHUNKS = [/web[\\/]src[\\/]features[\\/]auth[\\/]LoginScreen\.tsx$/, /web[\\/]src[\\/]locales[\\/]ja-first\.translations\.js$/];

/**
 * What index.html asks for at once so that a cold first page waits for one wave of requests after
 * the HTML, not three (HTML → app code → the sign-in screen's chunks and the session check, each a
 * round trip of ≈ 0.6 s on a slow mobile network; `npm run bench:first-page`):
 * - the session check, a module of its own that starts `GET /api/me` while the app's code downloads;
 * - modulepreloads of the sign-in screen's and the translations' chunks, which the router and
 *   i18n would otherwise request only after the app's code has run. A visit that opens another
 *   page (signed in, cold cache: rare, the service worker keeps the app) fetches them needlessly:
 *   about 36 kB compressed.
 */
function firstPageRequests(): Plugin {
  return {
    name: 'nemuri-first-page-requests',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: SESSION_CHECK, name: 'session-check' });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (bundle === undefined) return html;
        const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const withImports = (fileName: string, into: Set<string>): Set<string> => {
          if (into.has(fileName)) return into;
          into.add(fileName);
          for (const imported of byFile.get(fileName)?.imports ?? []) withImports(imported, into);
          return into;
        };
        // What index.html loads already: its scripts and modulepreloads, and what they import.
        const initial = new Set<string>();
        for (const [, fileName] of html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)) if (fileName !== undefined) withImports(fileName, initial);
        const sessionCheck = chunks.find((chunk) => chunk.facadeModuleId === SESSION_CHECK);
        if (sessionCheck === undefined) throw new Error('the session check chunk is missing from the bundle');
        if (sessionCheck.imports.length > 0)
          throw new Error(`${sessionCheck.fileName} must not import anything (it would wait for ${sessionCheck.imports.join(', ')})`);
        const lazy = new Set<string>();
        for (const pattern of FIRST_PAGE_CHUNKS) {
          const chunk = chunks.find((candidate) => candidate.moduleIds.some((id) => pattern.test(id)));
          if (chunk === undefined) throw new Error(`no chunk for ${pattern}: the first page's preloads are out of date`);
          withImports(chunk.fileName, lazy);
        }
        const preloads = [...lazy].filter((fileName) => !initial.has(fileName));
        const styles = preloads.flatMap((fileName) => [...(byFile.get(fileName)?.viteMetadata?.importedCss ?? [])]);
        const tags: HtmlTagDescriptor[] = [
          // First in <head> and async: its request goes out before the app's code takes the line, and
          // it runs as soon as it arrives (a deferred module would wait for the whole document).
          { tag: 'script', attrs: { type: 'module', async: true, crossorigin: true, src: `/${sessionCheck.fileName}` }, injectTo: 'head-prepend' },
          ...preloads.map((fileName): HtmlTagDescriptor => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head',
          })),
          ...styles.map((fileName): HtmlTagDescriptor => ({
            tag: 'link',
            attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head',
          })),
        ];
        return tags;
      },
    },
  };
}

/** Mantine's generated class names (`m_` and 8 hex digits), in its components' code and CSS. */
const MANTINE_CLASS = /\bm_[0-9a-f]{8}\b/g;

/**
 * Keeps src/app/mantineStyles.css complete: it loads Mantine's CSS per component, and a component
 * put to use without its file would render unstyled. Every Mantine class in the bundled code must
 * have rules in the bundled CSS.
 */
function mantineStylesCheck(): Plugin {
  return {
    name: 'nemuri-mantine-styles-check',
    apply: 'build',
    generateBundle(_options, bundle) {
      const outputs = Object.values(bundle);
      const styled = new Set(
        outputs.flatMap((output) => (output.type === 'asset' && output.fileName.endsWith('.css') ? (String(output.source).match(MANTINE_CLASS) ?? []) : [])),
      );
      const missing = new Set(
        outputs.flatMap((output) => (output.type === 'chunk' ? (output.code.match(MANTINE_CLASS) ?? []) : [])).filter((name) => !styled.has(name)),
      );
      if (missing.size > 0) {
        this.error(
          `Mantine classes without CSS: ${[...missing].join(', ')}. Add the file of the component that uses them ` +
            `(grep node_modules/@mantine/*/styles for the class) to src/app/mantineStyles.css.`,
        );
      }
    },
  };
}

const NODE_MODULES = /node_modules[\\/]/;
const APP_SOURCE = /packages[\\/](web|shared)[\\/]src[\\/]/;
const ENTRY_MODULES = /web[\\/]src[\\/](app[\\/]shell[\\/]notificationWorker\.ts|lib[\\/]http[\\/]sessionCheck\.ts)$/;

/**
 * What the sign-in pages (login, sign-up, registration, SSO: the plain layout's screens) share
 * beyond the shell: the authentication client and the form parts of Mantine, with the sign-in
 * screen itself (the first page of every signed-out visit, preloaded by index.html). One chunk: a
 * cold first page on a slow network pays a round trip per request wave, HTTP/1.1 gives it six
 * connections (a seventh request waits for one), and a scatter of small chunks would make several.
 */
const SIGN_IN_KIT = [
  /web[\\/]src[\\/]lib[\\/](authClient|authErrorMessage|useAuthAction|credentialRules|appInfo)\.ts$/,
  /web[\\/]src[\\/]components[\\/](ScreenPage|SocialSignIn|OptionalPart)\.tsx$/,
  /web[\\/]src[\\/]features[\\/]auth[\\/]LoginScreen\.tsx$/,
  /shared[\\/]src[\\/](registrationErrors|appInfo)\.ts$/,
  /@mantine[\\/]core[\\/]esm[\\/]components[\\/](Input|InputBase|TextInput|PasswordInput|Anchor|Alert|Divider)[\\/]/,
];

// Chunks by how often they change and who needs them, so browsers keep vendor code across releases
// and the first page (index.html's chunks) carries only what it runs:
// - React and the router; then every library module the first page runs (Mantine's provider and
//   common parts, i18next, the shell's icons); then the app's own start-up code: all in index.html;
// - the WebAssembly parser's JavaScript, loaded after the first page by itself;
// - the sign-in kit (above);
// - Mantine's other components, and the other icons, each one chunk for all screens.
// Each screen stays its own lazy chunk (app/screens.ts).
const vendorGroups = [
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 5 },
  { name: 'vendor-initial', test: NODE_MODULES, tags: ['$initial' as const], priority: 4 },
  // The app's own start-up code, the entry module (main.tsx) included, so that index.html loads
  // it as one request: named here so that no later group takes part of it with a dependency and
  // makes that group's chunk part of the first page. The other entries stay in their own chunks:
  // the notification handlers are loaded by the service worker with importScripts, and the
  // session check must start before the app's chunks arrive; neither may import anything.
  { name: 'app-shell', test: (id: string) => APP_SOURCE.test(id) && !ENTRY_MODULES.test(id), tags: ['$initial' as const], priority: 4 },
  { name: 'parser', test: /packages[\\/]parser[\\/]src[\\/]/, priority: 3 },
  { name: 'sign-in', test: (id: string) => SIGN_IN_KIT.some((pattern) => pattern.test(id)), priority: 2 },
  // Loaded after the first page (lib/notify.ts): its own small chunk, not all of Mantine's.
  { name: 'vendor-notifications', test: /node_modules[\\/](@mantine[\\/]notifications|@mantine[\\/]store)[\\/]/, priority: 2 },
  { name: 'vendor-mantine', test: /node_modules[\\/]@mantine[\\/]/, priority: 1 },
  { name: 'vendor-icons', test: /node_modules[\\/]@tabler[\\/]/, priority: 1 },
];

export default defineConfig({
  base: '/',
  // JSX uses Vite's built-in Oxc transform (automatic runtime); no React plugin is needed to build.
  plugins: [
    notificationWorker(),
    translationParts(),
    firstPageRequests(),
    mantineStylesCheck(),
    VitePWA({
      strategies: 'generateSW',
      filename: 'sw.js',
      // The app shows its own update notice and activates the new worker when the user agrees.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icon.svg', 'icon-192.png', 'icon-512.png', 'apple-touch-icon.png'],
      manifest: {
        name: 'ねむりモニター',
        short_name: 'ねむり',
        lang: 'ja',
        start_url: '/',
        display: 'standalone',
        background_color: '#1a1b1e',
        theme_color: '#1a1b1e',
        // PNGs for Android Chrome and iOS (which ignores SVG icons); made by the repository's scripts/makeIcons.ts.
        icons: [
          { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,webmanifest,wasm}'],
        navigateFallback: '/index.html',
        // Paths for programs, never pages (the server answers them with a JSON 404 when unknown).
        navigateFallbackDenylist: [/^\/api\//, /^\/metrics(?:\/|$)/],
        cleanupOutdatedCaches: true,
        // Push notifications and their 確認/開く actions (app/shell/notificationWorker.ts).
        importScripts: [`/${NOTIFICATION_WORKER}`],
      },
    }),
    precompress(),
  ],
  build: {
    target: 'es2022',
    // Every browser the app supports knows modulepreload (Safari since 17); an older one only
    // fetches a chunk when the code that imports it arrives.
    modulePreload: { polyfill: false },
    sourcemap: false,
    rolldownOptions: {
      // Mantine marks modules "use client" for React Server Components; meaningless in this SPA.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
      output: { codeSplitting: { groups: vendorGroups } },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', ws: true } },
  },
});
