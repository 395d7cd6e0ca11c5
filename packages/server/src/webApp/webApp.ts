/**
 * The built web app (packages/web/dist) and every path the API does not own:
 * - files are served as they are; hashed files under /assets/ are cached for a year, everything
 *   else (index.html, sw.js, manifest.webmanifest, icons) is revalidated on each use, so that a new
 *   service worker or app version is seen at once;
 * - a GET for a page (Accept: text/html, or any type for a path without a file extension) that
 *   matches no file gets index.html: the app's router draws it (history API fallback);
 * - unknown /api/ paths and other unmatched requests get a JSON 404;
 * - when the app is not built, non-API GETs answer 503 saying how to build it.
 */
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appWide } from '../http/appWide.ts';
import { sendNotFound } from '../http/errors.ts';

export interface WebAppOptions {
  /** Absolute path of the built web app. */
  webDist: string;
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

export const NOT_BUILT_MESSAGE =
  'Nemuri Monitor: the web app is not built yet. Run `npm run build`, then reload this page.\n';

/** Cache-Control for a file given by its path relative to the dist folder. */
export function cacheControlFor(relativePath: string): string {
  return relativePath.split(sep).join('/').startsWith('assets/') ? IMMUTABLE : REVALIDATE;
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** A page request: a browser (Accept: text/html) or a plain client (any type) asking for a path without a file extension. */
function wantsPage(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '*/*';
  if (accept.includes('text/html')) return true;
  const path = request.url.split('?')[0] ?? '';
  if (path.startsWith('/assets/')) return false;
  return accept.includes('*/*') && !/\.[a-z0-9]+$/i.test(path);
}

// App-wide because it sets the app's not-found handler.
export const webAppPlugin = appWide<WebAppOptions>(async (app, { webDist }) => {
  const indexHtml = join(webDist, 'index.html');
  if (!existsSync(indexHtml)) app.log.warn(`the web app is not built (no ${indexHtml}): run \`npm run build\``);

  await app.register(fastifyStatic, {
    root: webDist,
    // Not built yet is a normal state in development: reported above and answered with 503.
    suppressWarning: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', cacheControlFor(relative(webDist, filePath)));
    },
  });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    if (isApiPath(request.url)) return sendNotFound(request, reply);
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (isRead && !existsSync(indexHtml)) {
      return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT_MESSAGE);
    }
    if (isRead && wantsPage(request)) return reply.code(200).sendFile('index.html');
    return sendNotFound(request, reply);
  });
});
