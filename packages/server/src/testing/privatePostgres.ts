/**
 * A PostgreSQL cluster of a test's own (initdb and pg_ctl from /usr/lib/postgresql/<version>/bin),
 * on a free port and a temporary directory: a test may stop and start it (a database outage)
 * without touching the machine's shared cluster on 5432. PostgreSQL refuses to run as root, so
 * when the tests run as root the cluster runs as the `postgres` user (runuser).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './freePort.ts';

const run = promisify(execFile);

/** The newest installed PostgreSQL's bin directory, or null. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : join(root, versions[0], 'bin');
}

export class PrivatePostgres {
  readonly #bin: string;
  readonly #dir: string;
  readonly port: number;
  readonly #asUser: string | null;

  private constructor(bin: string, dir: string, port: number, asUser: string | null) {
    this.#bin = bin;
    this.#dir = dir;
    this.port = port;
    this.#asUser = asUser;
  }

  /** A new cluster, started; trust authentication for the user `postgres`. */
  static async start(): Promise<PrivatePostgres> {
    const bin = postgresBinDir();
    if (bin === null) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
    const dir = await mkdtemp(join(tmpdir(), 'nemuri-pg-'));
    const asUser = userInfo().uid === 0 ? 'postgres' : null;
    if (asUser !== null) {
      const { stdout } = await run('id', ['-u', asUser]);
      const { stdout: group } = await run('id', ['-g', asUser]);
      await chown(dir, Number(stdout.trim()), Number(group.trim()));
    }
    const cluster = new PrivatePostgres(bin, dir, await freePort(), asUser);
    await cluster.#run('initdb', ['-D', cluster.#dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    await cluster.startAgain();
    return cluster;
  }

  get #dataDir(): string {
    return join(this.#dir, 'data');
  }

  /** postgres://postgres@127.0.0.1:<port>/postgres */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async #run(tool: string, args: string[]): Promise<void> {
    const command = join(this.#bin, tool);
    const [file, argv] = this.#asUser === null ? [command, args] : ['runuser', ['-u', this.#asUser, '--', command, ...args]];
    await run(file, argv, { cwd: this.#dir, timeout: 60_000 });
  }

  /** Starts the (stopped) cluster and waits until it accepts connections. */
  async startAgain(): Promise<void> {
    const options = `-p ${this.port} -k ${this.#dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
    await this.#run('pg_ctl', ['-D', this.#dataDir, '-l', join(this.#dir, 'log'), '-w', '-t', '30', '-o', options, 'start']);
  }

  /** Stops it: `immediate` is a crash as its clients see it (connections cut, recovery at the next start). */
  async stop(mode: 'immediate' | 'fast' = 'immediate'): Promise<void> {
    await this.#run('pg_ctl', ['-D', this.#dataDir, '-m', mode, '-w', 'stop']);
  }

  /** Stops it if it runs and removes its files. */
  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    await rm(this.#dir, { recursive: true, force: true });
  }
}
