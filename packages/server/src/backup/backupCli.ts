/**
 * The command line of `npm run backup [-- --out <folder>] [--checksums]` and
 * `npm run restore -- <folder>`, on the server's own configuration (DATA_DIR, DATABASE_URL).
 */
import { join } from 'node:path';
import { loadConfig } from '../config.ts';
import { backup, restore } from './backupTool.ts';

const USAGE = 'usage: npm run backup [-- --out <folder>] [--checksums]  |  npm run restore -- <folder>';

export async function backupCli(command: 'backup' | 'restore', args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env);
  const target = { dataDir: config.dataDir, database: config.database };
  if (command === 'backup') {
    const outAt = args.indexOf('--out');
    const out =
      outAt >= 0 ? args[outAt + 1] : join(config.dataDir, '..', 'backups', `nemuri-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}`);
    if (out === undefined) throw new Error(USAGE);
    const manifest = await backup(target, out, { checksums: args.includes('--checksums') });
    const rows = Object.values(manifest.tables).reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Backup written to ${out}: ${manifest.database}, ${Object.keys(manifest.tables).length} tables, ${rows} rows, ${manifest.uploads} uploads, ${manifest.bytes} bytes (${manifest.online ? 'online' : 'no server running'})`,
    );
    return;
  }
  const from = args.find((arg) => !arg.startsWith('--'));
  if (from === undefined) throw new Error(USAGE);
  const manifest = await restore(target, from);
  console.log(`Restored ${from} (made ${manifest.createdAt} by ${manifest.version}): every table matches the backup's manifest`);
}
