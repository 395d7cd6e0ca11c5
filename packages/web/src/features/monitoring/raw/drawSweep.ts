/**
 * Draws sweeping traces, as a bedside monitor does: each row's newest sample is at the cursor, which
 * moves left to right and wraps; just ahead of it the oldest part of the window is erased by a small
 * gap. A sample's x position depends only on its device time (time mod window), so nothing already
 * drawn moves: each animation frame only clears and draws the few pixels the cursor has passed since
 * the last one (a whole redraw happens when the window, the scale, the size or a fitted range
 * changes). With software rendering this is what keeps a 9-row view at the display's frame rate.
 * When a window holds more samples than the row has pixels, each pixel column is drawn as its min-max
 * span (no sample is skipped, e.g. an R peak).
 */
import type { SignalTrace } from './signalTrace.ts';

export interface TraceRow {
  trace: SignalTrace;
  component: number;
  color: string;
  /** Fixed value range of the row (before amplitude scaling), or null to fit the visible samples. */
  range: readonly [number, number] | null;
  /** `step`: a state held until the next sample (the nurse-call button). */
  kind?: 'line' | 'step';
}

export interface SweepView {
  windowSeconds: number;
  /** Device time at the cursor, µs. */
  cursorUs: number;
  /** Zoom of the value axis around the row's centre; 'auto' fits the visible samples. */
  amplitude: number | 'auto';
}

export interface SweepColors {
  grid: string;
  cursor: string;
}

/** The erased gap ahead of the cursor, as a share of the window. */
const GAP_SHARE = 0.025;
/** Fitted ranges are re-checked this often; a change of more than a sixth of the span redraws all. */
const REFIT_MS = 1000;
const REFIT_TOLERANCE = 1 / 6;
const SMALL_STEP_BACK_US = 500_000;

export function gridSecondsFor(windowSeconds: number): number {
  if (windowSeconds <= 10) return 1;
  if (windowSeconds <= 60) return 5;
  if (windowSeconds <= 600) return 60;
  return 600;
}

/** The value range a row is drawn with, from the samples between two absolute indices when fitted. */
export function rowRange(row: TraceRow, amplitude: number | 'auto', fromIndex: number, toIndex: number): [number, number] {
  if (row.range !== null && amplitude !== 'auto') {
    const [low, high] = row.range;
    const centre = (low + high) / 2;
    const half = (high - low) / 2 / amplitude;
    return [centre - half, centre + half];
  }
  const seen = row.trace.range(fromIndex, toIndex, row.component);
  if (seen === null) return row.range === null ? [-1, 1] : [row.range[0], row.range[1]];
  const [low, high] = seen;
  const span = high - low;
  const pad = span > 0 ? span * 0.1 : Math.max(Math.abs(high) * 0.05, 0.5);
  return [low - pad, high + pad];
}

export function sweepX(timeSeconds: number, windowSeconds: number, width: number): number {
  const phase = timeSeconds % windowSeconds;
  return ((phase < 0 ? phase + windowSeconds : phase) / windowSeconds) * width;
}

/** The visible samples of a row: the window behind the cursor, less the gap. */
function visibleIndices(trace: SignalTrace, view: SweepView): [number, number] {
  const startUs = view.cursorUs - view.windowSeconds * 1e6 * (1 - GAP_SHARE);
  return [Math.max(Math.ceil(trace.indexOf(startUs)), trace.end - trace.capacity, 0), Math.min(Math.floor(trace.indexOf(view.cursorUs)), trace.end - 1)];
}

function fittedRange(row: TraceRow, view: SweepView): [number, number] {
  if (row.trace.empty) return row.range === null ? [-1, 1] : [row.range[0], row.range[1]];
  const [from, to] = visibleIndices(row.trace, view);
  return rowRange(row, view.amplitude, from, to + 1);
}

function rangeMoved(current: readonly [number, number], fitted: readonly [number, number]): boolean {
  const span = current[1] - current[0] || 1;
  return Math.abs(fitted[0] - current[0]) > span * REFIT_TOLERANCE || Math.abs(fitted[1] - current[1]) > span * REFIT_TOLERANCE;
}

/** Keeps what is on one canvas and brings it up to the cursor on every animation frame. */
export class SweepRenderer {
  readonly #context: CanvasRenderingContext2D;
  readonly #colors: SweepColors;
  #width = 0;
  #height = 0;
  #key = '';
  #rows: readonly TraceRow[] = [];
  #ranges: [number, number][] = [];
  #lastCursorUs: number | null = null;
  #refitAt = 0;

