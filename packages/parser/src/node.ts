// Node.js loading: reads dist/parser.wasm (built by `npm run build -w @nemuri/parser`).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Parser } from './parser.ts';
import { instantiateParserSync } from './wasm.ts';

export * from './index.ts';

/** Where the build puts the module. */
export const PARSER_WASM_URL = new URL('../dist/parser.wasm', import.meta.url);

function missing(error: unknown): Error {
  const path = fileURLToPath(PARSER_WASM_URL);
  if ((error as { code?: string }).code === 'ENOENT') {
    return new Error(`the parser's WebAssembly module ${path} is missing: run "npm run build -w @nemuri/parser"`, { cause: error });
  }
  return error as Error;
}

let shared: Promise<Parser> | undefined;

/** The process-wide parser instance (compiled once). */
export function loadParser(): Promise<Parser> {
  shared ??= createParser().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** A new, independent parser instance (own memory), e.g. one per worker or per concurrent stream. */
export async function createParser(path: URL | string = PARSER_WASM_URL): Promise<Parser> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw missing(error);
  }
  return Parser.create(bytes);
}

/** Synchronous variant for start-up code: Node compiles the module synchronously without limits. */
export function createParserSync(path: URL | string = PARSER_WASM_URL): Parser {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw missing(error);
  }
  return new Parser(instantiateParserSync(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>)));
}
