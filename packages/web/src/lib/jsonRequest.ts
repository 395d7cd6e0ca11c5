/** One JSON request to our API, answered as status, parsed body (null when empty or not JSON) and text. */
export interface JsonReply {
  status: number;
  ok: boolean;
  body: unknown;
  text: string;
}

/** The part of `fetch` used (the documents client passes its own in Node tests). */
export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string; credentials: 'same-origin' }) => Promise<{ status: number; text(): Promise<string> }>;

export async function jsonRequest(method: string, url: string, body?: unknown, fetchImpl: FetchLike = fetch): Promise<JsonReply> {
  const response = await fetchImpl(url, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: response.status, ok: response.status >= 200 && response.status <= 299, body: parsed, text };
}

/** A string field of a JSON object, or null. */
export function stringField(value: unknown, key: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const found: unknown = (value as Record<string, unknown>)[key];
  return typeof found === 'string' ? found : null;
}
