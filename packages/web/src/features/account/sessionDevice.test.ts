import { describe, expect, it } from 'vitest';
import { sessionDeviceOf } from './sessionDevice.ts';

describe('sessionDeviceOf', () => {
  it('names common browsers and systems', () => {
    expect(sessionDeviceOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0')).toEqual({
      browser: 'Edge',
      system: 'Windows',
    });
    expect(
      sessionDeviceOf(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari', system: 'iOS' });
    expect(sessionDeviceOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36')).toEqual({
      browser: 'Chrome',
      system: 'Linux',
    });
    expect(sessionDeviceOf('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36')).toEqual({
      browser: 'Chrome',
      system: 'Android',
    });
  });

  it('says nothing for what it does not know', () => {
    expect(sessionDeviceOf(null)).toEqual({ browser: null, system: null });
    expect(sessionDeviceOf('curl/8.0')).toEqual({ browser: null, system: null });
  });
});
