import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

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
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
      },
    }),
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