  constructor(context: CanvasRenderingContext2D, colors: SweepColors) {
    this.#context = context;
    this.#colors = colors;
  }

  /** The canvas's size in CSS pixels changed: everything is drawn anew. */
  resize(width: number, height: number): void {
    this.#width = width;
    this.#height = height;
    this.#lastCursorUs = null;
  }

  /** Draws up to `view.cursorUs`; `pageNowMs` paces the re-fitting of fitted ranges. */
  draw(rows: readonly TraceRow[], view: SweepView, pageNowMs: number): void {
    if (this.#width === 0 || this.#height === 0) return;
    const key = `${view.windowSeconds} ${view.amplitude}`;
    const last = this.#lastCursorUs;
    // A cursor a little behind the one drawn (pausing a frame late, the playback clock finding a
    // faster path) waits where it is: redrawing everything for it would only flicker.
    if (last !== null && key === this.#key && rows === this.#rows && view.cursorUs < last && last - view.cursorUs < SMALL_STEP_BACK_US) return;
    let full = key !== this.#key || rows !== this.#rows || last === null || view.cursorUs < last || view.cursorUs - last > view.windowSeconds * 2.5e5;
    // Ranges are re-fitted only while the sweep moves: a paused picture stays exactly as it is.
    if (!full && view.cursorUs !== last && pageNowMs >= this.#refitAt) {
      this.#refitAt = pageNowMs + REFIT_MS;
      full = rows.some((row, r) => (row.range === null || view.amplitude === 'auto') && rangeMoved(this.#ranges[r] ?? [0, 0], fittedRange(row, view)));
    }
    if (!full && view.cursorUs === last) return;
    if (full) {
      this.#key = key;
      this.#rows = rows;
      this.#ranges = rows.map((row) => fittedRange(row, view));
      this.#drawBand(0, this.#width, rows, view, null);
    } else {
      const window = view.windowSeconds;
      const from = sweepX((last as number) / 1e6, window, this.#width) - 2;
      const to = sweepX(view.cursorUs / 1e6, window, this.#width) + GAP_SHARE * this.#width;
      // The band the cursor passed, plus the gap ahead of it; split where it wraps at the right edge.
      const end = to >= from ? to : to + this.#width;
      for (let start = from; start < end;) {
        const base = Math.floor(start / this.#width) * this.#width;
        const stop = Math.min(end, base + this.#width);
        this.#drawBand(start - base, stop - base, rows, view, last as number);
        start = stop;
      }
    }
    this.#lastCursorUs = view.cursorUs;
    const context = this.#context;
    const cursorX = Math.round(sweepX(view.cursorUs / 1e6, view.windowSeconds, this.#width)) + 0.5;
    // The gap ahead of the cursor: what the rows drew beyond it is erased again.
    const gapEnd = cursorX + GAP_SHARE * this.#width;
    this.#clearGap(cursorX + 1, Math.min(gapEnd, this.#width), rows.length, view.windowSeconds);
    if (gapEnd > this.#width) this.#clearGap(0, gapEnd - this.#width, rows.length, view.windowSeconds);
    context.strokeStyle = this.#colors.cursor;
    context.lineWidth = 2;
    context.beginPath();
    context.moveTo(cursorX, 0);
    context.lineTo(cursorX, this.#height);
    context.stroke();
  }

  #clearGap(x0: number, x1: number, rowCount: number, window: number): void {
    if (x1 <= x0) return;
    const context = this.#context;
    context.save();
    context.beginPath();
    context.rect(x0, 0, x1 - x0, this.#height);
    context.clip();
    context.clearRect(x0, 0, x1 - x0, this.#height);
    this.#grid(x0, x1, rowCount, window);
    context.restore();
  }

  #grid(left: number, right: number, rowCount: number, window: number): void {
    const context = this.#context;
    const grid = gridSecondsFor(window);
    const rowHeight = this.#height / Math.max(rowCount, 1);
    context.lineWidth = 1;
    context.strokeStyle = this.#colors.grid;
    context.beginPath();
    for (let t = 0; t < window; t += grid) {
      const x = Math.round((t / window) * this.#width) + 0.5;
      if (x < left - 1 || x > right + 1) continue;
      context.moveTo(x, 0);
      context.lineTo(x, this.#height);
    }
    for (let r = 1; r < rowCount; r++) {
      const y = Math.round(r * rowHeight) + 0.5;
      context.moveTo(left, y);
      context.lineTo(right, y);
    }
    context.stroke();
  }

  /** Clears columns x0…x1 and draws the grid and the samples from `sinceUs` (null: the whole window) into them. */
  #drawBand(x0: number, x1: number, rows: readonly TraceRow[], view: SweepView, sinceUs: number | null): void {
    const context = this.#context;
    const left = Math.max(0, Math.floor(x0));
    const right = Math.min(this.#width, Math.ceil(x1));
    if (right <= left) return;
    context.save();
    context.beginPath();
    context.rect(left, 0, right - left, this.#height);
    context.clip();
    context.clearRect(left, 0, right - left, this.#height);
    this.#grid(left, right, rows.length, view.windowSeconds);
    const rowHeight = this.#height / Math.max(rows.length, 1);
    rows.forEach((row, r) => this.#drawRow(row, this.#ranges[r] ?? [-1, 1], view, r * rowHeight, rowHeight, sinceUs));
    context.restore();
  }

  #drawRow(row: TraceRow, [low, high]: readonly [number, number], view: SweepView, top: number, rowHeight: number, sinceUs: number | null): void {
    const { trace } = row;
    if (trace.empty) return;
    const context = this.#context;
    const width = this.#width;
    const window = view.windowSeconds;
    const [visibleFrom, atCursor] = visibleIndices(trace, view);
    // A band redraws its columns whole: from a few pixels before it, and the line to the first sample
    // after the cursor (the part beyond the cursor is erased with the gap).
    const bandStartUs = sinceUs === null ? 0 : sinceUs - ((4 * window) / width) * 1e6;
    const fromIndex = sinceUs === null ? visibleFrom : Math.max(visibleFrom, Math.floor(trace.indexOf(bandStartUs)) - 1);
    const toIndex = Math.min(atCursor + 1, trace.end - 1);
    if (toIndex < fromIndex) return;
    const margin = Math.min(4, rowHeight * 0.05);
    const scale = (rowHeight - 2 * margin) / (high - low || 1);
    const yOf = (value: number) => {
      const y = top + margin + (high - value) * scale;
      return y < top ? top : y > top + rowHeight ? top + rowHeight : y;
    };
    const secondsPerSample = 1 / trace.rate;
    const originSeconds = trace.timeUsOf(0) / 1e6;
    const columns = (trace.rate * window) / width > 2;

    context.strokeStyle = row.color;
    context.lineWidth = 1.5;
    context.lineJoin = 'round';
    context.beginPath();
    let penDown = false;
    let lastX = Number.POSITIVE_INFINITY;
    let column = -1;
    let columnMin = 0;
    let columnMax = 0;
    let previousY = 0;
    const flushColumn = () => {
      if (column < 0) return;
      context.lineTo(column + 0.5, yOf(columnMin));
      context.lineTo(column + 0.5, yOf(columnMax));
    };
    for (let index = fromIndex; index <= toIndex; index++) {
      const value = trace.at(index, row.component);
      const x = sweepX(originSeconds + index * secondsPerSample, window, width);
      if (Number.isNaN(value) || x < lastX) {
        // A gap or the wrap at the right edge: lift the pen.
        if (columns) flushColumn();
        column = -1;
        penDown = false;
        lastX = Number.isNaN(value) ? Number.POSITIVE_INFINITY : x;
        if (Number.isNaN(value)) continue;
      }
      lastX = x;
      if (columns) {
        const pixel = Math.floor(x);
        if (pixel !== column) {
          if (column >= 0) flushColumn();
          else if (!penDown) {
            context.moveTo(pixel + 0.5, yOf(value));
            penDown = true;
          }
          column = pixel;
          columnMin = value;
          columnMax = value;
        } else {
          if (value < columnMin) columnMin = value;
          if (value > columnMax) columnMax = value;
        }
        continue;
      }
      const y = yOf(value);
      if (!penDown) {
        context.moveTo(x, y);
        penDown = true;
      } else if (row.kind === 'step') {
        context.lineTo(x, previousY);
        context.lineTo(x, y);
      } else {
        context.lineTo(x, y);
      }
      previousY = y;
    }
    if (columns) flushColumn();
    else if (penDown && toIndex === atCursor) {
      // The next sample of a slow signal (1 Hz rates, temperature) has not come yet: hold the last
      // value up to the cursor, so the trend is drawn as the cursor passes, not in dashes.
      const cursorX = sweepX(view.cursorUs / 1e6, window, width);
      if (cursorX >= lastX) context.lineTo(cursorX, previousY);
    }
    context.stroke();
  }
}
