/**
 * Device accounts in the production broker (MQTT_DEVICE_ACCOUNTS=dynsec): Mosquitto's dynamic
 * security plugin, driven over its control topic `$CONTROL/dynamic-security/v1`
 * (https://mosquitto.org/documentation/dynamic-security/), so that nobody edits password files.
 *
 * - A device registered or given a new secret (devices/devicesPlugin.ts) becomes, or stays, a
 *   client whose username is its serial and whose password is the secret. The secret exists in
 *   plain text only during that request (the database keeps a hash), so this is the one moment the
 *   broker can be told.
 * - Each device has a role of its own, `nemuri-device-<serial>`, allowed to publish to
 *   `devices/<serial>/frames` only: Mosquitto 2.0's dynamic security does not substitute `%u` in
 *   role ACLs (tried on 2.0.11: `devices/%u/frames` let nothing through), so one role cannot say
 *   "its own topic". Everything else is the plugin's default (publishing denied).
 * - A device retired or deleted (any write, by any process: the document change feed crosses
 *   processes on PostgreSQL) loses its client and role, which also disconnects it.
 *
 * The account of MQTT_URL must hold the plugin's admin role (or an equivalent ACL on
 * `$CONTROL/dynamic-security/#`); docs/operations.md has the broker's set-up.
 */
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { ChangeFeed } from '../documents/changeFeed.ts';
import { changesKnownDevice, type DeviceAccounts, type DeviceRegistry } from '../devices/deviceRegistry.ts';
import type { PipelineLogger } from './pipeline.ts';

export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;
/** How long a command may wait for the plugin's answer. */
const ANSWER_MS = 10_000;

export const deviceRoleOf = (serial: string): string => `nemuri-device-${serial}`;

interface Answer {
  command: string;
  error?: string;
  correlationData?: string;
}

export class MosquittoDeviceAccounts implements DeviceAccounts {
  readonly #client: MqttClient;
  readonly #log: PipelineLogger;
  readonly #waiting = new Map<string, { resolve: (answer: Answer) => void; timer: NodeJS.Timeout }>();
  #unfollow: (() => void) | undefined;

  private constructor(client: MqttClient, log: PipelineLogger) {
    this.#client = client;
    this.#log = log;
    client.on('message', (topic, payload) => {
      if (topic !== RESPONSE_TOPIC) return;
      let answers: Answer[];
      try {
        answers = (JSON.parse(payload.toString('utf8')) as { responses?: Answer[] }).responses ?? [];
      } catch {
        return;
      }
      for (const answer of answers) {
        const waiting = answer.correlationData === undefined ? undefined : this.#waiting.get(answer.correlationData);
        if (waiting === undefined) continue;
        this.#waiting.delete(answer.correlationData!);
        clearTimeout(waiting.timer);
        waiting.resolve(answer);
      }
    });
  }

  /** Connects (a connection of its own, clean session) with the credentials of `url`. */
  static async connect(url: string, log: PipelineLogger): Promise<MosquittoDeviceAccounts> {
    const client = await mqtt.connectAsync(url, {
      protocolVersion: 4,
      clean: true,
      clientId: `nemuri-accounts-${randomBytes(6).toString('hex')}`,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
    });
    client.on('error', (error) => log.warn({ err: error.message }, 'MQTT device accounts connection error'));
    const granted = await client.subscribeAsync(RESPONSE_TOPIC, { qos: 1 });
    if (granted.some((grant) => grant.qos === 128)) {
      await client.endAsync(true);
      throw new Error(
        `MQTT_DEVICE_ACCOUNTS=dynsec: the broker refused ${RESPONSE_TOPIC} to this account: give it the dynamic security plugin's admin role (docs/operations.md)`,
      );
    }
    return new MosquittoDeviceAccounts(client, log);
  }

  /** Sends one command and waits for its answer; an `error` in the answer is returned, not thrown. */
  #command(command: Record<string, unknown>): Promise<Answer> {
    const correlationData = randomBytes(8).toString('hex');
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(correlationData);
        reject(new Error(`the MQTT broker did not answer ${String(command.command)} within ${ANSWER_MS / 1000} s (is the dynamic security plugin loaded?)`));
      }, ANSWER_MS);
      this.#waiting.set(correlationData, { resolve, timer });
      this.#client.publish(DYNSEC_TOPIC, JSON.stringify({ commands: [{ ...command, correlationData }] }), { qos: 1 }, (error) => {
        if (!error) return;
        clearTimeout(timer);
        this.#waiting.delete(correlationData);
        reject(error);
      });
    });
  }

  /** A command whose failure is an error, except the ones `tolerated` (e.g. "already exists" when that is the goal). */
  async #must(command: Record<string, unknown>, tolerated: RegExp | null = null): Promise<Answer> {
    const answer = await this.#command(command);
    if (answer.error !== undefined && !(tolerated?.test(answer.error) ?? false))
      throw new Error(`MQTT broker refused ${String(command.command)}: ${answer.error}`);
    return answer;
  }

  async provision(serial: string, secret: string): Promise<void> {
    const rolename = deviceRoleOf(serial);
    await this.#must(
      { command: 'createRole', rolename, acls: [{ acltype: 'publishClientSend', topic: `devices/${serial}/frames`, allow: true }] },
      /already exists/i,
    );
    // A device registered before (a rotation, a re-registration) is replaced rather than given a new
    // password: deleting the client also ends its connections, which the old secret had opened.
    await this.#must({ command: 'deleteClient', username: serial }, /not found/i);
    await this.#must({ command: 'createClient', username: serial, password: secret, roles: [{ rolename }] });
    this.#log.info({ serial }, 'device account provisioned in the MQTT broker');
  }

  async remove(serial: string): Promise<void> {
    const deleted = await this.#must({ command: 'deleteClient', username: serial }, /not found/i);
    await this.#must({ command: 'deleteRole', rolename: deviceRoleOf(serial) }, /not found/i);
    if (deleted.error === undefined) this.#log.info({ serial }, 'device account removed from the MQTT broker');
  }

  /**
   * Removes the accounts of devices retired or deleted from now on, whoever wrote it: the device's
   * record is read again (bypassing the registry's cache) for every change of `devices/…`.
   */
  follow(changeFeed: ChangeFeed, registry: DeviceRegistry): void {
    this.#unfollow?.();
    this.#unfollow = changeFeed.subscribe((batch) => {
      if (!('changes' in batch)) return;
      for (const change of batch.changes) {
        if (change.collection !== 'devices' || !changesKnownDevice(change)) continue;
        const serial = change.path.slice('devices/'.length);
        registry.forget(serial);
        registry
          .find(serial)
          .then((device) => (device === null || device.status === 'retired' ? this.remove(serial) : undefined))
          .catch((error: unknown) => this.#log.error({ serial, err: error }, 'device account could not be removed from the MQTT broker'));
      }
    });
  }

  async close(): Promise<void> {
    this.#unfollow?.();
    for (const { timer } of this.#waiting.values()) clearTimeout(timer);
    this.#waiting.clear();
    await this.#client.endAsync();
  }
}
