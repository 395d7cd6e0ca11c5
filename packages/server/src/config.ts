/**
 * Server configuration, read once from the environment and validated. Every problem is reported
 * at once, each naming the variable, the value given and what is accepted.
 */
import { hostname } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSignalChannel, SIGNAL_CHANNELS } from '@nemuri/shared/signalChannels';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** DEMO as given: 'auto' is decided at start by {@link resolveDemo}. */
export type DemoSetting = 'on' | 'off' | 'auto';

export type DatabaseConfig =
  /** Embedded PostgreSQL (PGlite). `dataDir` null: in memory, nothing kept (tests). */
  { kind: 'pglite'; dataDir: string | null } | { kind: 'postgresql'; url: string };

/** A social sign-in provider (OpenID Connect), enabled by its client id. */
export interface OAuthProviderConfig {
  id: 'google' | 'line';
  clientId: string;
  clientSecret: string;
  /** Its OpenID discovery document; tests point it at a local provider. */
  discoveryUrl: string;
}

/** The public providers' discovery documents, used unless <ID>_DISCOVERY_URL says otherwise. */
export const OAUTH_DISCOVERY_URLS: Readonly<Record<OAuthProviderConfig['id'], string>> = {
  google: 'https://accounts.google.com/.well-known/openid-configuration',
  line: 'https://access.line.me/.well-known/openid-configuration',
};

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
   * METRICS_TOKEN: a bearer token that lets a scraper (Prometheus) read GET /metrics without a
   * session (metrics/metricsPlugin.ts). null: only a signed-in system administrator can.
   */
  metricsToken: string | null;
  /**
   * AUTH_RATE_LIMIT_MAX: requests per client and minute on every sign-in endpoint instead of the
   * defaults (auth/rateLimit.ts), for test setups where every client shares one address. null: the defaults.
   */
  authRateLimitMax: number | null;
  /**
   * AUTH_ACCOUNT_LOCK_FAILURES and AUTH_ACCOUNT_LOCK_SECONDS: consecutive failed sign-ins for one
   * account that lock it, and for how long (auth/signInThrottle.ts; defaults 5 and 900).
   */
  authAccountLock: { failures: number; seconds: number };
  /**
   * GOOGLE_CLIENT_ID / _SECRET / _DISCOVERY_URL and LINE_…: the social providers offered on the
   * sign-in page and /link; a provider without a client id is off.
   */
  oauthProviders: OAuthProviderConfig[];
  /**
   * SSO_TRUSTED_ORIGINS: origins (comma-separated) of enterprise OpenID providers registered for
   * single sign-on; sign-in refuses to talk to an identity provider whose origin is not trusted.
   */
  ssoTrustedOrigins: string[];
  /**
   * TRUST_PROXY: behind a reverse proxy, take the client's address from `X-Forwarded-For` (for the
   * sign-in rate limits and logs): a number of proxy hops, or the proxies' addresses/CIDRs
   * (comma-separated). false (unset): the connection's address. Never trust a header anyone can send.
   */
  trustProxy: false | number | string[];
  /** Absolute path of DATA_DIR (embedded database, uploads). */
  dataDir: string;
  database: DatabaseConfig;
  /** External MQTT broker; null: the embedded broker (Aedes, ingest/broker.ts). */
  mqttUrl: string | null;
  /** Port of the embedded MQTT broker; 0 picks a free port. */
  mqttPort: number;
  /**
   * Whether MQTT_PORT was given: then a taken port fails the start; unset (1883), a taken port
   * only warns and the embedded broker takes a free port instead.
   */
  mqttPortExplicit: boolean;
  /**
   * MQTT_SHARED_GROUP: with MQTT_URL, subscribe as `$share/<group>/devices/+/frames` so that several
   * server processes divide the devices among them (scale-out). null: a plain subscription.
   */
  mqttSharedGroup: string | null;
  /**
   * MQTT_DEVICE_ACCOUNTS: with MQTT_URL, `dynsec` provisions device accounts in Mosquitto's dynamic
   * security plugin (ingest/brokerAccounts.ts); null: the broker's accounts are kept by hand.
   */
  mqttDeviceAccounts: 'dynsec' | null;
  /**
   * MQTT_CLIENT_ID: with MQTT_URL, the server's client id, with a persistent session (clean session
   * off), so that the broker keeps the frames it has not yet had acknowledged while the server restarts.
   * One per server process. Unset, with MQTT_URL: `nemuri-server-<host>-<port>` (mqttClientIdOf).
   * null: a random id and a clean session (MQTT_PERSISTENT_SESSION=0, PORT=0, or no MQTT_URL).
   */
  mqttClientId: string | null;
  /** SIGNAL_RETENTION_DAYS: stored raw signals older than this are deleted (hourly). Default 30. */
  signalRetentionDays: number;
  /**
   * SIGNAL_STORED_CHANNELS: the channels whose frames are stored (the others are live only), e.g.
   * `ecg,respiAxl,respiHr`. null (unset): all, except `eit` while the simulated demo devices run.
   */
  signalStoredChannels: string[] | null;
  /**
   * SIMULATE: run the device simulator for the demo devices in demo mode. 'auto' (unset): yes, except
   * under the test runner (Vitest), so that test servers stay quiet unless a test asks for it.
   */
  simulate: DemoSetting;
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
    metricsToken: parseMetricsToken(value('METRICS_TOKEN'), problems),
    authRateLimitMax: parseRateLimitMax(value('AUTH_RATE_LIMIT_MAX'), problems),
    authAccountLock: {
      failures: parseWholeNumber('AUTH_ACCOUNT_LOCK_FAILURES', value('AUTH_ACCOUNT_LOCK_FAILURES'), 5, 'failed sign-ins', problems),
      seconds: parseWholeNumber('AUTH_ACCOUNT_LOCK_SECONDS', value('AUTH_ACCOUNT_LOCK_SECONDS'), 900, 'seconds', problems),
    },
    oauthProviders: (['google', 'line'] as const).flatMap((id) => parseOAuthProvider(id, value, problems)),
    ssoTrustedOrigins: parseOrigins('SSO_TRUSTED_ORIGINS', value('SSO_TRUSTED_ORIGINS'), problems),
    trustProxy: parseTrustProxy(value('TRUST_PROXY'), problems),
    dataDir,
    database: parseDatabase(value('DATABASE_URL'), dataDir, problems),
    mqttUrl: parseUrl('MQTT_URL', value('MQTT_URL'), ['mqtt:', 'mqtts:', 'tcp:', 'tls:', 'ws:', 'wss:'], problems),
    mqttPort,
    mqttPortExplicit: value('MQTT_PORT') !== undefined,
    mqttSharedGroup: parseSharedGroup(value('MQTT_SHARED_GROUP'), problems),
    mqttDeviceAccounts: parseDeviceAccounts(value('MQTT_DEVICE_ACCOUNTS'), value('MQTT_URL') !== undefined, problems),
    mqttClientId: mqttClientIdOf(
      value('MQTT_URL') !== undefined,
      parseClientId(value('MQTT_CLIENT_ID'), problems),
      value('MQTT_PERSISTENT_SESSION'),
      port,
      problems,
    ),
    signalRetentionDays: parseRetentionDays(value('SIGNAL_RETENTION_DAYS'), problems),
    signalStoredChannels: parseStoredChannels(value('SIGNAL_STORED_CHANNELS'), problems),
    simulate: parseSimulate(value('SIMULATE'), problems),
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

