/**
 * Security headers on every response, API and web app alike, including errors. The content
 * security policy is the one the React/Mantine app runs under: scripts only from this origin,
 * inline styles allowed (Mantine sets style attributes), WebSockets to any host for live data.
 */
import { appWide } from './appWide.ts';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

export const securityHeadersPlugin = appWide('securityHeaders', async (app) => {
  app.addHook('onSend', async (request, reply) => {
    reply.headers(SECURITY_HEADERS);
    // API answers are per user and per moment: never stored by browsers, proxies or the service worker.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
});
