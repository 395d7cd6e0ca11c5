// `npm test`: every check a change must pass, in the order that fails fastest.
// Lint, type-check, unit and server tests (PGlite and PostgreSQL), build, then browser tests.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildParser } from '../packages/parser/scripts/build.mjs';
import { buildWeb, ROOT } from './webBuild.mjs';

const reportDir = mkdtempSync(join(tmpdir(), 'nemuri-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** Failed tests by name, printed again at the very end: CI keeps only the tail of the output. */
const failedTests = [];

function run(label, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) console.log(`✔ ${label} (${seconds} s)`);
  else {
    console.log(`✘ ${label} failed (${seconds} s)`);
    failures.push(label);
  }
  return result.status === 0;
}

function vitest(label, projects) {
  const outputFile = join(reportDir, `${label}.json`);
  const unhandledFile = join(reportDir, `${label}.unhandled.json`);
  const args = [
    'vitest',
    'run',
    ...projects.flatMap((project) => ['--project', project]),
    '--reporter=default',
    '--reporter=json',
    '--reporter=./scripts/unhandledErrorsReporter.mjs',
    `--outputFile.json=${outputFile}`,
  ];
  run(label, 'npx', args, { NEMURI_UNHANDLED_ERRORS_FILE: unhandledFile });
  if (existsSync(outputFile)) {
    const report = JSON.parse(readFileSync(outputFile, 'utf8'));
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
    printSlowestFiles(report);
    collectFailedTests(report);
  }
  if (existsSync(unhandledFile)) {
    for (const error of JSON.parse(readFileSync(unhandledFile, 'utf8'))) {
      const where =
        error.testPath === null ? '(no test file named)' : `${relative(ROOT, error.testPath)}${error.testName === null ? '' : ` › ${error.testName}`}`;
      failedTests.push(`unhandled error in ${where}: ${error.message}`);
    }
  }
}

/** The files that decide how long a step takes: where to look first when the whole run grows. */
function printSlowestFiles(report, count = 8) {
  const files = report.testResults
    .map((file) => ({ path: relative(ROOT, file.name), seconds: (file.endTime - file.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
  console.log(`slowest files: ${files.map((file) => `${file.path} ${file.seconds.toFixed(0)} s`).join(', ')}`);
}

function collectFailedTests(report) {
  for (const file of report.testResults) {
    const path = relative(ROOT, file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed) {
      const reason = (test.failureMessages[0] ?? '').split('\n')[0].slice(0, 300);
      failedTests.push(`${path} › ${test.fullName}: ${reason}`);
    }
    // A file that failed before any test ran (an import error, a hook) has no failed test of its own.
    if (failed.length === 0 && file.status === 'failed') failedTests.push(`${path}: ${(file.message ?? '').split('\n')[0].slice(0, 300)}`);
  }
}

const only = process.argv[2];
// The parser's WebAssembly bindings are generated; type-checks and tests import them.
await buildParser();
if (!only || only === 'static') {
  run('lint', 'npx', ['eslint', '--max-warnings', '0', '.']);
  // One format over the whole tree (.prettierrc.json); `npm run format` writes it.
  run('format', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']);
  // No block of 16 or more lines written twice outside tests (.jscpd.json).
  run('copy-paste check', 'npx', ['jscpd', '--silent']);
  for (const project of [
    'packages/shared',
    'packages/parser',
    'packages/simulator',
    'packages/analysis',
    'packages/server',
    'packages/web',
    'tsconfig.tools.json',
  ]) {
    run(`type-check ${project}`, 'npx', ['tsc', '-p', project]);
  }
}
if (!only || only === 'unit') vitest('unit and server tests', ['shared', 'parser', 'simulator', 'analysis', 'server', 'web']);
if (!only || only === 'e2e') {
  console.log('\n▶ build the web app');
  try {
    await buildWeb();
    vitest('browser tests', ['e2e']);
  } catch (error) {
    failures.push(`build: ${error.message}`);
  }
}

rmSync(reportDir, { recursive: true, force: true });
console.log('');
for (const test of failedTests) console.log(`✘ ${test}`);
if (failures.length > 0) console.log(`Failed steps: ${failures.join(', ')}`);
const failed = totals.failed + (failures.length > 0 && totals.failed === 0 ? failures.length : 0);
console.log(`tests: ${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length > 0 ? 1 : 0);
