/**
 * The alert sound: a short two-tone chime made with Web Audio (no file to load), played when a new
 * unacknowledged alert appears and each time the server sounds one again.
 *
 * Browsers start audio suspended until the user interacts with the page (autoplay policy), on every
 * page load. So the nurse's choice is remembered per browser: once sound was enabled here, the page
 * asks the browser for sound at once on every load (a browser that allows the site, e.g. a kiosk
 * started with --autoplay-policy=no-user-gesture-required, plays at once) and takes the first touch
 * or key press anywhere on the page as the permission; until sound really plays the station shows a
 * warning with a button. Muting is remembered too.
 */
import { useSyncExternalStore } from 'react';

const MUTE_KEY = 'nemuri.monitoring.muted';
const ENABLED_KEY = 'nemuri.monitoring.soundEnabled';

/** `blocked`: the browser holds sound back until a click; `unavailable`: no Web Audio at all. */
export type SoundPlayback = 'running' | 'blocked' | 'unavailable';

export interface AlertSoundState {
  playback: SoundPlayback;
  /** The nurse turned the sound off (remembered). */
  muted: boolean;
  /** Sound was enabled in this browser before (remembered): the warning then says how to get it back. */
  enabledBefore: boolean;
}

let context: AudioContext | null = null;
const listeners = new Set<() => void>();
let state: AlertSoundState = { playback: 'unavailable', muted: false, enabledBefore: false };
/**
 * A press under way. The touch that gives the browser its permission is usually meant for something
 * else (a room's tile): the warning going at pointerdown would move the tiles under the finger, and
 * the release, landing on another element, would open nothing or another room. So the state is
 * published once the press has ended in its click.
 */
let pressed = false;
let pressTimer: ReturnType<typeof setTimeout> | undefined;
/** A press whose end never reaches the page (released outside the window) holds nothing longer. */
const LONGEST_PRESS_MS = 3_000;

function stored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode without storage: the choice holds for this page only.
  }
}

function audio(): AudioContext | null {
  if (typeof window === 'undefined' || typeof window.AudioContext !== 'function') return null;
  if (context === null) {
    context = new window.AudioContext();
    context.addEventListener('statechange', refresh);
  }
  return context;
}

function playbackNow(): SoundPlayback {
  const ctx = audio();
  if (ctx === null) return 'unavailable';
  return ctx.state === 'running' ? 'running' : 'blocked';
}

function refresh(): void {
  if (pressed) return;
  const next: AlertSoundState = { playback: playbackNow(), muted: stored(MUTE_KEY) === '1', enabledBefore: stored(ENABLED_KEY) === '1' };
  if (next.playback === state.playback && next.muted === state.muted && next.enabledBefore === state.enabledBefore) return;
  state = next;
  for (const listener of listeners) listener();
}

/** Any touch or key press is a user activation: resume the audio with it, unless muted. */
function onInteraction(): void {
  if (state.muted || state.playback !== 'blocked') return;
  void enableSound();
}

function onPress(): void {
  pressed = true;
  clearTimeout(pressTimer);
  pressTimer = setTimeout(onPressEnd, LONGEST_PRESS_MS);
  onInteraction();
}

function onPressEnd(): void {
  if (!pressed) return;
  pressed = false;
  clearTimeout(pressTimer);
  // A task after this one: the click that the release makes is dispatched first.
  setTimeout(refresh, 0);
}

const PRESS_EVENTS: [string, () => void][] = [
  ['pointerdown', onPress],
  ['pointerup', onPressEnd],
  ['pointercancel', onPressEnd],
  ['keydown', onInteraction],
];

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    refresh();
    for (const [type, handler] of PRESS_EVENTS) window.addEventListener(type, handler, true);
    // Remembered: ask at once; the browser may allow it without a click.
    if (state.enabledBefore && !state.muted && state.playback === 'blocked')
      void audio()
        ?.resume()
        .catch(() => undefined);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    for (const [type, handler] of PRESS_EVENTS) window.removeEventListener(type, handler, true);
  };
}

/** The sound's state, following the browser's audio and the remembered choices. */
export function useAlertSound(): AlertSoundState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

/** Asks the browser for sound (call from a click) and remembers that sound is wanted in this browser. */
export async function enableSound(): Promise<boolean> {
  const ctx = audio();
  if (ctx === null) return false;
  store(ENABLED_KEY, '1');
  store(MUTE_KEY, '0');
  await ctx.resume().catch(() => undefined);
  refresh();
  return ctx.state === 'running';
}

export function setMuted(muted: boolean): void {
  store(MUTE_KEY, muted ? '1' : '0');
  refresh();
}

/** Two soft tones; nothing when audio is blocked or unavailable. */
export function playAlertChime(): void {
  const ctx = audio();
  if (ctx === null || ctx.state !== 'running') return;
  const start = ctx.currentTime;
  for (const [offset, frequency] of [
    [0, 880],
    [0.25, 660],
  ] as const) {
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.2, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.22);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(start + offset);
    oscillator.stop(start + offset + 0.25);
  }
}
