import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { elapsedClock } from './elapsed.ts';

/**
 * One page clock for every elapsed time on the station, ticking each second while someone reads it:
 * the texts that show it render again together, and nothing else on the page does.
 */
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const each of listeners) each();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearInterval(timer);
  };
}

/** The page clock (ms), re-read every second. */
export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
}

/** 「経過 m:ss」 since `startedAt` (ISO), ticking: the only part of an alert's row that changes each second. */
export function Elapsed({ startedAt }: { startedAt: string }) {
  const { t } = useTranslation();
  const clock = useNow();
  return <>{t('monitoring.elapsed', { time: elapsedClock(Date.parse(startedAt), clock) })}</>;
}
