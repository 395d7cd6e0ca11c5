// `npm run check:production`: proves that a production install runs. Builds what is stale, copies the
// checkout's files and the built output to a temporary folder, installs there with
// `npm ci --omit=dev` (no devDependencies: no tsx, TypeScript, Vite or esbuild), starts it with
// `npm start` on free ports and a temporary DATA_DIR, and requires the ready line,
// `/api/health/ready` 200, the sign-in page and `/api/openapi.json`. CI runs it (.ci/run).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildAll } from './build.mjs';
import { ROOT } from './webBuild.mjs';

const BUILT = ['packages/parser/dist', 'packages/web/dist', 'packages/server/dist'];
const READY = /ready at (http:\/\/\S+)/;
const DEV_ONLY = ['tsx', 'typescript', 'vite', 'vitest', 'esbuild', 'eslint', 'assemblyscript', 'rolldown'];

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function expectStatus(url, status, accept = 'application/json') {
  const response = await fetch(url, { headers: { accept } });
  if (response.status !== status) throw new Error(`${url} answered ${response.status}, expected ${status}: ${(await response.text()).slice(0, 300)}`);
  return response;
}

async function main() {
  await buildAll({ onlyStale: true });
  const dir = mkdtempSync(join(tmpdir(), 'nemuri-production-'));
  let child;
  try {
    const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
    if (listed.status !== 0) throw new Error('git ls-files failed: the check copies a git checkout');
    for (const file of listed.stdout.split('\0').filter(Boolean)) {
      if (!existsSync(join(ROOT, file))) continue; // deleted, not yet committed
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      cpSync(join(ROOT, file), join(dir, file));
    }
    for (const folder of BUILT) cpSync(join(ROOT, folder), join(dir, folder), { recursive: true });
    console.log(`▶ npm ci --omit=dev in ${dir}`);
    run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], dir);
    // npm keeps a devDependency that is also an optional peer of a production package (better-auth
    // names vitest, tsx and others): taken out here, so that the start proves they are not needed.
    const present = DEV_ONLY.filter((name) => existsSync(join(dir, 'node_modules', name)));
    if (present.length > 0) console.log(`▶ removing what npm kept as optional peers: ${present.join(', ')}`);
    for (const name of present) rmSync(join(dir, 'node_modules', name), { recursive: true, force: true });

    const [port, mqttPort] = [await freePort(), await freePort()];
    console.log('▶ npm start (production install)');
    const started = Date.now();
    child = spawn('npm', ['start'], {
      cwd: dir,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        MQTT_PORT: String(mqttPort),
        DATA_DIR: join(dir, 'data'),
        DATABASE_URL: '',
        MQTT_URL: '',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let output = '';
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line within 120 s:\n${output}`)), 120_000);
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        output += chunk;
        process.stdout.write(chunk);
        const match = READY.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start ended with ${code} before it was ready:\n${output}`));
      });
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const ready = await (await expectStatus(`${url}/api/health/ready`, 200)).json();
    if (ready.status !== 'ok') throw new Error(`not ready: ${JSON.stringify(ready)}`);
    const page = await (await expectStatus(`${url}/login`, 200, 'text/html')).text();
    if (!page.includes('<div id="root">')) throw new Error('the sign-in page is not the web app');
    const openApi = await (await expectStatus(`${url}/api/openapi.json`, 200)).json();
    if (openApi.openapi !== '3.1.0') throw new Error('/api/openapi.json is not the OpenAPI document');
    console.log(`✔ the production install started in ${seconds} s and answers /api/health/ready 200`);
  } finally {
    // npm start runs the server in a child process of its own: end the whole group.
    if (child?.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(`✘ production check: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
