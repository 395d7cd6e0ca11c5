/**
 * The alert sound: a short two-tone chime made with Web Audio (no file to load), played when a new
 * unacknowledged alert appears. Browsers start audio suspended until the user interacts with the
 * page, so the screen offers a button while `blocked` is true.
 */
let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof window === 'undefined' || typeof window.AudioContext !== 'function') return null;
  context ??= new window.AudioContext();
  return context;
}

/** Whether the browser still holds audio back (autoplay policy). */
export function soundBlocked(): boolean {
  return audio()?.state === 'suspended';
}

/** Asks the browser to allow sound; call from a click. */
export async function enableSound(): Promise<boolean> {
  const ctx = audio();
  if (ctx === null) return false;
  await ctx.resume().catch(() => undefined);
  return ctx.state === 'running';
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
