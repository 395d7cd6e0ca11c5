/**
 * Draws sweeping traces, as a bedside monitor does: each row's newest sample is at the cursor, which
 * moves left to right and wraps; just ahead of it the oldest part of the window is erased by a small
 * gap. A sample's x position depends only on its device time (time mod window), so nothing shifts
 * between frames and the picture is stable when paused. When a window holds more samples than the
 * row has pixels, each pixel column is drawn as its min-max span (no sample is skipped, e.g. an R peak).
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
  /** Written at the row's top left, so that stacked rows can be told apart. */
  label?: string;
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

export function gridSecondsFor(windowSeconds: number): number {
  if (windowSeconds <= 10) return 1;
  if (windowSeconds <= 60) return 5;
  if (windowSeconds <= 600) return 60;
  return 600;
}

/** The value range a row is drawn with. */
export function rowRange(row: TraceRow, view: SweepView, fromIndex: number, toIndex: number): [number, number] {
  if (row.range !== null && view.amplitude !== 'auto') {
    const [low, high] = row.range;
    const centre = (low + high) / 2;
    const half = (high - low) / 2 / view.amplitude;
    return [centre - half, centre + half];
  }
  const seen = row.trace.range(fromIndex, toIndex, row.component);
  if (seen === null) return row.range === null ? [-1, 1] : [row.range[0], row.range[1]];
  const [low, high] = seen;
  const span = high - low;
  const pad = span > 0 ? span * 0.1 : Math.max(Math.abs(high) * 0.05, 0.5);
  return [low - pad, high + pad];
}

function sweepX(timeSeconds: number, windowSeconds: number, width: number): number {
  const phase = timeSeconds % windowSeconds;
  return ((phase < 0 ? phase + windowSeconds : phase) / windowSeconds) * width;
}

/** Draws the grid, each row and the cursor into a canvas context measured in CSS pixels. */
export function drawSweep(context: CanvasRenderingContext2D, width: number, height: number, rows: readonly TraceRow[], view: SweepView, colors: SweepColors): void {
  context.clearRect(0, 0, width, height);
  const window = view.windowSeconds;
  const cursorSeconds = view.cursorUs / 1e6;
  const grid = gridSecondsFor(window);
  context.lineWidth = 1;
  context.strokeStyle = colors.grid;
  context.beginPath();
  for (let t = 0; t < window; t += grid) {
    const x = Math.round((t / window) * width) + 0.5;
    context.moveTo(x, 0);
    context.lineTo(x, height);
  }
  const rowHeight = height / Math.max(rows.length, 1);
  for (let r = 1; r < rows.length; r++) {
    const y = Math.round(r * rowHeight) + 0.5;
    context.moveTo(0, y);
    context.lineTo(width, y);
  }
  context.stroke();

  rows.forEach((row, r) => drawRow(context, row, view, width, r * rowHeight, rowHeight));
  context.font = '11px system-ui, sans-serif';
  context.textBaseline = 'top';
  rows.forEach((row, r) => {
    if (row.label === undefined) return;
    context.fillStyle = row.color;
    context.fillText(row.label, 6, r * rowHeight + 4);
  });

  const cursorX = Math.round(sweepX(cursorSeconds, window, width)) + 0.5;
  context.strokeStyle = colors.cursor;
  context.lineWidth = 2;
  context.beginPath();
  context.moveTo(cursorX, 0);
  context.lineTo(cursorX, height);
  context.stroke();
}

function drawRow(context: CanvasRenderingContext2D, row: TraceRow, view: SweepView, width: number, top: number, rowHeight: number): void {
  const { trace } = row;
  if (trace.empty) return;
  const window = view.windowSeconds;
  const startUs = view.cursorUs - window * 1e6 * (1 - GAP_SHARE);
  const fromIndex = Math.max(Math.ceil(trace.indexOf(startUs)), trace.end - trace.capacity, 0);
  const toIndex = Math.min(Math.floor(trace.indexOf(view.cursorUs)), trace.end - 1);
  if (toIndex < fromIndex) return;
  const [low, high] = rowRange(row, view, fromIndex, toIndex + 1);
  const margin = Math.min(4, rowHeight * 0.05);
  const scale = (rowHeight - 2 * margin) / (high - low || 1);
  const yOf = (value: number) => {
    const y = top + margin + (high - value) * scale;
    return y < top ? top : y > top + rowHeight ? top + rowHeight : y;
  };
  const secondsPerSample = 1 / trace.rate;
  const originSeconds = trace.timeUsOf(0) / 1e6;
  const columns = toIndex - fromIndex > 2 * width;

  context.save();
  context.beginPath();
  context.rect(0, top, width, rowHeight);
  context.clip();
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
  context.stroke();
  context.restore();
}
