// `npm run backup [-- --out <folder>] [--checksums]` and `npm run restore -- <folder>`: online backup
// and restore of the database and uploads (packages/server/src/backup/, docs/operations.md "Backup").
// Runs the built server code, so it works in a production install; builds the server first when it
// is stale and the devDependencies are there.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer, ROOT, SERVER_DIST, serverBuildIsStale } from './serverBuild.mjs';

const [command, ...args] = process.argv.slice(2);
if (command !== 'backup' && command !== 'restore') {
  console.error('usage: node scripts/backup.mjs backup|restore …');
  process.exit(2);
}
try {
  if (existsSync(join(ROOT, 'node_modules', 'esbuild')) && serverBuildIsStale()) await buildServer({ quiet: true });
  const cli = join(SERVER_DIST, 'backupCli.mjs');
  if (!existsSync(cli)) throw new Error('the server is not built: run "npm run build" first');
  const { backupCli } = await import(pathToFileURL(cli).href);
  await backupCli(command, args, process.env);
} catch (error) {
  console.error(`Nemuri Monitor ${command} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
