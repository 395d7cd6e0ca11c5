// Builds the parser's WebAssembly module and its ESM bindings into packages/parser/dist/ when they are
// missing or older than the AssemblyScript sources (or this script). `--force` rebuilds anyway.
//   node packages/parser/scripts/build.mjs [--force]
// From other scripts: `await (await import('../packages/parser/scripts/build.mjs')).buildParser();`
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = join(PACKAGE, 'assembly');
const DIST = join(PACKAGE, 'dist');
const OUTPUTS = ['parser.wasm', 'parser.js', 'parser.d.ts'].map((name) => join(DIST, name));

/** The compiler options. --maximumMemory must match MAX_PAGES in assembly/memory.ts. */
export const ASC_ARGS = [
  join(SOURCES, 'index.ts'),
  '--outFile',
  join(DIST, 'parser.wasm'),
  '--bindings',
  'esm',
  '-O3',
  '--runtime',
  'stub',
  '--enable',
  'simd',
  '--maximumMemory',
  '32768',
  '--noAssert',
];

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

/** True when an output is missing or older than a source. */
export function parserBuildIsStale() {
  if (!OUTPUTS.every((output) => existsSync(output))) return true;
  const builtAt = Math.min(...OUTPUTS.map((output) => statSync(output).mtimeMs));
  return Math.max(newest(SOURCES), statSync(fileURLToPath(import.meta.url)).mtimeMs) > builtAt;
}

/** Builds when stale (or always with force). Resolves to true when it compiled. Throws on errors. */
export async function buildParser({ force = false, quiet = false } = {}) {
  if (!force && !parserBuildIsStale()) return false;
  const started = Date.now();
  mkdirSync(DIST, { recursive: true });
  const { default: asc } = await import('assemblyscript/asc');
  let errors = '';
  const { error, stderr } = await asc.main(ASC_ARGS, {
    stderr: {
      write: (chunk) => {
        errors += String(chunk);
        return true;
      },
    },
  });
  if (error) throw new Error(`building the parser's WebAssembly module failed: ${error.message}\n${errors || stderr.toString()}`);
  if (!quiet) console.log(`Built packages/parser/dist/parser.wasm in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

/** Vitest globalSetup hook: make sure the module exists before the parser tests run. */
export default async function setup() {
  await buildParser({ quiet: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const built = await buildParser({ force: process.argv.includes('--force') });
    if (!built) console.log('packages/parser/dist is up to date');
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
