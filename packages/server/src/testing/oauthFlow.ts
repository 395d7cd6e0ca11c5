/**
 * Plays a browser through an OpenID sign-in in API tests: follows the redirects between the identity
 * provider (with cookies of its own) and the server (the client's cookies) until the server sends the
 * browser to a page; returns that page's URL.
 */
import type { BrowserClient } from './browserClient.ts';

export async function followToServer(start: string, server: BrowserClient, serverOrigin: string): Promise<string> {
  const providerCookies = new Map<string, string>();
  let url = new URL(start);
  // The server's public URL says localhost; the test talks to it on 127.0.0.1.
  const isServer = (target: URL) => target.port === new URL(serverOrigin).port && (target.hostname === 'localhost' || target.hostname === '127.0.0.1');
  for (let hop = 0; hop < 20; hop++) {
    if (isServer(url)) {
      const reply = await server.get(`${url.pathname}${url.search}`);
      const location = reply.headers.location;
      if (reply.status >= 300 && reply.status < 400 && typeof location === 'string' && new URL(location, serverOrigin).pathname.startsWith('/api/')) {
        url = new URL(location, serverOrigin);
        continue;
      }
      if (reply.status >= 300 && reply.status < 400 && typeof location === 'string') return new URL(location, serverOrigin).toString();
      throw new Error(`the server answered ${reply.status} at ${url.pathname}: ${reply.text}`);
    }
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: [...providerCookies].map(([name, value]) => `${name}=${value}`).join('; ') } });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      if (at > 0) providerCookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (location === null) throw new Error(`the provider answered ${response.status} at ${url.pathname}: ${await response.text()}`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects');
}