function parseDeviceAccounts(raw: string | undefined, external: boolean, problems: string[]): 'dynsec' | null {
  if (raw === undefined) return null;
  if (raw !== 'dynsec') problems.push(`MQTT_DEVICE_ACCOUNTS must be dynsec (Mosquitto's dynamic security plugin), got "${raw}"`);
  else if (!external) problems.push('MQTT_DEVICE_ACCOUNTS needs MQTT_URL: the embedded broker checks devices against the database itself');
  return raw === 'dynsec' ? raw : null;
}

function parseSharedGroup(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined) return null;
  // MQTT topic levels may not contain the wildcards or a slash.
  if (/^[A-Za-z0-9_-]{1,64}$/.test(raw)) return raw;
  problems.push(`MQTT_SHARED_GROUP must be 1 to 64 letters, digits, _ or -, got "${raw}"`);
  return null;
}

/**
 * With MQTT_URL the server keeps a persistent session unless MQTT_PERSISTENT_SESSION=0: under
 * MQTT_CLIENT_ID, or else under an id of this host and HTTP port (`nemuri-server-<host>-<port>`),
 * which stays the same across restarts and differs between processes on one host. With PORT=0 there
 * is no such id: null, a clean session (ingest/broker.ts warns).
 */
function mqttClientIdOf(external: boolean, clientId: string | null, persistentRaw: string | undefined, port: number, problems: string[]): string | null {
  const lower = persistentRaw?.toLowerCase();
  if (lower !== undefined && !['0', '1', 'true', 'false', 'on', 'off'].includes(lower)) {
    problems.push(`MQTT_PERSISTENT_SESSION must be 1 or 0, got "${persistentRaw}"`);
  }
  if (!external || clientId !== null) return clientId;
  if (lower === '0' || lower === 'false' || lower === 'off' || port === 0) return null;
  return defaultMqttClientId(hostname(), port);
}

/** `nemuri-server-<host>-<port>`, within MQTT_CLIENT_ID's characters and 64 characters. */
export function defaultMqttClientId(host: string, port: number): string {
  const safeHost = host.replace(/[^A-Za-z0-9_.:-]/g, '-').slice(0, 40) || 'host';
  return `nemuri-server-${safeHost}-${port}`;
}

function parseClientId(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined) return null;
  if (/^[A-Za-z0-9_.:-]{1,64}$/.test(raw)) return raw;
  problems.push(`MQTT_CLIENT_ID must be 1 to 64 letters, digits, _ . : or -, got "${raw}"`);
  return null;
}

