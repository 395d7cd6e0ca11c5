/**
 * Server configuration, read once from the environment and validated. Every problem is reported
 * at once, each naming the variable, the value given and what is accepted.
 */
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** DEMO as given: 'auto' is decided at start by {@link resolveDemo}. */
export type DemoSetting = 'on' | 'off' | 'auto';

export type DatabaseConfig =
  /** Embedded PostgreSQL (PGlite). `dataDir` null: in memory, nothing kept (tests). */
  | { kind: 'pglite'; dataDir: string | null }
  | { kind: 'postgresql'; url: string };

export interface Config {
  port: number;
  host: string;
  /**
   * PUBLIC_URL: the origin people open, e.g. `https://nemuri.example` (no path). Sign-in uses it
   * for links and trusted origins, and sets Secure cookies when it is https. null: not set, so
   * `http://localhost:<port>`, with the real port once listening when PORT is 0.
   */
  publicUrl: string | null;
  /** AUTH_SECRET: signs session cookies. null: a random one generated once and kept in the database. */
  authSecret: string | null;
  /**
   * AUTH_RATE_LIMIT_MAX: requests per client and minute on every sign-in endpoint instead of the
   * defaults (auth/rateLimit.ts), for test setups where every client shares one address. null: the defaults.
   */
  authRateLimitMax: number | null;
  /** Absolute path of DATA_DIR (embedded database, uploads). */
  dataDir: string;
  database: DatabaseConfig;
  /** External MQTT broker; null: the embedded broker (a later issue). */
  mqttUrl: string | null;
  /** Port of the embedded MQTT broker (a later issue). */
  mqttPort: number;
  /** SMTP server for mail; null: mail goes to the development outbox (GET /api/dev/outbox). */
  smtpUrl: string | null;
  demo: DemoSetting;
  /** Absolute path of the built web app. */
  webDist: string;
  logLevel: LogLevel;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** The built web app of this repository: packages/web/dist, found from this file's location. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url)).replace(/[\\/]$/, '');

export const MEMORY_DATABASE_URL = 'memory://';

type Env = Record<string, string | undefined>;

/**
 * Reads the configuration from `env`. Relative paths are resolved against `cwd`.
 * @throws {ConfigError} listing every invalid variable.
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const value = (name: string): string | undefined => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };

  const port = parsePort('PORT', value('PORT'), 3000, problems);
  const mqttPort = parsePort('MQTT_PORT', value('MQTT_PORT'), 1883, problems);
  // 'localhost' listens on both 127.0.0.1 and ::1, so http://localhost:3000 works whichever the browser picks.
  const host = value('HOST') ?? 'localhost';
  const dataDir = resolve(cwd, value('DATA_DIR') ?? './data');
  const webDistValue = value('WEB_DIST');
  const webDist = webDistValue === undefined ? DEFAULT_WEB_DIST : isAbsolute(webDistValue) ? webDistValue : resolve(cwd, webDistValue);

  const config: Config = {
    port,
    host,
    publicUrl: parsePublicUrl(value('PUBLIC_URL'), problems),
    authSecret: parseAuthSecret(value('AUTH_SECRET'), problems),
    authRateLimitMax: parseRateLimitMax(value('AUTH_RATE_LIMIT_MAX'), problems),
    dataDir,
    database: parseDatabase(value('DATABASE_URL'), dataDir, problems),
    mqttUrl: parseUrl('MQTT_URL', value('MQTT_URL'), ['mqtt:', 'mqtts:', 'tcp:', 'tls:', 'ws:', 'wss:'], problems),
    mqttPort,
    smtpUrl: parseUrl('SMTP_URL', value('SMTP_URL'), ['smtp:', 'smtps:'], problems),
    demo: parseDemo(value('DEMO'), problems),
    webDist,
    logLevel: parseLogLevel(value('LOG_LEVEL'), problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function parsePort(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined) return fallback;
  const port = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535) {
    problems.push(`${name} must be a whole number from 0 to 65535 (0 picks a free port), got "${raw}"`);
    return fallback;
  }
  return port;
}

function parsePublicUrl(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined) return null;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    problems.push(`PUBLIC_URL must be an http:// or https:// origin without a path, such as https://nemuri.example or http://localhost:3000, got "${redactUrl(raw)}"`);
    return null;
  }
  return url.origin;
}

/** Better Auth warns below 32 characters; a shorter secret is refused outright. */
export const MIN_AUTH_SECRET_LENGTH = 32;

function parseAuthSecret(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined) return null;
  if (raw.length < MIN_AUTH_SECRET_LENGTH) {
    // Never echo the secret itself.
    problems.push(`AUTH_SECRET must be at least ${MIN_AUTH_SECRET_LENGTH} characters (for example from \`openssl rand -base64 32\`), got ${raw.length}`);
    return null;
  }
  return raw;
}

function parseRateLimitMax(raw: string | undefined, problems: string[]): number | null {
  if (raw === undefined) return null;
  const max = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(max) || max < 1) {
    problems.push(`AUTH_RATE_LIMIT_MAX must be a whole number of requests per minute, at least 1 (unset: the built-in limits), got "${raw}"`);
    return null;
  }
  return max;
}

function parseDatabase(raw: string | undefined, dataDir: string, problems: string[]): DatabaseConfig {
  const embedded: DatabaseConfig = { kind: 'pglite', dataDir: resolve(dataDir, 'pglite') };
  if (raw === undefined) return embedded;
  if (raw === MEMORY_DATABASE_URL) return { kind: 'pglite', dataDir: null };
  const protocol = protocolOf(raw);
  if (protocol === 'postgres:' || protocol === 'postgresql:') return { kind: 'postgresql', url: raw };
  problems.push(
    `DATABASE_URL must be a postgres:// or postgresql:// URL (or ${MEMORY_DATABASE_URL} for a throw-away embedded database), got "${redactUrl(raw)}"`,
  );
  return embedded;
}

function parseUrl(name: string, raw: string | undefined, protocols: string[], problems: string[]): string | null {
  if (raw === undefined) return null;
  const protocol = protocolOf(raw);
  if (protocol !== null && protocols.includes(protocol)) return raw;
  const accepted = protocols.map((p) => `${p}//`).join(', ');
  problems.push(`${name} must be a URL starting with one of ${accepted}, got "${redactUrl(raw)}"`);
  return null;
}

function parseDemo(raw: string | undefined, problems: string[]): DemoSetting {
  if (raw === undefined) return 'auto';
  const lower = raw.toLowerCase();
  if (lower === '1' || lower === 'true') return 'on';
  if (lower === '0' || lower === 'false') return 'off';
  problems.push(`DEMO must be 1, true, 0 or false (unset: demo data on a new embedded database), got "${raw}"`);
  return 'auto';
}

function parseLogLevel(raw: string | undefined, problems: string[]): LogLevel {
  if (raw === undefined) return 'info';
  const lower = raw.toLowerCase();
  const level = LOG_LEVELS.find((candidate) => candidate === lower);
  if (level) return level;
  problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return 'info';
}

function protocolOf(raw: string): string | null {
  try {
    return new URL(raw).protocol;
  } catch {
    return null;
  }
}

/** The URL with any password replaced, for messages and logs. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password === '') return raw;
    url.password = '***';
    return url.toString();
  } catch {
    return raw.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  }
}

/**
 * Whether to load the demo data set at this start. DEMO unset ('auto'): only on a new embedded
 * database, so `npm start` on a fresh clone shows a working product and real data is never touched.
 */
export function resolveDemo(setting: DemoSetting, database: { embedded: boolean; firstStart: boolean }): boolean {
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  return database.embedded && database.firstStart;
}
