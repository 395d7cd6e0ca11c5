import { render, screen } from '@testing-library/react';
import { lazy } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { OptionalPart } from './OptionalPart.tsx';

describe('an optional part of a screen', () => {
  it('is shown once its code has loaded', async () => {
    const Part = lazy(async () => ({ default: () => <p>読み込み済み</p> }));
    render(
      <main>
        <h1>画面</h1>
        <OptionalPart fallback={<p>準備中</p>}>
          <Part />
        </OptionalPart>
      </main>,
    );
    expect(await screen.findByText('読み込み済み')).toBeTruthy();
  });

  it('is left out, and the rest of the screen stays, when its code cannot be fetched', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Part = lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/Part.js')));
    render(
      <main>
        <h1>画面</h1>
        <OptionalPart failed={<p>読み込めませんでした</p>}>
          <Part />
        </OptionalPart>
      </main>,
    );
    expect(await screen.findByText('読み込めませんでした')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '画面' })).toBeTruthy();
    expect(warn).toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});
