/**
 * Device accounts provisioned in a real Mosquitto with its dynamic security plugin
 * (MQTT_DEVICE_ACCOUNTS=dynsec). The machine's shared Mosquitto on 1883 runs without the plugin
 * (/etc/mosquitto/mosquitto.conf: anonymous, no plugin), so this test starts a Mosquitto of its own
 * on a free port with the plugin loaded and an admin account, and the server uses that broker:
 * register, rotate and retire go through the product's own endpoints and records. The server is in a
 * process group (of one), so the device's share follows the same steps.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '@nemuri/parser/node';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import type { BrowserClient, ClientReply } from '../testing/browserClient.ts';
import { createTestSchema, SKIP_POSTGRES, type TestSchema } from '../testing/postgres.ts';
import { PrivateMosquitto } from '../testing/privateMosquitto.ts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { SKIP_MQTT, signedInClient, startIngestServer, uniqueSerial, type IngestTestServer } from './testing.ts';

const ADMIN = { username: 'nemuri-server', password: 'broker-admin-secret' };

describe.skipIf(SKIP_MQTT || SKIP_POSTGRES)('device accounts in Mosquitto (dynamic security plugin)', () => {
  let broker: PrivateMosquitto;
  let schema: TestSchema;
  let base: IngestTestServer;
  let admin: BrowserClient;
  let frame: Buffer;
  const documents = () => base.server.app.documents;

  /** A device's connection to the broker, or the broker's refusal. */
  const connectDevice = async (serial: string, secret: string): Promise<MqttClient | Error> => {
    try {
      return await mqtt.connectAsync(
        broker.url,
        { username: serial, password: secret, clientId: serial, protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000 },
        false,
      );
    } catch (error) {
      return error as Error;
    }
  };
  const accepted = async (serial: string, secret: string): Promise<boolean> => {
    const client = await connectDevice(serial, secret);
    if (client instanceof Error) return false;
    await client.endAsync();
    return true;
  };
  const secretOf = (reply: ClientReply): string => {
    expect(reply.status, `${reply.text}\n${base.logLines.filter((line) => line.includes('"level":50')).join('\n')}`).toBe(200);
    return (reply.body as { secret: string }).secret;
  };
  const storedFrames = async (serial: string): Promise<number> => {
    const { rows } = await base.server.database.query<{ n: number }>(
      'select coalesce(sum(frame_count), 0)::int as n from signal_frames_pending where serial = $1',
      [serial],
    );
    return rows[0]?.n ?? 0;
  };
  const waitFor = async (condition: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> => {
    const until = Date.now() + ms;
    while (!(await condition())) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    broker = await PrivateMosquitto.start({ dynamicSecurity: ADMIN });
    // The production pair: PostgreSQL and Mosquitto.
    schema = await createTestSchema();
    base = await startIngestServer({
      DATABASE_URL: schema.url,
      MQTT_URL: `mqtt://${ADMIN.username}:${ADMIN.password}@127.0.0.1:${broker.port}`,
      MQTT_DEVICE_ACCOUNTS: 'dynsec',
      MQTT_PERSISTENT_SESSION: '0',
      // In a group (of one): storage by owner, whose device shares follow registration (ingest/deviceShares.ts).
      MQTT_SHARED_GROUP: 'accounts-test',
    });
    await documents().set(
      SYSTEM_PRINCIPAL,
      `domains/${DEMO_DOMAINS.facilityA}`,
      { name: 'さくら苑', kind: 'facility', rootDomainId: DEMO_DOMAINS.corporation, parentDomainId: DEMO_DOMAINS.corporation },
      true,
    );
    admin = await signedInClient(base.server, 'admin@example.com');
    const parser = await loadParser();
    frame = Buffer.from(
      parser.encodeSmfFrame({
        channel: 'respiHr',
        format: 'float32',
        sampleRate: 1,
        sequence: 0,
        startTimeUs: Date.now() * 1000,
        values: new Float32Array([14, 60]),
      }),
    );
  }, 240_000);

  afterAll(async () => {
    await base?.stop();
    await base?.remove();
    await broker?.destroy();
    await schema?.drop();
  });

  it(
    'lets a registered device in with its secret and to its own topic only; a rotation shuts the old secret out; retiring removes it',
    { timeout: 90_000 },
    async () => {
      const serial = uniqueSerial('dynsec');
      await documents().set(
        SYSTEM_PRINCIPAL,
        `devices/${serial}`,
        { deviceTypeId: 'nemuri-pad', ownerAgencyDomainId: DEMO_DOMAINS.agency, domainId: DEMO_DOMAINS.facilityA, status: 'lent' },
        false,
      );
      // Before registration the broker does not know the device.
      expect(await accepted(serial, 'anything')).toBe(false);

      const first = secretOf(await admin.post(`/api/devices/${serial}/registration`, {}));
      // Its share was taken before its account existed: its first message finds a subscriber.
      expect(base.server.deviceBroker.shares?.holds(serial)).toBe(true);
      expect(await accepted(serial, 'wrong-secret')).toBe(false);
      const device = await connectDevice(serial, first);
      if (device instanceof Error) throw device;
      // Its own topic reaches the server, which stores the frame; another device's topic does not.
      await device.publishAsync(`devices/${serial}/frames`, frame, { qos: 1 });
      await waitFor(async () => (await storedFrames(serial)) === 1, 'the frame stored');
      const other = uniqueSerial('dynsec-other');
      await device.publishAsync(`devices/${other}/frames`, frame, { qos: 1 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await storedFrames(other)).toBe(0);
      expect(base.logLines.some((line) => line.includes(other))).toBe(false);
      await device.endAsync();

      const second = secretOf(await admin.post(`/api/devices/${serial}/secret`, {}));
      expect(second).not.toBe(first);
      expect(await accepted(serial, first)).toBe(false);
      const rotated = await connectDevice(serial, second);
      if (rotated instanceof Error) throw rotated;

      // Retired through the records (as the agency's device screens do): the broker drops the account,
      // and with it the connection that was open.
      const closed = new Promise<void>((resolve) => rotated.once('close', () => resolve()));
      await documents().set(SYSTEM_PRINCIPAL, `devices/${serial}`, { status: 'retired' }, true);
      await closed;
      await waitFor(async () => !(await accepted(serial, second)), 'the retired device refused');
      rotated.end(true);
      // Nobody needs a retired device's share.
      await waitFor(async () => base.server.deviceBroker.shares?.holds(serial) === false, "the retired device's share given up");
    },
  );
});
