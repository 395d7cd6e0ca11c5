import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_WEB_DIST, loadConfig, redactUrl, resolveDemo } from './config.ts';

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
      authRateLimitMax: null,
      dataDir: '/srv/nemuri/data',
      database: { kind: 'pglite', dataDir: '/srv/nemuri/data/pglite' },
      mqttUrl: null,
      mqttPort: 1883,
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
        AUTH_RATE_LIMIT_MAX: '500',
        DATA_DIR: 'var/nemuri',
        DATABASE_URL: 'postgres://app:secret@db.example:5432/nemuri',
        MQTT_URL: 'mqtts://broker.example:8883',
        MQTT_PORT: '11883',
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
      authRateLimitMax: 500,
      dataDir: '/srv/nemuri/var/nemuri',
      database: { kind: 'postgresql', url: 'postgres://app:secret@db.example:5432/nemuri' },
      mqttUrl: 'mqtts://broker.example:8883',
      mqttPort: 11883,
      smtpUrl: 'smtp://mail.example:587',
      demo: 'on',
      webDist: '/srv/nemuri/public',
      logLevel: 'debug',
    });
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
