// The raw WebAssembly module: its exports (numbers in, numbers out) and how to instantiate it from
// whatever the platform has. A test checks this list against the bindings asc generates.

export interface ParserExports {
  readonly memory: WebAssembly.Memory;
  result(): number;
  reset(): void;
  alloc(size: number): number;
  crc32(pointer: number, length: number): number;
  smfDecode(pointer: number, length: number, flags: number): number;
  smfEncodeSamples(dst: number, src: number, count: number, format: number, kind: number, scale: number, offset: number): number;
  smfFinishFrame(
    pointer: number,
    channel: number,
    format: number,
    width: number,
    sequence: number,
    startTimeUs: number,
    sampleRate: number,
    sampleCount: number,
    scale: number,
    offset: number,
    payload: number,
  ): number;
  edfDecode(pointer: number, length: number, flags: number): number;
  edfSamples(first: number, count: number): void;
  base64Decode(pointer: number, length: number): number;
}

export const PARSER_EXPORTS = [
  'memory',
  'result',
  'reset',
  'alloc',
  'crc32',
  'smfDecode',
  'smfEncodeSamples',
  'smfFinishFrame',
  'edfDecode',
  'edfSamples',
  'base64Decode',
] as const;

/** The compiled module, its bytes, or a fetch() response (or promise of one) for the .wasm URL. */
export type WasmSource = WebAssembly.Module | ArrayBuffer | ArrayBufferView | Response | PromiseLike<Response>;

function isResponse(value: unknown): value is Response {
  return typeof Response !== 'undefined' && value instanceof Response;
}

function isPromiseLike(value: unknown): value is PromiseLike<Response> {
  return typeof (value as { then?: unknown }).then === 'function';
}

function toBufferSource(bytes: ArrayBuffer | ArrayBufferView): ArrayBuffer | ArrayBufferView<ArrayBuffer> {
  if (bytes instanceof ArrayBuffer) return bytes;
  if (bytes.buffer instanceof ArrayBuffer) return bytes as ArrayBufferView<ArrayBuffer>;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength).slice();
}

async function instantiateResponse(response: Response): Promise<WebAssembly.Instance> {
  if (!response.ok) throw new Error(`could not load the parser's WebAssembly module: HTTP ${response.status} for ${response.url}`);
  if (typeof WebAssembly.instantiateStreaming === 'function') {
    try {
      return (await WebAssembly.instantiateStreaming(response.clone(), {})).instance;
    } catch (error) {
      // A server that does not send application/wasm: fall back to compiling the bytes.
      if (!(error instanceof TypeError)) throw error;
    }
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), {})).instance;
}

export async function instantiateParser(source: WasmSource): Promise<ParserExports> {
  let instance: WebAssembly.Instance;
  if (source instanceof WebAssembly.Module) instance = await WebAssembly.instantiate(source, {});
  else if (isResponse(source)) instance = await instantiateResponse(source);
  else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    instance = (await WebAssembly.instantiate(toBufferSource(source), {})).instance;
  } else if (isPromiseLike(source)) instance = await instantiateResponse(await source);
  else throw new TypeError('instantiateParser: expected a WebAssembly.Module, bytes or a fetch() Response');
  return checkedExports(instance);
}

/** Synchronous instantiation of an already compiled module (Node start-up code, workers). */
export function instantiateParserSync(module: WebAssembly.Module): ParserExports {
  return checkedExports(new WebAssembly.Instance(module, {}));
}

function checkedExports(instance: WebAssembly.Instance): ParserExports {
  const exports = instance.exports as Record<string, unknown>;
  for (const name of PARSER_EXPORTS) {
    if (!(name in exports)) throw new Error(`the parser's WebAssembly module lacks the export "${name}": rebuild it (npm run build -w @nemuri/parser)`);
  }
  return exports as unknown as ParserExports;
}
