// `npm start`: build what is missing or stale (when the devDependencies are there to build it), then
// run the built server (packages/server/dist/main.mjs) on its embedded defaults (see README).
// A production install (`npm run build`, then `npm ci --omit=dev`) runs what was built: Node.js alone.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './webBuild.mjs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Nemuri Monitor needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
  process.exit(1);
}
if (!existsSync(join(ROOT, 'node_modules', 'fastify'))) {
  console.error('Dependencies are missing: run "npm install" first.');
  process.exit(1);
}

const SERVER_MAIN = join(ROOT, 'packages/server/dist/main.mjs');
const WEB_INDEX = join(ROOT, 'packages/web/dist/index.html');
const canBuild = ['esbuild', 'vite', 'assemblyscript'].every((name) => existsSync(join(ROOT, 'node_modules', name)));

if (canBuild) {
  const { buildAll } = await import('./build.mjs');
  try {
    await buildAll({ onlyStale: true });
  } catch (error) {
    console.error(`Nemuri Monitor could not be built: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
} else if (!existsSync(SERVER_MAIN) || !existsSync(WEB_INDEX)) {
  console.error(
    'Nemuri Monitor is not built, and this install has no devDependencies to build it: run "npm ci" and "npm run build" first (docs/operations.md).',
  );
  process.exit(1);
}

process.setSourceMapsEnabled(true);
process.chdir(ROOT);
await import(pathToFileURL(SERVER_MAIN).href);
