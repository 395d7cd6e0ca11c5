/**
 * An app-wide plugin: its hooks and handlers apply to the whole app instead of only to routes it
 * registers itself (fastify-plugin's `skip-override`), under a name other plugins can list in their
 * `dependencies` and that Fastify checks at registration.
 */
import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';
import fp from 'fastify-plugin';

export function appWide<Options extends FastifyPluginOptions = Record<never, never>>(
  name: string,
  plugin: FastifyPluginAsync<Options>,
  dependencies: string[] = [],
): FastifyPluginAsync<Options> {
  return fp(plugin, { name, dependencies });
}
