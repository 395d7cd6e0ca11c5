/**
 * The built web app (packages/web/dist) and every path the API does not own:
 * - files are served as they are; hashed files under /assets/ are cached for a year, everything
 *   else (index.html, sw.js, manifest.webmanifest, icons) is revalidated on each use, so that a new
 *   service worker or app version is seen at once;
 * - a GET for one of the app's pages (a path of the route table, shared/routeAccess.ts), from a
 *   browser (Accept: text/html) or a plain client (any type), gets index.html: the app's router
 *   draws it (history API fallback);
 * - a browser asking for another path without a file extension gets index.html with status 404:
 *   the app draws its not-found screen, and the status stays honest;
 * - /api and /metrics (paths for programs, never pages), files that do not exist and other
 *   unmatched requests get a JSON 404, so a monitor or script never mistakes the app for an answer;
 * - when the app is not built, non-API GETs answer 503 saying how to build it;
 * - a file's brotli or gzip copy made at build time (`<file>.br`, `<file>.gz`, packages/web/vite.config.ts)
 *   is sent instead when the browser accepts it, with Content-Encoding and Vary: Accept-Encoding.
 */
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import { ALL_ROUTES } from '@nemuri/shared/routeAccess';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appWide } from '../http/appWide.ts';
import { sendNotFound } from '../http/errors.ts';

export interface WebAppOptions {
  /** Absolute path of the built web app. */
  webDist: string;
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

export const NOT_BUILT_MESSAGE = 'Nemuri Monitor: the web app is not built yet. Run `npm run build`, then reload this page.\n';

/** Cache-Control for a file given by its path relative to the dist folder. */
export function cacheControlFor(relativePath: string): string {
  return relativePath.split(sep).join('/').startsWith('assets/') ? IMMUTABLE : REVALIDATE;
}

/** Paths for programs: never answered with the app's HTML. */
const PROGRAM_PREFIXES = ['/api', '/metrics'];

function isProgramPath(path: string): boolean {
  return PROGRAM_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

function patternOf(fullPath: string): RegExp {
  const segments = fullPath.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}/?$`);
}

const APP_ROUTE_PATTERNS = ALL_ROUTES.map((route) => patternOf(route.fullPath));

/** Whether the web app's router has a page at this path (without its query). */
export function isAppRoute(path: string): boolean {
  return APP_ROUTE_PATTERNS.some((pattern) => pattern.test(path));
}

type PageAnswer = 'page' | 'notFoundPage' | 'json';

function pageAnswerFor(request: FastifyRequest, path: string): PageAnswer {
  const accept = request.headers.accept ?? '*/*';
  const browser = accept.includes('text/html');
  if (isAppRoute(path)) return browser || accept.includes('*/*') ? 'page' : 'json';
  if (browser && !path.startsWith('/assets/') && !/\.[a-z0-9]+$/i.test(path)) return 'notFoundPage';
  return 'json';
}

// App-wide because it sets the app's not-found handler.
export const webAppPlugin = appWide<WebAppOptions>('webApp', async (app, { webDist }) => {
  const indexHtml = join(webDist, 'index.html');
  if (!existsSync(indexHtml)) app.log.warn(`the web app is not built (no ${indexHtml}): run \`npm run build\``);

  await app.register(fastifyStatic, {
    root: webDist,
    // Not built yet is a normal state in development: reported above and answered with 503.
    suppressWarning: true,
    cacheControl: false,
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', cacheControlFor(relative(webDist, filePath)));
    },
  });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (isProgramPath(path) || !isRead) return sendNotFound(request, reply);
    if (!existsSync(indexHtml)) {
      return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT_MESSAGE);
    }
    const answer = pageAnswerFor(request, path);
    if (answer === 'json') return sendNotFound(request, reply);
    return reply.code(answer === 'page' ? 200 : 404).sendFile('index.html');
  });
});
