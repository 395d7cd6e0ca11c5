import { Button, Checkbox, Group, Image, Modal, ScrollArea, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { useEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';
import { serialUrl, type DeviceRow } from './deviceConfigRows.ts';

/** How labels are drawn: a quiet zone of 2 modules, 4 pixels a module (crisp when printed at 25 mm). */
export const QR_LABEL_OPTIONS = { margin: 2, scale: 4, errorCorrectionLevel: 'M' } as const;

/**
 * While the labels dialog is open, printing shows the label sheet alone: everything else on the
 * page (the app and the dialog) is left out, and the sheet is laid out for A4 with cut lines.
 */
const PRINT_CSS = `
.nemuri-qr-sheet { display: none; }
@media print {
  @page { size: A4; margin: 10mm; }
  body > *:not(.nemuri-qr-sheet) { display: none !important; }
  .nemuri-qr-sheet { display: grid !important; grid-template-columns: repeat(4, 1fr); gap: 4mm; color: #000; background: #fff; }
  .nemuri-qr-sheet figure { margin: 0; padding: 3mm; border: 0.2mm dashed #999; break-inside: avoid; text-align: center; }
  .nemuri-qr-sheet img { width: 30mm; height: 30mm; image-rendering: pixelated; }
  .nemuri-qr-sheet figcaption { font: 600 10pt/1.2 sans-serif; letter-spacing: 0.05em; }
  .nemuri-qr-sheet small { display: block; font: 7pt/1.2 sans-serif; }
}`;

/** The QR code image of one serial's URL, made in the browser (no server round trip). */
function useQrImage(url: string): string | null {
  const [image, setImage] = useState<{ url: string; data: string } | null>(null);
  useEffect(() => {
    let current = true;
    void QRCode.toDataURL(url, QR_LABEL_OPTIONS).then((data) => {
      if (current) setImage({ url, data });
    });
    return () => {
      current = false;
    };
  }, [url]);
  return image?.url === url ? image.data : null;
}

function LabelImage({ serial, url, size }: { serial: string; url: string; size: number }) {
  const { t } = useTranslation();
  const image = useQrImage(url);
  if (image === null) return <div style={{ width: size, height: size }} />;
  return (
    <Image
      src={image}
      alt={t('deviceConfig.labels.qrAlt', { serial })}
      w={size}
      h={size}
      data-testid="qr-label-image"
      data-serial={serial}
      data-url={url}
      style={{ imageRendering: 'pixelated' }}
    />
  );
}

function PrintedLabel({ serial, url, caption }: { serial: string; url: string; caption: string }) {
  const image = useQrImage(url);
  return (
    <figure>
      {image === null ? null : <img src={image} alt={serial} />}
      <figcaption>{serial}</figcaption>
      <small>{caption}</small>
    </figure>
  );
}

/** Select devices → a printable sheet of labels: serial and a QR code opening `/sn/<serial>`. */
export function QrLabelsDialog({ opened, rows, onClose }: { opened: boolean; rows: readonly DeviceRow[]; onClose: () => void }) {
  const { t } = useTranslation();
  // Mounted on every opening: every listed device starts selected.
  return (
    <Modal opened={opened} onClose={onClose} title={t('deviceConfig.labels.title')} size="xl">
      {opened ? <QrLabelsChooser rows={rows} onClose={onClose} /> : null}
    </Modal>
  );
}

function QrLabelsChooser({ rows, onClose }: { rows: readonly DeviceRow[]; onClose: () => void }) {
  const { t } = useTranslation();
  // What the user left out: devices arriving in the list later are selected too.
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const origin = window.location.origin;

  const chosen = useMemo(() => rows.filter((row) => !left.has(row.serial)), [rows, left]);
  const toggle = (serial: string, on: boolean) =>
    setLeft((previous) => {
      const next = new Set(previous);
      if (on) next.delete(serial);
      else next.add(serial);
      return next;
    });

  return (
    <>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('deviceConfig.labels.hint')}
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => setLeft(new Set())}>
            {t('deviceConfig.labels.selectAll')}
          </Button>
          <Button variant="default" size="xs" onClick={() => setLeft(new Set(rows.map((row) => row.serial)))}>
            {t('deviceConfig.labels.selectNone')}
          </Button>
          <Text size="sm">{t('deviceConfig.labels.selected', { count: chosen.length })}</Text>
        </Group>
        <ScrollArea.Autosize mah={160}>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing={4}>
            {rows.map((row) => (
              <Checkbox
                key={row.serial}
                label={row.serial}
                checked={!left.has(row.serial)}
                onChange={(event) => toggle(row.serial, event.currentTarget.checked)}
              />
            ))}
          </SimpleGrid>
        </ScrollArea.Autosize>
        <ScrollArea.Autosize mah={360}>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" data-testid="qr-label-preview">
            {chosen.map((row) => (
              <Stack key={row.serial} gap={4} align="center" p="xs" style={{ border: '1px dashed var(--mantine-color-gray-6)', borderRadius: 4 }}>
                <LabelImage serial={row.serial} url={serialUrl(origin, row.serial)} size={120} />
                <Text fw={600} size="sm">
                  {row.serial}
                </Text>
                <Text size="xs" c="dimmed">
                  {row.typeName}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('deviceConfig.close')}
          </Button>
          <Button leftSection={<IconPrinter size={iconSize('xs')} />} disabled={chosen.length === 0} onClick={() => window.print()}>
            {t('deviceConfig.labels.print')}
          </Button>
        </Group>
      </Stack>
      {createPortal(
        <div className="nemuri-qr-sheet" aria-hidden>
          <style>{PRINT_CSS}</style>
          {chosen.map((row) => (
            <PrintedLabel key={row.serial} serial={row.serial} url={serialUrl(origin, row.serial)} caption={row.typeName} />
          ))}
        </div>,
        document.body,
      )}
    </>
  );
}
