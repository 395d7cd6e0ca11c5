import { Box, Group, Stack, Text } from '@mantine/core';
import { createEitReconstructor, type EitReconstructor } from '@nemuri/analysis/eit/reconstruct';
import { referenceFrame } from '@nemuri/analysis/eit/reference';
import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { LiveTraceSet } from './liveTraceSet.ts';

interface EitImageProps {
  traces: LiveTraceSet;
  /** The sweep's cursor (device time, µs): the image shows the frame under it. */
  cursorUs: RefObject<number | null>;
}

/** Side of the drawn image in CSS pixels. */
const SIZE = 280;
/**
 * The reference is end-expiration: the frames of lowest global impedance among the last 10 s (at least
 * two breaths), recomputed every second, so the lungs light up as they fill and are dark when empty.
 */
const REFERENCE_FRAMES = 200;
const REFERENCE_EVERY_MS = 1000;
/** The colour scale follows the largest recent change, forgetting slowly so brightness stays steady. */
const SCALE_DECAY_PER_FRAME = 0.995;
/**
 * The smallest full-scale relative change: tidal breathing reaches about 0.2 and measurement noise
 * about 0.01, so with nobody breathing on the belt the picture stays dim instead of amplifying noise.
 */
const MIN_SCALE = 0.05;

/**
 * Colour of a relative impedance change: more impedance (air filling the lungs) towards light blue
 * and white, less (blood, fluid) towards red, nothing as the dark background: the usual EIT look.
 */
export function eitColour(value: number): [number, number, number] {
  const v = Math.max(-1, Math.min(1, value));
  if (v >= 0) return [Math.round(20 + 235 * v * v), Math.round(30 + 225 * v), Math.round(45 + 210 * Math.sqrt(v))];
  const w = -v;
  return [Math.round(45 + 210 * Math.sqrt(w)), Math.round(30 + 90 * w), Math.round(35 + 20 * w)];
}

/** The live reconstructed image of the chest, as seen from the feet (the patient's right on the left). */
export default function EitImage({ traces, cursorUs }: EitImageProps) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return undefined;
    let reconstructor: EitReconstructor | null = null;
    let reference: Float32Array | null = null;
    let recent = new Float32Array(0);
    let written = 0;
    let referenceAt = Number.NEGATIVE_INFINITY;
    let lastShownUs = Number.NEGATIVE_INFINITY;
    let lastReceivedUs = Number.NEGATIVE_INFINITY;
    let scale = MIN_SCALE;
    let image: Float32Array | null = null;
    let pixels: ImageData | null = null;
    const offscreen = document.createElement('canvas');
    const offscreenContext = offscreen.getContext('2d');
    let frame = 0;

    const draw = () => {
      frame = requestAnimationFrame(draw);
      const width = traces.eitWidth;
      if (width !== 208 && width !== 256) return;
      if (reconstructor === null || reconstructor.width !== width) {
        reconstructor = createEitReconstructor({ width });
        image = new Float32Array(reconstructor.pixels * reconstructor.pixels);
        offscreen.width = offscreen.height = reconstructor.pixels;
        pixels = offscreenContext?.createImageData(reconstructor.pixels, reconstructor.pixels) ?? null;
        reference = null;
        recent = new Float32Array(REFERENCE_FRAMES * width);
        written = 0;
      }
      // Every frame received goes into the reference window, in order, whatever the cursor shows.
      for (const received of traces.eitFrames) {
        if (received.timeUs <= lastReceivedUs) continue;
        recent.set(received.values, (written % REFERENCE_FRAMES) * width);
        written++;
        lastReceivedUs = received.timeUs;
      }
      const now = performance.now();
      if (written >= 20 && now - referenceAt >= REFERENCE_EVERY_MS) {
        reference ??= new Float32Array(width);
        referenceFrame(recent.subarray(0, Math.min(written, REFERENCE_FRAMES) * width), width, reference);
        referenceAt = now;
      }
      const cursor = cursorUs.current;
      const shown = cursor === null ? null : traces.eitFrameAt(cursor);
      if (shown === null || reference === null || image === null || pixels === null || offscreenContext === null || shown.timeUs === lastShownUs) return;
      lastShownUs = shown.timeUs;
      reconstructor.reconstruct(shown.values, reference, image);
      let peak = 0;
      for (const value of image) peak = Math.max(peak, Math.abs(value));
      scale = Math.max(peak, scale * SCALE_DECAY_PER_FRAME, MIN_SCALE);
      const { mask } = reconstructor;
      const data = pixels.data;
      for (let p = 0; p < image.length; p++) {
        const [r, g, b] = mask[p] ? eitColour((image[p] as number) / scale) : [0, 0, 0];
        data[p * 4] = r;
        data[p * 4 + 1] = g;
        data[p * 4 + 2] = b;
        data[p * 4 + 3] = mask[p] ? 255 : 0;
      }
      offscreenContext.putImageData(pixels, 0, 0);
      context.clearRect(0, 0, SIZE, SIZE);
      context.imageSmoothingEnabled = true;
      context.drawImage(offscreen, 0, 0, SIZE, SIZE);
    };
    frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }, [traces, cursorUs]);

  return (
    <Group align="flex-start" gap="lg" wrap="wrap">
      <Box pos="relative" w={SIZE} h={SIZE} style={{ background: '#05080c', borderRadius: SIZE / 2 }}>
        <canvas
          ref={canvasRef}
          width={SIZE}
          height={SIZE}
          role="img"
          aria-label={t('rawView.eit.imageLabel')}
          data-testid="eit-image"
          style={{ display: 'block', width: SIZE, height: SIZE }}
        />
        <Text size="xs" c="gray.5" pos="absolute" top={4} left="50%" style={{ transform: 'translateX(-50%)' }}>
          {t('rawView.eit.anterior')}
        </Text>
        <Text size="xs" c="gray.5" pos="absolute" top="50%" left={6}>
          {t('rawView.eit.right')}
        </Text>
        <Text size="xs" c="gray.5" pos="absolute" top="50%" right={6}>
          {t('rawView.eit.left')}
        </Text>
      </Box>
      <Stack gap={4} maw={320}>
        <Text size="sm">{t('rawView.eit.explanation')}</Text>
        <Group gap={6}>
          <Box w={14} h={14} style={{ background: `rgb(${eitColour(1).join(',')})`, borderRadius: 3 }} />
          <Text size="xs">{t('rawView.eit.moreImpedance')}</Text>
          <Box w={14} h={14} style={{ background: `rgb(${eitColour(-1).join(',')})`, borderRadius: 3 }} />
          <Text size="xs">{t('rawView.eit.lessImpedance')}</Text>
        </Group>
      </Stack>
    </Group>
  );
}
