/**
 * The live socket's heartbeat, with a short interval: pings keep an answering socket open, and a
 * socket whose session has ended is closed with 4401. The live plugin runs in a small app of its
 * own here (the real one pings every 30 s): the caller comes from a header, and sign-in is a
 * stand-in that says whether the session still holds.
 */
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auth } from '../auth/auth.ts';
import '../auth/principal.ts';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { livePlugin, SESSION_ENDED } from './livePlugin.ts';
import { LiveSocket, settle } from './testing.ts';

describe('the live socket heartbeat', () => {
  let database: Database;
  let app: FastifyInstance;
  let url: string;
  const ended = new Set<string>();

  beforeAll(async () => {
    database = await openPglite(null);
    await migrate(database);
    // Only what livePlugin uses of sign-in: the session of a request's headers.
    const auth = {
      api: {
        getSession: async ({ headers }: { headers: Headers }) => {
          const uid = /uid=([^;]+)/.exec(headers.get('cookie') ?? '')?.[1];
          return uid === undefined || ended.has(uid) ? null : { user: { id: uid } };
        },
      },
    } as unknown as Auth;
    app = Fastify();
    app.decorateRequest('principal', null);
    app.addHook('preHandler', async (request) => {
      const uid = /uid=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
      request.principal = uid === undefined ? null : { uid, accessLevel: ROLE_LEVELS.developer, domainId: 'maker', rootDomainId: 'maker' };
    });
    await app.register(websocket);
    await app.register(livePlugin, { database, auth, heartbeatMs: 100 });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('keeps a socket that answers pings, and closes it with 4401 once its session has ended', async () => {
    const kept = await LiveSocket.open(url, 'uid=kept');
    const leaving = await LiveSocket.open(url, 'uid=leaving');
    kept.subscribe(1, { document: 'rooms/r1' });
    expect(await kept.until(1)).toEqual({ type: 'snapshot', id: 1, document: null });
    await settle(350);
    ended.add('leaving');
    expect(await leaving.closed).toBe(SESSION_ENDED);
    await settle(250);
    kept.subscribe(2, { count: { collection: 'rooms' } });
    expect(await kept.until(2)).toEqual({ type: 'snapshot', id: 2, count: 0 });
    await kept.close();
  });
});
