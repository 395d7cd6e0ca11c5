/**
 * Station (kiosk) mode: the monitoring screen alone, full screen, and a screen that does not go dark
 * (Screen Wake Lock API). Browsers release a wake lock whenever the page is hidden (another tab, a
 * locked device), so it is asked for again each time the page is visible; where the API or full
 * screen is missing (older browsers, iPhone Safari) the mode still fills the window and says what the
 * device must do instead.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

/** `held`: the screen stays on; `released` while hidden; `unsupported` / `refused` need the device's own setting. */
export type WakeLockState = 'off' | 'held' | 'released' | 'unsupported' | 'refused';

export interface StationMode {
  active: boolean;
  /** Whether the browser shows the page full screen now. */
  fullscreen: boolean;
  fullscreenSupported: boolean;
  wakeLock: WakeLockState;
  enter(): Promise<void>;
  exit(): Promise<void>;
}

function fullscreenSupported(): boolean {
  return typeof document !== 'undefined' && document.fullscreenEnabled === true && typeof document.documentElement.requestFullscreen === 'function';
}

function wakeLockSupported(): boolean {
  return typeof navigator !== 'undefined' && 'wakeLock' in navigator;
}

export function useStationMode(): StationMode {
  const [active, setActive] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [wakeLock, setWakeLock] = useState<WakeLockState>('off');
  const sentinel = useRef<WakeLockSentinel | null>(null);
  const wanted = useRef(false);

  const acquire = useCallback(async () => {
    if (!wakeLockSupported()) {
      setWakeLock('unsupported');
      return;
    }
    if (sentinel.current !== null && !sentinel.current.released) return;
    try {
      const lock = await navigator.wakeLock.request('screen');
      if (!wanted.current) {
        void lock.release();
        return;
      }
      sentinel.current = lock;
      setWakeLock('held');
      lock.addEventListener('release', () => {
        if (sentinel.current === lock) setWakeLock(wanted.current ? 'released' : 'off');
      });
    } catch {
      // Refused: a hidden page, a battery saver, or a policy.
      setWakeLock(document.visibilityState === 'visible' ? 'refused' : 'released');
    }
  }, []);

  const exit = useCallback(async () => {
    wanted.current = false;
    setActive(false);
    setWakeLock('off');
    const lock = sentinel.current;
    sentinel.current = null;
    await lock?.release().catch(() => undefined);
    if (document.fullscreenElement) await document.exitFullscreen().catch(() => undefined);
  }, []);

  const enter = useCallback(async () => {
    wanted.current = true;
    setActive(true);
    // Both need the click's user activation: ask for them before anything else is awaited.
    const screen = fullscreenSupported() ? document.documentElement.requestFullscreen().catch(() => undefined) : Promise.resolve();
    await Promise.all([screen, acquire()]);
  }, [acquire]);

  useEffect(() => {
    const onVisibility = () => {
      if (wanted.current && document.visibilityState === 'visible') void acquire();
    };
    const onFullscreen = () => {
      const now = document.fullscreenElement !== null;
      setFullscreen(now);
      // Leaving full screen (Esc) leaves station mode, so the screen is not kept on unasked.
      if (!now && wanted.current && fullscreenSupported()) void exit();
    };
    document.addEventListener('visibilitychange', onVisibility);
    document.addEventListener('fullscreenchange', onFullscreen);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      document.removeEventListener('fullscreenchange', onFullscreen);
    };
  }, [acquire, exit]);

  // Leaving the page ends the mode.
  useEffect(
    () => () => {
      wanted.current = false;
      void sentinel.current?.release().catch(() => undefined);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    },
    [],
  );

  return { active, fullscreen, fullscreenSupported: fullscreenSupported(), wakeLock, enter, exit };
}
