// `npm run build`: everything production runs, built once — the parser's WebAssembly module, the web
// app (with brotli and gzip copies of its files) and the server as plain JavaScript. After it,
// `npm ci --omit=dev` leaves an install that starts with `npm start` (docs/operations.md).
// `--if-stale` builds only what is missing or older than its sources (what `npm start` does).
import { pathToFileURL } from 'node:url';
import { buildParser } from '../packages/parser/scripts/build.mjs';
import { buildServer, serverBuildIsStale } from './serverBuild.mjs';
import { buildWeb, webBuildIsStale } from './webBuild.mjs';

/** Builds the parts that are stale (or all of them); resolves to the names of those built. */
export async function buildAll({ onlyStale = false } = {}) {
  const built = [];
  const webStale = !onlyStale || webBuildIsStale();
  // The web app's prebuild step builds the parser too; the server needs it as well.
  if (await buildParser({ force: !onlyStale })) built.push('parser');
  if (webStale) {
    console.log('Building the web app…');
    await buildWeb();
    built.push('web');
  }
  if (!onlyStale || serverBuildIsStale()) {
    console.log('Building the server…');
    await buildServer();
    built.push('server');
  }
  return built;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const built = await buildAll({ onlyStale: process.argv.includes('--if-stale') });
    console.log(built.length > 0 ? `Built: ${built.join(', ')}` : 'Everything is up to date');
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
