/** A small built web app in a temporary folder, for tests of the web app plugin. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_INDEX_HTML = '<!doctype html><html lang="ja"><head><title>Nemuri Monitor</title></head><body><div id="root"></div></body></html>\n';
export const TEST_ASSET_JS = 'console.log("asset");\n';
export const TEST_SW_JS = 'self.addEventListener("install", () => self.skipWaiting());\n';
export const TEST_MANIFEST = '{"name":"Nemuri Monitor","start_url":"/"}\n';

export interface TempDir {
  path: string;
  remove(): Promise<void>;
}

export async function makeTempDir(prefix = 'nemuri-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** index.html, assets/x.js, sw.js and manifest.webmanifest. */
export async function makeTestWebDist(): Promise<TempDir> {
  const dir = await makeTempDir('nemuri-web-');
  await mkdir(join(dir.path, 'assets'));
  await writeFile(join(dir.path, 'index.html'), TEST_INDEX_HTML);
  await writeFile(join(dir.path, 'assets', 'x.js'), TEST_ASSET_JS);
  await writeFile(join(dir.path, 'sw.js'), TEST_SW_JS);
  await writeFile(join(dir.path, 'manifest.webmanifest'), TEST_MANIFEST);
  return dir;
}
