/**
 * The process the kill -9 test kills (deliveryQueue.kill.test.ts): on the test's PostgreSQL schema
 * it opens an alert and lets the notification service work until a chosen moment, says so on
 * standard output, and waits there to be killed:
 * - `queued`: the escalation step has committed its notifications; nothing was claimed yet;
 * - `claimed`: the worker claimed them and is about to send the first one.
 */
import { alertDocument } from '@nemuri/analysis/alerts';
import { DELIVERY_CHANNELS, type DeliveryChannel } from '@nemuri/shared/notifications';
import { openPostgres } from '../../database/postgresql.ts';
import { DocumentStore, serverIdentity } from '../../documents/store.ts';
import type { Channel } from '../channels/channel.ts';
import { Escalation } from '../escalation.ts';
import { NotificationService } from '../notificationService.ts';
import { DOMAIN } from './notifyHarness.ts';

const [url, schema, mode, alertId] = process.argv.slice(2) as [string, string, 'queued' | 'claimed', string];
const database = await openPostgres({ url, searchPath: schema });
const log = { info: () => undefined, warn: () => undefined, error: (object: object, message: string) => console.error(message, object) };
const forever = new Promise<never>(() => undefined);
const store = new DocumentStore(database, log);

if (mode === 'queued') {
  const escalation = new Escalation({ database, now: Date.now, publicUrl: async () => 'https://nemuri.example', queued: () => undefined });
  await store.set(
    serverIdentity('kill-test'),
    `alerts/${alertId}`,
    alertDocument({ domainId: DOMAIN, roomId: 'room-1' }, { type: 'button', startedAt: Date.now(), soundedAt: Date.now() }),
    false,
  );
  await escalation.discover([alertId]);
  await escalation.runDue();
  console.log('QUEUED');
} else {
  const hang: Channel = {
    send: async () => {
      console.log('SENDING');
      return forever;
    },
  };
  const channels = Object.fromEntries(DELIVERY_CHANNELS.map((channel) => [channel, hang])) as Record<DeliveryChannel, Channel>;
  const service = new NotificationService({ database, changeFeed: store.changes, channels, log, publicUrl: async () => 'https://nemuri.example', tickMs: 0 });
  service.start();
  await store.set(
    serverIdentity('kill-test'),
    `alerts/${alertId}`,
    alertDocument({ domainId: DOMAIN, roomId: 'room-1' }, { type: 'button', startedAt: Date.now(), soundedAt: Date.now() }),
    false,
  );
}
await forever;
