/**
 * Worker thread of the report PDFs (pdfRenderer.ts): pdfkit lays out and compresses the pages
 * synchronously, tens to hundreds of milliseconds a month of a room, which in the server's thread
 * would hold up every other tenant's requests meanwhile. The fonts are read once per thread.
 */
import { parentPort } from 'node:worker_threads';
import { reportPdf } from './reportPdf.ts';
import type { PdfReply, PdfRequest } from './pdfRenderer.ts';

const port = parentPort;
if (port === null) throw new Error('pdfWorkerMain.ts runs as a worker thread (pdfWorker.mjs)');

port.on('message', (request: PdfRequest) => {
  reportPdf(request.reports, request.generatedAt).then(
    (pdf) => {
      const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
      port.postMessage({ id: request.id, ok: true, bytes } satisfies PdfReply);
    },
    (error: unknown) => port.postMessage({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies PdfReply),
  );
});
