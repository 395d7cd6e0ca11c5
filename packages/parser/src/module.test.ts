import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parserBuildIsStale } from '../scripts/build.mjs';
import { loadParser as loadInBrowser } from './browser.ts';
import { createParser, createParserSync, loadParser, Parser, PARSER_WASM_URL } from './node.ts';
import { REASONS } from './reasons.ts';
import { PARSER_EXPORTS } from './wasm.ts';
import { DATA_DIR, dataFile } from './testing/data.ts';

const wasmBytes = readFileSync(fileURLToPath(PARSER_WASM_URL));
const frame = { channel: 'temperature', format: 'int16', sequence: 1, startTimeUs: 0, sampleRate: 1, scale: 0.01, raw: [3660] } as const;

describe('the WebAssembly module', () => {
  it('is built and up to date (the vitest globalSetup runs scripts/build.mjs)', () => {
    expect(parserBuildIsStale()).toBe(false);
  });

  it('imports nothing and exports only the parser functions: no AssemblyScript runtime is linked in', () => {
    const module = new WebAssembly.Module(wasmBytes);
    expect(WebAssembly.Module.imports(module)).toEqual([]);
    expect(
      WebAssembly.Module.exports(module)
        .map((e) => e.name)
        .sort(),
    ).toEqual([...PARSER_EXPORTS].sort());
  });

  it('matches the bindings asc generates (dist/parser.d.ts)', () => {
    const typings = readFileSync(fileURLToPath(new URL('../dist/parser.d.ts', import.meta.url)), 'utf8');
    const declared = [...typings.matchAll(/export declare (?:function|const) (\w+)/g)].map((m) => m[1]);
    expect(declared.sort()).toEqual([...PARSER_EXPORTS].sort());
  });

  it('reports the same failure reasons as src/reasons.ts mirrors', () => {
    const source = readFileSync(fileURLToPath(new URL('../assembly/reasons.ts', import.meta.url)), 'utf8');
    const assembly = Object.fromEntries([...source.matchAll(/export const (\w+) = (\d+);/g)].map((m) => [m[1], Number(m[2])]));
    expect(assembly).toEqual(REASONS);
  });

  it('uses SIMD instructions (the build enables them)', () => {
    const contains = (sequence: number[]) => wasmBytes.some((_, i) => sequence.every((byte, k) => wasmBytes[i + k] === byte));
    expect(contains([0xfd, 0x0e])).toBe(true); // i8x16.swizzle (24-bit samples)
    expect(contains([0xfd, 0x5e])).toBe(true); // f32x4.demote_f64x2_zero (scaling)
  });
});

describe('the test data', () => {
  it('is found at <repository>/../shared/data, and its absence fails loudly with the path', () => {
    expect(fileURLToPath(DATA_DIR)).toBe(fileURLToPath(new URL('../../../../shared/data/', import.meta.url)));
    expect(dataFile('edf/short_psg.edf').length).toBe(184448);
    expect(() => dataFile('edf/short_psg.edf', new URL('file:///nonexistent/shared/data/'))).toThrow(
      /Test data folder not found: looked for \/nonexistent\/shared\/data\//,
    );
  });
});

describe('loading in Node', () => {
  it('shares one instance through loadParser() and creates independent ones on demand', async () => {
    const shared = await loadParser();
    expect(await loadParser()).toBe(shared);
    const own = await createParser();
    const sync = createParserSync();
    expect(own).not.toBe(shared);
    for (const parser of [shared, own, sync])
      expect(parser.decodeSmfFrame(parser.encodeSmfFrame(frame))).toMatchObject({ channel: 'temperature', sampleCount: 1 });
  });

  it('says how to build the module when it is missing', async () => {
    await expect(createParser(new URL('./missing.wasm', PARSER_WASM_URL))).rejects.toThrow(/missing: run "npm run build -w @nemuri\/parser"/);
    expect(() => createParserSync('/nonexistent/parser.wasm')).toThrow(/missing/);
  });

  it('refuses a module that is not the parser', async () => {
    const empty = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    await expect(Parser.create(empty)).rejects.toThrow(/lacks the export "memory"/);
  });
});

describe('loading in a browser (fetch of a URL passed in)', () => {
  async function serve(contentType: string, run: (url: string) => Promise<void>): Promise<void> {
    const server = createServer((request, response) => {
      if (request.url === '/parser.wasm') {
        response.writeHead(200, { 'content-type': contentType });
        response.end(wasmBytes);
      } else {
        response.writeHead(404);
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('instantiates from a streaming fetch (application/wasm) and caches per URL', async () => {
    await serve('application/wasm', async (base) => {
      const parser = await loadInBrowser(`${base}/parser.wasm`);
      expect(await loadInBrowser(new URL(`${base}/parser.wasm`))).toBe(parser);
      expect(parser.decodeBase64('SGVsbG8=')).toEqual(new TextEncoder().encode('Hello'));
    });
  });

  it('falls back to compiling the bytes when the server sends another content type', async () => {
    await serve('application/octet-stream', async (base) => {
      const parser = await Parser.create(fetch(`${base}/parser.wasm`));
      expect(parser.crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    });
  });

  it('reports an HTTP error clearly and lets a later call retry', async () => {
    await serve('application/wasm', async (base) => {
      await expect(loadInBrowser(`${base}/nope.wasm`)).rejects.toThrow(/HTTP 404/);
    });
  });
});
