import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { renderRoute, userAtLevel } from '../../testing/renderRoute.tsx';

describe('route guard in the real route tree', () => {
  it('sends a signed-out user to the sign-in page with the way back', async () => {
    const { router } = await renderRoute('/room/r1/sleep?day=2026-11-01', null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2Froom%2Fr1%2Fsleep%3Fday%3D2026-11-01');
    expect(await screen.findByRole('heading', { name: 'ログイン' })).toBeTruthy();
  });

  it('tells a user whose level is too low, instead of a blank page', async () => {
    const { router } = await renderRoute('/domain-config', userAtLevel(ROLE_LEVELS.generalStaff));
    expect(await screen.findByText('このページへのアクセス権限がありません')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/domain-config');
  });

  it('lets a child rule replace the parent rule', async () => {
    await renderRoute('/room/r1/history', userAtLevel(ROLE_LEVELS.individualUser));
    expect(await screen.findByText('このページへのアクセス権限がありません')).toBeTruthy();
  });

  it('opens a screen the level allows, with its Japanese title', async () => {
    await renderRoute('/monitoring', userAtLevel(ROLE_LEVELS.administrator));
    expect(await screen.findByRole('heading', { name: 'モニタリング' })).toBeTruthy();
  });

  it('follows the index redirects', async () => {
    const { router } = await renderRoute('/room/r7', userAtLevel(ROLE_LEVELS.individualUser));
    await waitFor(() => expect(router.state.location.pathname).toBe('/room/r7/sleep'));
    const agency = await renderRoute('/agency', userAtLevel(ROLE_LEVELS.agency));
    await waitFor(() => expect(agency.router.state.location.pathname).toBe('/agency/devices'));
  });

  it('sends a signed-in user away from sign-in pages', async () => {
    const { router } = await renderRoute('/login', userAtLevel(ROLE_LEVELS.administrator));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('holds a level-0 user at second-factor enrolment', async () => {
    await renderRoute('/card', userAtLevel(ROLE_LEVELS.requestMfa));
    expect(await screen.findByText('二要素認証の登録が必要です')).toBeTruthy();
  });

  it('shows the not-found page for unknown paths', async () => {
    await renderRoute('/no/such/page', null);
    expect(await screen.findByText('ページが見つかりません')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'ホームへ戻る' }).getAttribute('href')).toBe('/');
  });

  it('lists only the areas the level opens in the navigation', async () => {
    await renderRoute('/help', userAtLevel(ROLE_LEVELS.generalStaff));
    const nav = await screen.findByRole('navigation', { name: 'メインメニュー' });
    const labels = [...nav.querySelectorAll('a')].map((a) => a.textContent);
    expect(labels).toEqual(['ホーム', '部屋一覧', 'アラート履歴', 'レポート', 'データ取り込み', '部屋設定', '機器設定', 'ヘルプ']);
  });

  it('shows the version in help', async () => {
    await renderRoute('/help', userAtLevel(ROLE_LEVELS.individualUser));
    expect((await screen.findByTestId('help-version')).textContent).toBe('0.8.32');
  });
});
