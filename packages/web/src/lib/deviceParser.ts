import wasmUrl from '@nemuri/parser/parser.wasm?url';
import type { Parser } from '@nemuri/parser/parser';

/**
 * The WebAssembly parser (device frames, EDF/BDF, base64), loaded once at start-up in the
 * background and shared by every screen that decodes signals or files.
 */
let loading: Promise<Parser> | null = null;

export function loadDeviceParser(): Promise<Parser> {
  loading ??= import('@nemuri/parser/browser')
    .then(({ loadParser }) => loadParser(wasmUrl))
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}
