import { Box, Text, useComputedColorScheme } from '@mantine/core';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { SweepRenderer, type TraceRow } from './drawSweep.ts';
import type { PlaybackClock } from './playbackClock.ts';

interface SweepCanvasProps {
  rows: readonly TraceRow[];
  clock: PlaybackClock;
  windowSeconds: number;
  amplitude: number | 'auto';
  /** Device time (µs) to hold the cursor at, or null to run live. */
  frozenAtUs: number | null;
  rowHeight: number;
  label: string;
  /** Written at each row's top left (stacked rows), or null. */
  rowLabels: readonly string[] | null;
  /** Told the cursor's device time (µs) on every drawn frame. */
  onCursor?: (cursorUs: number) => void;
}

/**
 * Sweeping traces on a canvas, redrawn on every animation frame from the traces' typed arrays (React
 * renders this element once; nothing re-renders while it draws). Sized to the device pixel ratio.
 */
export function SweepCanvas({ rows, clock, windowSeconds, amplitude, frozenAtUs, rowHeight, label, rowLabels, onCursor }: SweepCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const scheme = useComputedColorScheme('dark');
  const height = rowHeight * Math.max(rows.length, 1);
  // The drawing loop reads the latest props through a ref, so changing them does not restart it.
  const props = useRef({ rows, windowSeconds, amplitude, frozenAtUs, onCursor });
  useLayoutEffect(() => {
    props.current = { rows, windowSeconds, amplitude, frozenAtUs, onCursor };
  }, [rows, windowSeconds, amplitude, frozenAtUs, onCursor]);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const colors =
      scheme === 'dark' ? { grid: 'rgba(255,255,255,0.09)', cursor: 'rgba(255,255,255,0.35)' } : { grid: 'rgba(0,0,0,0.08)', cursor: 'rgba(0,0,0,0.3)' };
    let frame = 0;
    const renderer = new SweepRenderer(context, colors);
    const resize = () => {
      const ratio = window.devicePixelRatio || 1;
      const cssWidth = canvas.clientWidth;
      canvas.width = Math.round(cssWidth * ratio);
      canvas.height = Math.round(height * ratio);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      renderer.resize(cssWidth, height);
    };
    resize();
    const observer = new ResizeObserver(resize);
    observer.observe(canvas);
    const draw = () => {
      frame = requestAnimationFrame(draw);
      const current = props.current;
      const pageNow = performance.timeOrigin + performance.now();
      const cursorMs = current.frozenAtUs === null ? clock.deviceTimeMs(pageNow) : current.frozenAtUs / 1000;
      if (cursorMs === null) return;
      const cursorUs = cursorMs * 1000;
      renderer.draw(current.rows, { windowSeconds: current.windowSeconds, cursorUs, amplitude: current.amplitude }, pageNow);
      current.onCursor?.(cursorUs);
    };
    frame = requestAnimationFrame(draw);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [clock, height, scheme]);

  return (
    <Box
      pos="relative"
      style={{
        borderRadius: 'var(--mantine-radius-md)',
        background: scheme === 'dark' ? '#0b0f14' : '#fbfcfd',
        border: '1px solid var(--mantine-color-default-border)',
      }}
    >
      <canvas ref={canvasRef} role="img" aria-label={label} data-testid="sweep-canvas" style={{ display: 'block', width: '100%', height }} />
      {rowLabels?.map((text, r) => (
        <Text
          key={text}
          size="xs"
          pos="absolute"
          left={6}
          top={r * rowHeight + 2}
          px={4}
          style={{
            color: rows[r]?.color,
            background: scheme === 'dark' ? 'rgba(11,15,20,0.75)' : 'rgba(251,252,253,0.8)',
            borderRadius: 4,
            pointerEvents: 'none',
          }}
        >
          {text}
        </Text>
      ))}
    </Box>
  );
}
