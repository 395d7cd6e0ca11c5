/**
 * Makes the PNG icons of the web app manifest and iOS from packages/web/public/icon.svg, by drawing the SVG in
 * Chromium (the machine's /usr/bin/chromium, or CHROMIUM_PATH) and taking screenshots:
 *   icon-192.png, icon-512.png    manifest icons (Android Chrome's install and notification icons)
 *   apple-touch-icon.png (180)     iOS home screen: opaque, since iOS fills transparency with black
 * Run after changing icon.svg: `node --import tsx scripts/makeIcons.ts`; the PNGs are committed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const PUBLIC = fileURLToPath(new URL('../packages/web/public/', import.meta.url));
const svg = readFileSync(join(PUBLIC, 'icon.svg'), 'utf8');
/** The icon's own background (icon.svg's rect), for the opaque iOS icon. */
const BACKGROUND = '#1f2a44';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { file, size, opaque } of [
    { file: 'icon-192.png', size: 192, opaque: false },
    { file: 'icon-512.png', size: 512, opaque: false },
    { file: 'apple-touch-icon.png', size: 180, opaque: true },
  ]) {
    await page.setViewportSize({ width: size, height: size });
    const image = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<html><body style="margin:0;background:${opaque ? BACKGROUND : 'transparent'}"><img src="${image}" width="${size}" height="${size}" style="display:block"></body></html>`,
    );
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    writeFileSync(join(PUBLIC, file), await page.screenshot({ omitBackground: !opaque, clip: { x: 0, y: 0, width: size, height: size } }));
    console.log(`${file}: ${size}×${size}`);
  }
} finally {
  await browser.close();
}
