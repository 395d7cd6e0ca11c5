// `npm start`: build what is missing, then run the server on its embedded defaults (see README).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildWeb, ROOT, webBuildIsStale } from './webBuild.mjs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Nemuri Monitor needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
  process.exit(1);
}
if (!existsSync(join(ROOT, 'node_modules', 'tsx'))) {
  console.error('Dependencies are missing: run "npm install" first.');
  process.exit(1);
}

if (webBuildIsStale()) {
  console.log('Building the web app…');
  await buildWeb();
}

const { register } = await import('tsx/esm/api');
register();
process.chdir(ROOT);
await import('../packages/server/src/main.ts');
