import { Alert, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serialFromCode } from './deviceConfigRows.ts';

/** The part of the Shape Detection API's BarcodeDetector we use (not in TypeScript's DOM types yet). */
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type BarcodeDetectorClass = new (options?: { formats?: string[] }) => BarcodeDetectorLike;

function detectorClass(): BarcodeDetectorClass | null {
  const candidate = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  return typeof candidate === 'function' ? candidate : null;
}

/**
 * Whether this browser can read QR codes from the camera: BarcodeDetector (Chrome on Android and
 * macOS, Edge, Safari 17+) and a camera API. Without it, serials are typed (no QR decoder is
 * bundled for an image upload fallback).
 */
export function canScanQr(): boolean {
  return detectorClass() !== null && typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

const SCAN_INTERVAL_MS = 250;

/** The camera preview, read for a device QR code until one names a serial. */
export function QrScanner({ onSerial }: { onSerial: (serial: string) => void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<'camera' | 'notDevice' | null>(null);
  // The camera runs once per scanner; the latest callback is called without restarting it.
  const found = useRef(onSerial);
  useEffect(() => {
    found.current = onSerial;
  }, [onSerial]);

  useEffect(() => {
    const Detector = detectorClass();
    if (Detector === null) return undefined;
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let stopped = false;
    const detector = new Detector({ formats: ['qr_code'] });
    const scan = async () => {
      const element = video.current;
      if (stopped || element === null) return;
      try {
        if (element.readyState >= 2) {
          for (const code of await detector.detect(element)) {
            const serial = serialFromCode(code.rawValue);
            if (serial !== null) {
              found.current(serial);
              return;
            }
            setProblem('notDevice');
          }
        }
      } catch {
        // A frame that could not be read: try the next one.
      }
      if (!stopped) timer = window.setTimeout(() => void scan(), SCAN_INTERVAL_MS);
    };
    navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false }).then(
      (media) => {
        if (stopped) {
          media.getTracks().forEach((track) => track.stop());
          return;
        }
        stream = media;
        if (video.current !== null) {
          video.current.srcObject = media;
          void video.current.play().catch(() => undefined);
        }
        void scan();
      },
      () => setProblem('camera'),
    );
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  return (
    <Stack gap="xs">
      {problem === 'camera' ? (
        <Alert color="red" role="alert">
          {t('deviceConfig.scan.cameraFailed')}
        </Alert>
      ) : (
        <video ref={video} muted playsInline data-testid="qr-scanner-video" style={{ width: '100%', maxHeight: 280, background: 'black', borderRadius: 8 }} />
      )}
      <Text size="xs" c={problem === 'notDevice' ? 'orange' : 'dimmed'}>
        {problem === 'notDevice' ? t('deviceConfig.scan.notDevice') : t('deviceConfig.scan.hint')}
      </Text>
    </Stack>
  );
}
