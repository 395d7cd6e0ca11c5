// Platform-neutral entry: types, errors and the Parser class. Load it with node.ts (reads the .wasm
// file) or browser.ts (fetches the .wasm URL).
export { Parser, type DecodeOptions, type ParserInput } from './parser.ts';
export { ParseError, BASE64_ERROR_MESSAGE, type ParseErrorCode, type ParseErrorDetails } from './errors.ts';
export { instantiateParser, instantiateParserSync, type ParserExports, type WasmSource } from './wasm.ts';
export * from './smf.ts';
export * from './pieces.ts';
export type * from './edf.ts';
