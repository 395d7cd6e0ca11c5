import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

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

const NODE_MODULES = /node_modules[\\/]/;
const APP_SOURCE = /packages[\\/](web|shared)[\\/]src[\\/]/;
const ENTRY_MODULES = /web[\\/]src[\\/](main\.tsx|app[\\/]shell[\\/]notificationWorker\.ts)$/;

/**
 * What the sign-in pages (login, sign-up, registration, SSO: the plain layout's screens) share
 * beyond the shell: the authentication client and the form parts of Mantine. One chunk, fetched
 * beside the sign-in screen's own: a cold first page on a slow network pays a round trip per
 * request wave, and a scatter of small shared chunks would make several.
 */
const SIGN_IN_KIT = [
  /web[\\/]src[\\/]lib[\\/](authClient|authErrorMessage|useAuthAction|credentialRules|appInfo)\.ts$/,
  /web[\\/]src[\\/]components[\\/](ScreenPage|SocialSignIn)\.tsx$/,
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
  // The app's own start-up code (besides the entry module): named here so that no later group
  // takes part of it with a dependency and makes that group's chunk part of the first page.
  // The entry modules stay in their own chunks: the notification handlers (another entry) are
  // loaded by the service worker with importScripts and must not import anything.
  { name: 'app-shell', test: (id: string) => APP_SOURCE.test(id) && !ENTRY_MODULES.test(id), tags: ['$initial' as const], priority: 4 },
  { name: 'parser', test: /packages[\\/]parser[\\/]src[\\/]/, priority: 3 },
  { name: 'sign-in', test: (id: string) => SIGN_IN_KIT.some((pattern) => pattern.test(id)), priority: 2 },
  { name: 'vendor-mantine', test: /node_modules[\\/]@mantine[\\/]/, priority: 1 },
  { name: 'vendor-icons', test: /node_modules[\\/]@tabler[\\/]/, priority: 1 },
];

export default defineConfig({
  base: '/',
  // JSX uses Vite's built-in Oxc transform (automatic runtime); no React plugin is needed to build.
  plugins: [
    notificationWorker(),
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
