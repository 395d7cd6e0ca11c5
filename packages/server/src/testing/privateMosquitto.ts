/**
 * A Mosquitto broker of a test's own, on a free port, with persistence in a temporary directory: a
 * test may kill and restart it (a broker outage) without touching the machine's shared Mosquitto on
 * 1883. Persistence is saved every second, and at a SIGTERM, so that sessions (the server's
 * persistent one) and their queued messages survive a restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './freePort.ts';

export const MOSQUITTO_BINARY = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((path) => existsSync(path)) ?? null;

/** Mosquitto's dynamic security plugin (Debian's mosquitto package ships it), or null. */
export const DYNSEC_PLUGIN =
  [
    '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so',
    '/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so',
    '/usr/lib/mosquitto_dynamic_security.so',
    '/usr/local/lib/mosquitto_dynamic_security.so',
  ].find((path) => existsSync(path)) ?? null;

/**
 * A dynamic security configuration holding one admin client (the plugin's own `admin` role), as
 * `mosquitto_ctrl dynsec init` writes it: PBKDF2-SHA512 of the password, 101 iterations.
 */
function dynsecConfig(username: string, password: string): string {
  const salt = randomBytes(12);
  const iterations = 101;
  const hash = pbkdf2Sync(password, salt, iterations, 64, 'sha512');
  const everything = (acltype: string, topic: string) => ({ acltype, topic, allow: true });
  return JSON.stringify({
    clients: [
      { username, textName: 'test admin', password: hash.toString('base64'), salt: salt.toString('base64'), iterations, roles: [{ rolename: 'admin' }] },
    ],
    roles: [
      {
        rolename: 'admin',
        acls: [
          everything('publishClientSend', '$CONTROL/dynamic-security/#'),
          everything('publishClientReceive', '$CONTROL/dynamic-security/#'),
          everything('subscribePattern', '$CONTROL/dynamic-security/#'),
          everything('publishClientReceive', '#'),
          everything('subscribePattern', '#'),
          everything('unsubscribePattern', '#'),
        ],
      },
    ],
    defaultACLAccess: { publishClientSend: false, publishClientReceive: true, subscribe: false, unsubscribe: true },
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export class PrivateMosquitto {
  readonly port: number;
  readonly #dir: string;
  #process: ChildProcess | null = null;
  #output = '';

  private constructor(dir: string, port: number) {
    this.#dir = dir;
    this.port = port;
  }

  /**
   * `config`: more lines of mosquitto.conf (e.g. `max_inflight_messages 1000` for a bench).
   * `dynamicSecurity`: load the dynamic security plugin with this admin client; nobody else may
   * connect until provisioned (no anonymous clients).
   */
  static async start({
    config: extra = [],
    dynamicSecurity,
  }: { config?: readonly string[]; dynamicSecurity?: { username: string; password: string } } = {}): Promise<PrivateMosquitto> {
    if (MOSQUITTO_BINARY === null) throw new Error('mosquitto is not installed (apt-get install mosquitto)');
    const dir = await mkdtemp(join(tmpdir(), 'nemuri-mosquitto-'));
    const broker = new PrivateMosquitto(dir, await freePort());
    // Run as root, Mosquitto drops to the `mosquitto` user, which must own the persistence directory.
    const user = userInfo().uid === 0 ? 'mosquitto' : userInfo().username;
    if (userInfo().uid === 0) {
      const { uid, gid } = await idsOf(user);
      await chown(dir, uid, gid);
    }
    let security = ['allow_anonymous true'];
    if (dynamicSecurity !== undefined) {
      if (DYNSEC_PLUGIN === null) throw new Error("Mosquitto's dynamic security plugin (mosquitto_dynamic_security.so) is not installed");
      const file = join(dir, 'dynamic-security.json');
      await writeFile(file, dynsecConfig(dynamicSecurity.username, dynamicSecurity.password), { mode: 0o600 });
      if (userInfo().uid === 0) {
        const { uid, gid } = await idsOf(user);
        await chown(file, uid, gid);
      }
      security = ['allow_anonymous false', `plugin ${DYNSEC_PLUGIN}`, `plugin_opt_config_file ${file}`];
    }
    const config = [
      `listener ${broker.port} 127.0.0.1`,
      ...security,
      `user ${user}`,
      'persistence true',
      `persistence_location ${dir}/`,
      'autosave_interval 1',
      'max_queued_messages 100000',
      ...extra,
    ].join('\n');
    await writeFile(join(dir, 'mosquitto.conf'), `${config}\n`);
    await broker.startAgain();
    return broker;
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  /** The broker's process id while it runs (a bench reads its CPU time). */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  get output(): string {
    return this.#output;
  }

  /** Starts the (stopped) broker and waits until it listens. */
  async startAgain(): Promise<void> {
    const child = spawn(MOSQUITTO_BINARY!, ['-c', join(this.#dir, 'mosquitto.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (this.#output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.#output += chunk));
    this.#process = child;
    const deadline = Date.now() + 10_000;
    while (!(await listening(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`mosquitto did not start on ${this.port}:\n${this.#output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Stops it with `signal` (SIGTERM: saves its persistence first; SIGKILL: a crash) and waits for the exit. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const child = this.#process;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    this.#process = null;
  }

  async destroy(): Promise<void> {
    await this.stop('SIGKILL');
    await rm(this.#dir, { recursive: true, force: true });
  }
}

async function idsOf(user: string): Promise<{ uid: number; gid: number }> {
  const { execFile } = await import('node:child_process');
  const id = (flag: string): Promise<number> =>
    new Promise((resolve, reject) => execFile('id', [flag, user], (error, stdout) => (error ? reject(error) : resolve(Number(stdout.trim())))));
  return { uid: await id('-u'), gid: await id('-g') };
}
