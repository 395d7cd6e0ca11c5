import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_WEB_DIST, loadConfig, redactUrl, resolveDemo, resolveSimulate } from './config.ts';

const CWD = '/srv/nemuri';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, CWD);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({}, CWD)).toEqual({
      port: 3000,
      host: 'localhost',
      publicUrl: null,
      authSecret: null,
      metricsToken: null,
      authRateLimitMax: null,
      authAccountLock: { failures: 5, seconds: 900 },
      oauthProviders: [],
      ssoTrustedOrigins: [],
      trustProxy: false,
      dataDir: '/srv/nemuri/data',
      database: { kind: 'pglite', dataDir: '/srv/nemuri/data/pglite' },
      mqttUrl: null,
      mqttPort: 1883,
      mqttPortExplicit: false,
      mqttSharedGroup: null,
      mqttDeviceAccounts: null,
      mqttClientId: null,
      signalRetentionDays: 30,
      signalStoredChannels: null,
      simulate: 'auto',
      smtpUrl: null,
      demo: 'auto',
      webDist: DEFAULT_WEB_DIST,
      logLevel: 'info',
    });
  });

  it('finds the web app of this repository by default', () => {
    expect(DEFAULT_WEB_DIST).toBe(join(import.meta.dirname, '..', '..', 'web', 'dist'));
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        PUBLIC_URL: 'https://nemuri.example/',
        AUTH_SECRET: 'a'.repeat(32),
        METRICS_TOKEN: 'm'.repeat(32),
        AUTH_RATE_LIMIT_MAX: '500',
        AUTH_ACCOUNT_LOCK_FAILURES: '3',
        AUTH_ACCOUNT_LOCK_SECONDS: '60',
        GOOGLE_CLIENT_ID: 'google-id',
        GOOGLE_CLIENT_SECRET: 'google-secret',
        LINE_CLIENT_ID: 'line-id',
        LINE_CLIENT_SECRET: 'line-secret',
        LINE_DISCOVERY_URL: 'https://line.test/.well-known/openid-configuration',
        SSO_TRUSTED_ORIGINS: 'https://idp.example.com, http://127.0.0.1:9000',
        TRUST_PROXY: '1',
        DATA_DIR: 'var/nemuri',
        DATABASE_URL: 'postgres://app:secret@db.example:5432/nemuri',
        MQTT_URL: 'mqtts://broker.example:8883',
        MQTT_PORT: '11883',
        MQTT_CLIENT_ID: 'nemuri-a',
        SMTP_URL: 'smtp://mail.example:587',
        DEMO: 'true',
        WEB_DIST: 'public',
        LOG_LEVEL: 'DEBUG',
      },
      CWD,
    );
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'https://nemuri.example',
      authSecret: 'a'.repeat(32),
      metricsToken: 'm'.repeat(32),
      authRateLimitMax: 500,
      authAccountLock: { failures: 3, seconds: 60 },
      oauthProviders: [
        { id: 'google', clientId: 'google-id', clientSecret: 'google-secret', discoveryUrl: 'https://accounts.google.com/.well-known/openid-configuration' },
        { id: 'line', clientId: 'line-id', clientSecret: 'line-secret', discoveryUrl: 'https://line.test/.well-known/openid-configuration' },
      ],
      ssoTrustedOrigins: ['https://idp.example.com', 'http://127.0.0.1:9000'],
      trustProxy: 1,
      dataDir: '/srv/nemuri/var/nemuri',
      database: { kind: 'postgresql', url: 'postgres://app:secret@db.example:5432/nemuri' },
      mqttUrl: 'mqtts://broker.example:8883',
      mqttPort: 11883,
      mqttPortExplicit: true,
      mqttSharedGroup: null,
      mqttDeviceAccounts: null,
      mqttClientId: 'nemuri-a',
      signalRetentionDays: 30,
      signalStoredChannels: null,
      simulate: 'auto',
      smtpUrl: 'smtp://mail.example:587',
      demo: 'on',
      webDist: '/srv/nemuri/public',
      logLevel: 'debug',
    });
  });

  it('needs both halves of a social provider, and well-formed SSO origins', () => {
    expect(problemsOf({ GOOGLE_CLIENT_ID: 'x' })).toEqual(['GOOGLE_CLIENT_ID needs GOOGLE_CLIENT_SECRET too']);
    expect(problemsOf({ LINE_CLIENT_SECRET: 'x' })).toEqual(['LINE_CLIENT_SECRET is set without LINE_CLIENT_ID']);
    expect(problemsOf({ GOOGLE_CLIENT_ID: 'x', GOOGLE_CLIENT_SECRET: 'y', GOOGLE_DISCOVERY_URL: 'ftp://x' })).toEqual([
      'GOOGLE_DISCOVERY_URL must be a URL starting with one of https://, http://, got "ftp://x"',
    ]);
    expect(problemsOf({ SSO_TRUSTED_ORIGINS: 'https://idp.example.com/path' })).toEqual([
      'SSO_TRUSTED_ORIGINS must list origins such as https://idp.example.com (scheme, host and port only), got "https://idp.example.com/path"',
    ]);
  });

  it('reads TRUST_PROXY as hops or proxy addresses', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.1.0/24' }, CWD).trustProxy).toEqual(['10.0.0.1', '10.0.1.0/24']);
    expect(loadConfig({ TRUST_PROXY: 'false' }, CWD).trustProxy).toBe(false);
    expect(problemsOf({ TRUST_PROXY: 'yes please' })).toEqual([
      'TRUST_PROXY must be a number of proxy hops or the proxies\' addresses (e.g. 10.0.0.1,10.0.1.0/24), got "yes please"',
    ]);
  });

  it('keeps absolute paths and treats empty values as unset', () => {
    const config = loadConfig({ DATA_DIR: '/data', WEB_DIST: '/web', PORT: '', DATABASE_URL: ' ' }, CWD);
    expect(config.dataDir).toBe('/data');
    expect(config.database).toEqual({ kind: 'pglite', dataDir: '/data/pglite' });
    expect(config.webDist).toBe('/web');
    expect(config.port).toBe(3000);
  });

  it('accepts memory:// and postgresql:// database URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'memory://' }, CWD).database).toEqual({ kind: 'pglite', dataDir: null });
    expect(loadConfig({ DATABASE_URL: 'postgresql://h/db' }, CWD).database).toEqual({ kind: 'postgresql', url: 'postgresql://h/db' });
  });

  it.each([
    ['1', 'on'],
    ['true', 'on'],
    ['TRUE', 'on'],
    ['0', 'off'],
    ['false', 'off'],
  ])('reads DEMO=%s as %s', (value, expected) => {
    expect(loadConfig({ DEMO: value }, CWD).demo).toBe(expected);
  });

  it('reads PUBLIC_URL as an origin', () => {
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:8080' }, CWD).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'HTTPS://Nemuri.Example:443/' }, CWD).publicUrl).toBe('https://nemuri.example');
  });

  it.each(['nemuri.example', 'ftp://nemuri.example', 'https://nemuri.example/app', 'https://nemuri.example/?x=1', 'https://u:pw@nemuri.example'])(
    'rejects PUBLIC_URL=%s with a clear message',
    (value) => {
      const problems = problemsOf({ PUBLIC_URL: value });
      expect(problems).toEqual([expect.stringMatching(/^PUBLIC_URL must be an http:\/\/ or https:\/\/ origin without a path/)]);
      expect(problems.join('')).not.toContain(':pw@');
    },
  );

  it('rejects a short AUTH_SECRET without repeating it', () => {
    const problems = problemsOf({ AUTH_SECRET: 'hunter2-hunter2' });
    expect(problems).toEqual(['AUTH_SECRET must be at least 32 characters (for example from `openssl rand -base64 32`), got 15']);
  });

  it('rejects a short or unprintable METRICS_TOKEN without repeating it', () => {
    const message = (length: number): string =>
      `METRICS_TOKEN must be at least 32 printable characters without spaces (for example from \`openssl rand -hex 32\`), got ${length} characters`;
    expect(problemsOf({ METRICS_TOKEN: 'scrape-me' })).toEqual([message(9)]);
    expect(problemsOf({ METRICS_TOKEN: `${'x'.repeat(20)} ${'y'.repeat(20)}` })).toEqual([message(41)]);
  });

  it.each(['0', '-5', 'many', '1.5'])('rejects AUTH_RATE_LIMIT_MAX=%s', (value) => {
    expect(problemsOf({ AUTH_RATE_LIMIT_MAX: value })).toEqual([
      `AUTH_RATE_LIMIT_MAX must be a whole number of requests per minute, at least 1 (unset: the built-in limits), got "${value}"`,
    ]);
  });

  it('accepts port 0 (a free port) and 65535', () => {
    expect(loadConfig({ PORT: '0' }, CWD).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }, CWD).port).toBe(65535);
  });

  it.each(['abc', '-1', '65536', '3000.5', '80a', '1e3'])('rejects PORT=%s with a clear message', (value) => {
    expect(problemsOf({ PORT: value })).toEqual([`PORT must be a whole number from 0 to 65535 (0 picks a free port), got "${value}"`]);
  });

  it('names the variable in the thrown message', () => {
    expect(() => loadConfig({ PORT: 'http' }, CWD)).toThrow(/^invalid configuration: PORT must be a whole number/);
  });

  it('reports every bad variable at once, without passwords', () => {
    const problems = problemsOf({
      MQTT_PORT: '99999',
      DATABASE_URL: 'mysql://u:hunter2@h/db',
      MQTT_URL: 'http://broker',
      SMTP_URL: 'mail.example',
      DEMO: 'maybe',
      LOG_LEVEL: 'loud',
    });
    expect(problems).toHaveLength(6);
    expect(problems.join('\n')).not.toContain('hunter2');
    expect(problems).toEqual([
      expect.stringMatching(/^MQTT_PORT must be a whole number/),
      expect.stringMatching(/^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL .*got "mysql:\/\/u:\*\*\*@h\/db"$/),
      expect.stringMatching(/^MQTT_URL must be a URL starting with one of mqtt:\/\//),
      expect.stringMatching(/^SMTP_URL must be a URL starting with one of smtp:\/\/, smtps:\/\//),
      'DEMO must be 1, true, 0 or false (unset: demo data on a new embedded database), got "maybe"',
      expect.stringMatching(/^LOG_LEVEL must be one of fatal, error, warn, info/),
    ]);
  });
});

