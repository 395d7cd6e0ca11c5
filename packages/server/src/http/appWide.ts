/**
 * Marks a plugin as app-wide: its hooks and handlers apply to the whole app instead of only to
 * routes it registers itself. This is Fastify's documented `skip-override` property, the same
 * thing the fastify-plugin package sets.
 */
import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

export function appWide<Options extends FastifyPluginOptions = Record<never, never>>(plugin: FastifyPluginAsync<Options>): FastifyPluginAsync<Options> {
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
}
