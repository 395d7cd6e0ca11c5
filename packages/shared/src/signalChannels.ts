/**
 * The signal channels a device sends, in the order of their SMF wire codes (1…7; docs/device-protocol.md).
 * Defined once here for the server, the web app and the master data; the parser's wire table
 * (`@nemuri/parser/smf`) is checked against it at compile time and by a test, so the two cannot drift.
 */
export const SIGNAL_CHANNELS = ['ecg', 'respiAxl', 'impe', 'eit', 'respiHr', 'button', 'temperature'] as const;
export type SignalChannel = (typeof SIGNAL_CHANNELS)[number];

export function isSignalChannel(value: unknown): value is SignalChannel {
  return typeof value === 'string' && (SIGNAL_CHANNELS as readonly string[]).includes(value);
}
