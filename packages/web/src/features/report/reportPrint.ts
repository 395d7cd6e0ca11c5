/**
 * Printing /report: A4 landscape (as the PDF), only the reports — the app's header and navigation,
 * the controls and the buttons are left out — and every room from a new page.
 */
export const REPORT_PRINT_CSS = `
.nemuri-print-only { display: none; }
@media print {
  @page { size: A4 landscape; margin: 10mm; }
  /* Paper is white whatever the screen's colour scheme. */
  :root, [data-mantine-color-scheme] { --mantine-color-body: #fff; --mantine-color-text: #000; --mantine-color-dimmed: #444; color-scheme: light; }
  html, body, .mantine-AppShell-main, .nemuri-report-room { background: #fff !important; color: #000 !important; }
  .nemuri-report-room th, .nemuri-report-room td { color: #000 !important; background: transparent !important; border-color: #999 !important; }
  .mantine-AppShell-header, .mantine-AppShell-navbar, .mantine-AppShell-footer, .nemuri-no-print { display: none !important; }
  .mantine-AppShell-main { padding: 0 !important; min-height: 0 !important; }
  .nemuri-print-only { display: block !important; }
  .nemuri-report-room { break-before: page; border: none !important; padding: 0 !important; box-shadow: none !important; }
  .nemuri-report-room:first-of-type { break-before: auto; }
  .nemuri-report-room table { font-size: 7pt; }
  .nemuri-report-room svg, .nemuri-report-room tr, .nemuri-report-trends { break-inside: avoid; }
  .mantine-ScrollArea-viewport, .mantine-Table-scrollContainer { overflow: visible !important; }
}`;
