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
          if (!COMPRESSIBLE.test(file) || file === join(outDir, 'sw.js')) continue;
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

// Vendor code changes rarely; keeping it in its own chunks lets browsers cache it across releases
// and keeps the first screen's JavaScript small (every route is lazy on top of this).
const vendorGroups = [
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'vendor-mantine', test: /node_modules[\\/]@mantine[\\/]/ },
  { name: 'vendor-i18n', test: /node_modules[\\/](i18next|react-i18next|dayjs)[\\/]/ },
  { name: 'vendor-icons', test: /node_modules[\\/]@tabler[\\/]/ },
];

export default defineConfig({
  base: '/',
  // JSX uses Vite's built-in Oxc transform (automatic runtime); no React plugin is needed to build.
  plugins: [
    VitePWA({
      strategies: 'generateSW',
      filename: 'sw.js',
      // The app shows its own update notice and activates the new worker when the user agrees.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icon.svg'],
      manifest: {
        name: 'ねむりモニター',
        short_name: 'ねむり',
        lang: 'ja',
        start_url: '/',
        display: 'standalone',
        background_color: '#1a1b1e',
        theme_color: '#1a1b1e',
        icons: [{ src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,webmanifest,wasm}'],
        navigateFallback: '/index.html',
        // Paths for programs, never pages (the server answers them with a JSON 404 when unknown).
        navigateFallbackDenylist: [/^\/api\//, /^\/metrics(?:\/|$)/],
        cleanupOutdatedCaches: true,
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
