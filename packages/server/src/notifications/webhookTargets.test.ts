/**
 * The attacker's view of webhook addresses (SSRF): an administrator's webhook URL must not make the
 * server call into its own network — not by an address literal, not by a name that resolves
 * inside, and not by a name that resolved outside when saved and inside when sent (DNS rebinding).
 * Names get their addresses from the test's resolver; the "inside" service is a real TCP listener
 * on 127.0.0.1 that counts the connections it is offered.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { webhookChannel } from './channels/webhookChannel.ts';
import { guardedLookup, InsideNetworkError, isInsideAddress, webhookRefusal, type HostResolver } from './targets.ts';
import { startHarness, type Harness } from './testing/notifyHarness.ts';

const NOON = Date.parse('2026-03-10T03:00:00Z');
const PUBLIC = '93.184.216.34';

/** Names and what they resolve to now; a name not listed does not resolve. */
const zone = new Map<string, string[]>();
const resolver: HostResolver = async (hostname) => {
  const addresses = zone.get(hostname);
  if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('isInsideAddress', () => {
  it('refuses loopback, private, link-local, metadata and mapped forms of them; lets public addresses through', () => {
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '10.0.0.5',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.10',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '[::1]',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a00:5',
      'not-an-address',
    ]) {
      expect(isInsideAddress(address), address).toBe(true);
    }
    for (const address of [PUBLIC, '8.8.8.8', '172.32.0.1', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:5db8:d822']) {
      expect(isInsideAddress(address), address).toBe(false);
    }
  });
});

describe('webhookRefusal (when the address is saved)', () => {
  beforeEach(() => {
    zone.clear();
    zone.set('hooks.example.com', [PUBLIC]);
    zone.set('intranet.example.com', ['10.0.0.5']);
    zone.set('split.example.com', [PUBLIC, '127.0.0.1']);
    zone.set('mapped.example.com', ['::ffff:127.0.0.1']);
  });

  it('refuses names that lead inside, literals inside, and http; accepts public names and those that do not resolve yet', async () => {
    expect(await webhookRefusal('https://hooks.example.com/nemuri', [], resolver)).toBeNull();
    expect(await webhookRefusal('https://not-yet.example.com/nemuri', [], resolver)).toBeNull();
    expect(await webhookRefusal('https://intranet.example.com/h', [], resolver)).toBe('intranet.example.com resolves to 10.0.0.5, inside the network');
    expect(await webhookRefusal('https://split.example.com/h', [], resolver)).toBe('split.example.com resolves to 127.0.0.1, inside the network');
    expect(await webhookRefusal('https://mapped.example.com/h', [], resolver)).toBe('mapped.example.com resolves to ::ffff:127.0.0.1, inside the network');
    // The URL parser turns these into 127.0.0.1 and 100.64.0.1.
    expect(await webhookRefusal('https://0x7f.1/h', [], resolver)).not.toBeNull();
    expect(await webhookRefusal('https://100.64.0.1/h', [], resolver)).toBe('100.64.0.1 is inside the network');
    expect(await webhookRefusal('http://hooks.example.com/h', [], resolver)).toBe('must be https to a public host');
  });

  it('lets the operator’s explicit origins through whatever they resolve to', async () => {
    expect(await webhookRefusal('http://127.0.0.1:4100/hook', ['http://127.0.0.1:4100'], resolver)).toBeNull();
    expect(await webhookRefusal('https://intranet.example.com/h', ['https://intranet.example.com'], resolver)).toBeNull();
  });
});

describe('guardedLookup (each connection)', () => {
  it('hands the connection only checked public addresses, and refuses a name with any address inside', async () => {
    zone.set('hooks.example.com', [PUBLIC]);
    zone.set('split.example.com', [PUBLIC, '127.0.0.1']);
    const lookup = guardedLookup(resolver);
    const run = (hostname: string, all: boolean) =>
      new Promise<unknown>((resolve, reject) =>
        lookup(hostname, { all }, (error, address, family) => (error === null ? resolve(all ? address : [address, family]) : reject(error))),
      );
    expect(await run('hooks.example.com', false)).toEqual([PUBLIC, 4]);
    expect(await run('hooks.example.com', true)).toEqual([{ address: PUBLIC, family: 4 }]);
    await expect(run('split.example.com', true)).rejects.toBeInstanceOf(InsideNetworkError);
  });
});

describe('a webhook whose name is rebound inside after it was saved', () => {
  let database: Database;
  let h: Harness;
  let inside: Server;
  let port: number;
  const offered: Socket[] = [];

  beforeAll(async () => {
    inside = createServer((socket) => {
      offered.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
    port = (inside.address() as AddressInfo).port;
    database = await openPglite(null);
    await migrate(database);
    // No extra origins: the webhook channel as production runs it, with the test's resolver.
    h = await startHarness(database, NOON, { webhook: webhookChannel(database, [], () => h.clock.now, resolver) });
  }, 120_000);

  afterAll(async () => {
    await h.close();
    await database.close();
    await new Promise((resolve) => inside.close(resolve));
  });

  it('refuses the request at send time, connects nowhere, does not retry, and logs why', async () => {
    zone.set('rebind.example.com', [PUBLIC]);
    const url = `https://rebind.example.com:${port}/hook`;
    // When saved, the name led to a public address.
    expect(await webhookRefusal(url, [], resolver)).toBeNull();
    await h.settings({ webhookUrl: url, escalation: [{ target: 'administrators', afterMin: 0 }] }, 'rebind-secret');
    // Then its owner pointed it at the server's own network.
    zone.set('rebind.example.com', ['127.0.0.1']);
    const alertId = await h.openAlert('room-1', 'button');
    await h.advance(60 * 60_000);
    const { rows } = await database.query<{ status: string; attempts: number; last_error: string }>(
      `select status, attempts, last_error from notify_queue where alert_id = $1 and channel = 'webhook'`,
      [alertId],
    );
    expect(rows).toEqual([{ status: 'failed', attempts: 1, last_error: 'rebind.example.com resolves to 127.0.0.1, inside the network' }]);
    expect(offered.length).toBe(0);
    expect(h.webhook.hooks).toEqual([]);
  });

  it('refuses an address literal inside the network at send time as well', async () => {
    await h.reset(NOON);
    await h.settings({ webhookUrl: `https://[::ffff:7f00:1]:${port}/hook`, escalation: [{ target: 'administrators', afterMin: 0 }] }, 'rebind-secret');
    const alertId = await h.openAlert('room-1', 'button');
    const { rows } = await database.query<{ status: string; last_error: string }>(
      `select status, last_error from notify_queue where alert_id = $1 and channel = 'webhook'`,
      [alertId],
    );
    expect(rows).toEqual([{ status: 'failed', last_error: 'the webhook address is not allowed' }]);
    expect(offered.length).toBe(0);
  });
});
