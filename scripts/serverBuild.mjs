// Builds the server to plain JavaScript in packages/server/dist/, so that production runs on Node.js
// alone: no tsx, no TypeScript, no devDependencies (`npm ci --omit=dev` after `npm run build`).
//
// The workspace packages (@nemuri/*) are bundled in, since they export TypeScript sources; every
// other package stays an import, and must be a production dependency: the build fails otherwise, so
// that a devDependency used at run time is found here rather than by a production start.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_DIST = join(ROOT, 'packages/server/dist');
export const SERVER_MAIN = join(SERVER_DIST, 'main.mjs');
const WORKSPACES = ['shared', 'server', 'parser', 'analysis', 'simulator', 'web'];
const SERVER_INPUTS = [
  'packages/server/src',
  'packages/shared/src',
  'packages/parser/src',
  'packages/analysis/src',
  'packages/simulator/src',
  'package.json',
  'packages/server/package.json',
  'scripts/serverBuild.mjs',
];

/**
 * Entry points, named as the server's sources find them. Every chunk lands flat in dist/, so a
 * worker's `new URL('./pgliteWorker.mjs', import.meta.url)` resolves to the bundled worker, as in
 * src/ it resolves to the tsx-loading one. The workers are found, not listed: each
 * `XWorker.mjs` under src/ loads its `XWorkerMain.ts`, so a new worker thread cannot be left out of the build.
 */
function workerEntries(dir = join(ROOT, 'packages/server/src')) {
  const entries = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(entries, workerEntries(path));
    else if (/Worker\.mjs$/.test(name)) {
      const main = path.replace(/\.mjs$/, 'Main.ts');
      if (!existsSync(main)) throw new Error(`${path} has no ${main}: a worker's .mjs loads its Main.ts`);
      entries[name.replace(/\.mjs$/, '')] = main;
    }
  }
  return entries;
}

const ENTRIES = {
  main: 'packages/server/src/main.ts',
  ...workerEntries(),
  backupCli: 'packages/server/src/backup/backupCli.ts',
};

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

/** True when the built server is missing or older than any of its sources. */
export function serverBuildIsStale() {
  if (!existsSync(SERVER_MAIN)) return true;
  const builtAt = statSync(SERVER_MAIN).mtimeMs;
  return SERVER_INPUTS.some((input) => newestChange(join(ROOT, input)) > builtAt);
}

/** Package names every production install has: the dependencies of the root and the workspaces. */
function productionPackages() {
  const names = new Set();
  for (const file of ['package.json', ...WORKSPACES.map((name) => `packages/${name}/package.json`)]) {
    const manifest = JSON.parse(readFileSync(join(ROOT, file), 'utf8'));
    for (const name of Object.keys(manifest.dependencies ?? {})) names.add(name);
  }
  return names;
}

function packageNameOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Bundles the server; resolves to the packages it imports at run time. Throws on any problem. */
export async function buildServer({ quiet = false } = {}) {
  const started = Date.now();
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (error) {
    throw new Error('building the server needs the devDependencies: run "npm ci" (not --omit=dev) before "npm run build"', { cause: error });
  }
  const builtins = new Set(builtinModules);
  const externalPackages = new Set();
  /** @type {import('esbuild').Plugin} */
  const externals = {
    name: 'nemuri-externals',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@nemuri/')) return undefined;
        if (args.path.startsWith('node:') || builtins.has(args.path)) return { path: args.path, external: true };
        externalPackages.add(packageNameOf(args.path));
        return { path: args.path, external: true };
      });
    },
  };

  rmSync(SERVER_DIST, { recursive: true, force: true });
  mkdirSync(SERVER_DIST, { recursive: true });
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: SERVER_DIST,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: 'linked',
    // Stack traces and log lines keep the source's function and class names.
    keepNames: true,
    logLevel: 'warning',
    plugins: [externals],
  });

  const production = productionPackages();
  const devOnly = [...externalPackages].filter((name) => !production.has(name)).sort();
  if (devOnly.length > 0) {
    throw new Error(
      `the built server imports packages that are not production dependencies: ${devOnly.join(', ')} (move them to "dependencies", or keep test code out of the server's imports)`,
    );
  }

  // The parser finds its module at `../dist/parser.wasm` from its own file, which is now a chunk in
  // packages/server/dist/: the same relative path lands here.
  copyFileSync(join(ROOT, 'packages/parser/dist/parser.wasm'), join(SERVER_DIST, 'parser.wasm'));
  writeFileSync(join(SERVER_DIST, 'imports.json'), `${JSON.stringify([...externalPackages].sort(), null, 2)}\n`);
  if (!quiet) console.log(`Built packages/server/dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return [...externalPackages].sort();
}
