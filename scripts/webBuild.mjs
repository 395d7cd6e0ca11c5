import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parserBuildIsStale } from '../packages/parser/scripts/build.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILT_INDEX = join(ROOT, 'packages/web/dist/index.html');
const WEB_INPUTS = [
  'packages/web/src',
  'packages/web/public',
  'packages/web/index.html',
  'packages/web/vite.config.ts',
  'packages/shared/src',
  'packages/parser/src',
  'packages/parser/assembly',
];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

/** True when the built web app is missing or older than any of its sources. */
export function webBuildIsStale() {
  if (!existsSync(BUILT_INDEX) || parserBuildIsStale()) return true;
  const builtAt = statSync(BUILT_INDEX).mtimeMs;
  return WEB_INPUTS.some((input) => newestChange(join(ROOT, input)) > builtAt);
}

/** Builds the web app (its prebuild step builds the WebAssembly parser it bundles). */
export async function buildWeb() {
  const result = spawnSync('npm', ['run', 'build', '-w', '@nemuri/web'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('building the web app failed');
}