describe('redactUrl', () => {
  it('hides passwords only', () => {
    expect(redactUrl('postgres://u:p@h:5432/db')).toBe('postgres://u:***@h:5432/db');
    expect(redactUrl('postgres://u@h/db')).toBe('postgres://u@h/db');
  });
});

describe('resolveDemo', () => {
  it('follows DEMO when given', () => {
    expect(resolveDemo('on', { embedded: false, firstStart: false })).toBe(true);
    expect(resolveDemo('off', { embedded: true, firstStart: true })).toBe(false);
  });

  it('without DEMO: only on a new embedded database', () => {
    expect(resolveDemo('auto', { embedded: true, firstStart: true })).toBe(true);
    expect(resolveDemo('auto', { embedded: true, firstStart: false })).toBe(false);
    expect(resolveDemo('auto', { embedded: false, firstStart: true })).toBe(false);
  });
});

describe('device and signal settings', () => {
  it('reads MQTT_SHARED_GROUP, MQTT_CLIENT_ID, SIGNAL_RETENTION_DAYS and SIMULATE', () => {
    const config = loadConfig({ MQTT_SHARED_GROUP: 'nemuri', MQTT_CLIENT_ID: 'nemuri-1', SIGNAL_RETENTION_DAYS: '7', SIMULATE: '0' }, CWD);
    expect([config.mqttSharedGroup, config.mqttClientId, config.signalRetentionDays, config.simulate, config.mqttPortExplicit]).toEqual([
      'nemuri',
      'nemuri-1',
      7,
      'off',
      false,
    ]);
    expect(loadConfig({ MQTT_PORT: '1883' }, CWD).mqttPortExplicit).toBe(true);
  });

  it('reads MQTT_DEVICE_ACCOUNTS=dynsec with MQTT_URL only', () => {
    expect(loadConfig({ MQTT_URL: 'mqtt://127.0.0.1:1883', MQTT_DEVICE_ACCOUNTS: 'dynsec' }, CWD).mqttDeviceAccounts).toBe('dynsec');
    expect(() => loadConfig({ MQTT_DEVICE_ACCOUNTS: 'dynsec' }, CWD)).toThrow(/MQTT_DEVICE_ACCOUNTS needs MQTT_URL/);
    expect(() => loadConfig({ MQTT_URL: 'mqtt://127.0.0.1:1883', MQTT_DEVICE_ACCOUNTS: 'passwd' }, CWD)).toThrow(/MQTT_DEVICE_ACCOUNTS must be dynsec/);
  });

  it('reads SIGNAL_STORED_CHANNELS', () => {
    expect(loadConfig({ SIGNAL_STORED_CHANNELS: 'ecg, respiAxl,respiHr' }, CWD).signalStoredChannels).toEqual(['ecg', 'respiAxl', 'respiHr']);
    expect(loadConfig({ SIGNAL_STORED_CHANNELS: ',' }, CWD).signalStoredChannels).toEqual([]);
    expect(problemsOf({ SIGNAL_STORED_CHANNELS: 'ecg,video' })).toEqual([
      expect.stringMatching(/^SIGNAL_STORED_CHANNELS must list channels among ecg, respiAxl/),
    ]);
  });

  it('names each invalid one', () => {
    expect(problemsOf({ MQTT_SHARED_GROUP: 'a/b', MQTT_CLIENT_ID: 'x y', SIGNAL_RETENTION_DAYS: '0', SIMULATE: 'maybe' })).toEqual([
      expect.stringMatching(/^MQTT_SHARED_GROUP must be/),
      expect.stringMatching(/^MQTT_CLIENT_ID must be/),
      expect.stringMatching(/^SIGNAL_RETENTION_DAYS must be a whole number of days from 1 to 36500/),
      expect.stringMatching(/^SIMULATE must be 1, true, 0 or false/),
    ]);
  });

  it('runs the simulated devices with demo data, unless off, and under Vitest only when asked', () => {
    expect(resolveSimulate('auto', true, {})).toBe(true);
    expect(resolveSimulate('auto', true, { VITEST: 'true' })).toBe(false);
    expect(resolveSimulate('on', true, { VITEST: 'true' })).toBe(true);
    expect(resolveSimulate('off', true, {})).toBe(false);
    expect(resolveSimulate('on', false, {})).toBe(false);
  });
});