// The sample channels of docs/device-protocol.md (multi frames are stored as their nested frames).
export { SIGNAL_CHANNELS };

function parseStoredChannels(raw: string | undefined, problems: string[]): string[] | null {
  if (raw === undefined) return null;
  const channels = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const unknown = channels.filter((channel) => !isSignalChannel(channel));
  if (unknown.length > 0) {
    problems.push(`SIGNAL_STORED_CHANNELS must list channels among ${SIGNAL_CHANNELS.join(', ')}, separated by commas, got "${raw}"`);
    return null;
  }
  return channels;
}

function parseRetentionDays(raw: string | undefined, problems: string[]): number {
  if (raw === undefined) return 30;
  const days = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(days) || days < 1 || days > 36500) {
    problems.push(`SIGNAL_RETENTION_DAYS must be a whole number of days from 1 to 36500 (unset: 30), got "${raw}"`);
    return 30;
  }
  return days;
}

function parseSimulate(raw: string | undefined, problems: string[]): DemoSetting {
  if (raw === undefined) return 'auto';
  const lower = raw.toLowerCase();
  if (lower === '1' || lower === 'true') return 'on';
  if (lower === '0' || lower === 'false') return 'off';
  problems.push(`SIMULATE must be 1, true, 0 or false (unset: simulated demo devices run in demo mode), got "${raw}"`);
  return 'auto';
}

/** Whether to run the simulated demo devices (see Config.simulate). */
export function resolveSimulate(setting: DemoSetting, demoData: boolean, env: Record<string, string | undefined> = process.env): boolean {
  if (!demoData || setting === 'off') return false;
  return setting === 'on' || env.VITEST === undefined;
}

function parsePublicUrl(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined) return null;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (
    url === undefined ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== ''
  ) {
    problems.push(
      `PUBLIC_URL must be an http:// or https:// origin without a path, such as https://nemuri.example or http://localhost:3000, got "${redactUrl(raw)}"`,
    );
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

/** As long as AUTH_SECRET: a guessable token would open the server's figures to anyone. */
export const MIN_METRICS_TOKEN_LENGTH = 32;

function parseMetricsToken(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined) return null;
  // A bearer token travels in an HTTP header: printable ASCII without spaces (RFC 6750 b64token and more).
  if (raw.length < MIN_METRICS_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(raw)) {
    // Never echo the token itself.
    problems.push(
      `METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} printable characters without spaces (for example from \`openssl rand -hex 32\`), got ${raw.length} characters`,
    );
    return null;
  }
  return raw;
}

function parseWholeNumber(name: string, raw: string | undefined, fallback: number, unit: string, problems: string[]): number {
  if (raw === undefined) return fallback;
  const number = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < 1) {
    problems.push(`${name} must be a whole number of ${unit}, at least 1 (unset: ${fallback}), got "${raw}"`);
    return fallback;
  }
  return number;
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

function parseTrustProxy(raw: string | undefined, problems: string[]): false | number | string[] {
  if (raw === undefined || raw === '0' || raw.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const addresses = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const address = /^([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-fA-F:]+)(\/\d{1,3})?$/;
  const bad = addresses.filter((part) => !address.test(part));
  if (addresses.length === 0 || bad.length > 0) {
    problems.push(`TRUST_PROXY must be a number of proxy hops or the proxies' addresses (e.g. 10.0.0.1,10.0.1.0/24), got "${raw}"`);
    return false;
  }
  return addresses;
}

function parseOrigins(name: string, raw: string | undefined, problems: string[]): string[] {
  if (raw === undefined) return [];
  const origins: string[] = [];
  for (const item of raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const url = URL.canParse(item) ? new URL(item) : null;
    if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== item.replace(/\/$/, '')) {
      problems.push(`${name} must list origins such as https://idp.example.com (scheme, host and port only), got "${item}"`);
      continue;
    }
    origins.push(url.origin);
  }
  return origins;
}

function parseOAuthProvider(id: OAuthProviderConfig['id'], value: (name: string) => string | undefined, problems: string[]): OAuthProviderConfig[] {
  const prefix = id.toUpperCase();
  const clientId = value(`${prefix}_CLIENT_ID`);
  const clientSecret = value(`${prefix}_CLIENT_SECRET`);
  const discoveryUrl = parseUrl(`${prefix}_DISCOVERY_URL`, value(`${prefix}_DISCOVERY_URL`), ['https:', 'http:'], problems) ?? OAUTH_DISCOVERY_URLS[id];
  if (clientId === undefined) {
    if (clientSecret !== undefined) problems.push(`${prefix}_CLIENT_SECRET is set without ${prefix}_CLIENT_ID`);
    return [];
  }
  if (clientSecret === undefined) {
    problems.push(`${prefix}_CLIENT_ID needs ${prefix}_CLIENT_SECRET too`);
    return [];
  }
  return [{ id, clientId, clientSecret, discoveryUrl }];
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
