import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { useAlertSound } from './alertSound.ts';

/**
 * The browser's autoplay policy, which jsdom does not have: audio starts suspended, the page's own
 * request at load is refused (no user activation yet), any later request (from a touch) plays.
 */
class AutoplayPolicyAudioContext extends EventTarget {
  state: AudioContextState = 'suspended';
  #requests = 0;
  resume(): Promise<void> {
    this.#requests += 1;
    if (this.#requests === 1) return Promise.resolve();
    return Promise.resolve().then(() => {
      this.state = 'running';
      this.dispatchEvent(new Event('statechange'));
    });
  }
}

afterEach(() => {
  window.localStorage.clear();
});

it('keeps the sound warning (and what it pushes down) in place until the touch that allowed sound has made its click', async () => {
  Object.defineProperty(window, 'AudioContext', { value: AutoplayPolicyAudioContext, configurable: true });
  window.localStorage.setItem('nemuri.monitoring.soundEnabled', '1');
  const { result, unmount } = renderHook(() => useAlertSound());
  expect(result.current.playback).toBe('blocked');
  expect(result.current.enabledBefore).toBe(true);

  // The nurse presses a room's tile: the press gives the permission and the audio runs…
  let playbackAtClick: string | null = null;
  const tile = document.createElement('a');
  document.body.append(tile);
  tile.addEventListener('click', () => (playbackAtClick = result.current.playback));
  await act(async () => {
    tile.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
  // …but the warning stays while the finger is down,
  expect(result.current.playback).toBe('blocked');
  act(() => {
    tile.dispatchEvent(new PointerEvent('pointerup', { bubbles: true }));
    tile.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  });
  // and through the click the release makes, which reaches the tile it was meant for.
  expect(playbackAtClick).toBe('blocked');
  await waitFor(() => expect(result.current.playback).toBe('running'));
  tile.remove();
  unmount();
});
