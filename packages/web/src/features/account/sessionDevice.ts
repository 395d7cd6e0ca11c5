/**
 * A session's browser and system in words a user recognises, from its User-Agent header. Only the
 * common ones are named: this is a hint for "is that me?", not device identification.
 */
export interface SessionDevice {
  browser: string | null;
  system: string | null;
}

const BROWSERS: readonly [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Line\//, 'LINE'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/iPad/, 'iPadOS'],
  [/iPhone|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

export function sessionDeviceOf(userAgent: string | null | undefined): SessionDevice {
  const agent = userAgent ?? '';
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1] ?? null;
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1] ?? null;
  return { browser, system };
}
