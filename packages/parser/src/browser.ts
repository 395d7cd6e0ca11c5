// Browser loading: fetches the .wasm from a URL the app passes in, e.g. with Vite:
//   import wasmUrl from '@nemuri/parser/parser.wasm?url';
//   const parser = await loadParser(wasmUrl);
import { Parser } from './parser.ts';

export * from './index.ts';

const loaded = new Map<string, Promise<Parser>>();

/** The parser for this .wasm URL, fetched and compiled once (instantiateStreaming when the server sends application/wasm). */
export function loadParser(url: string | URL): Promise<Parser> {
  const key = String(url);
  let parser = loaded.get(key);
  if (!parser) {
    parser = Parser.create(fetch(url)).catch((error: unknown) => {
      loaded.delete(key);
      throw error;
    });
    loaded.set(key, parser);
  }
  return parser;
}
