import { describe, expect, it } from 'vitest';
import { ALL_ROUTES } from '@nemuri/shared/routeAccess';
import en from '../locales/en.json';
import ja from '../locales/ja.json';
import { SCREENS } from './screens.ts';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

describe('screens and translations', () => {
  it('gives every screen route a lazily loaded screen, and nothing else', () => {
    const screenRoutes = ALL_ROUTES.filter((route) => route.isScreen).map((route) => route.name);
    expect(Object.keys(SCREENS).sort()).toEqual([...screenRoutes].sort());
  });

  it('titles every route in Japanese and English', () => {
    for (const route of ALL_ROUTES) {
      expect(ja.routes, route.name).toHaveProperty([route.name]);
      expect(en.routes, route.name).toHaveProperty([route.name]);
    }
  });

  it('keeps the two translation files in step', () => {
    expect(keysOf(en).sort()).toEqual(keysOf(ja).sort());
  });

  it('uses the exact notice texts of the specification', () => {
    expect(ja.notices).toEqual({ offline: 'インターネットに接続されていません', updateAvailable: '新しいバージョンが利用可能です', update: '更新' });
    expect(ja.notFound.title).toBe('ページが見つかりません');
    expect(ja.guard.forbidden).toBe('このページへのアクセス権限がありません');
  });
});
