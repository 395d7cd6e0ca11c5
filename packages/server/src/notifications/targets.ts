/**
 * Where the server may send notifications: every address here comes from a user (a browser's push
 * endpoint, an administrator's webhook URL), so a careless rule would let a user make the server
 * call into its own network (SSRF). Push endpoints must be https on a known push service; webhooks
 * https to a host that is not a loopback, private or link-local address — neither as written nor
 * as its name resolves. A webhook's name is resolved when the address is saved (a name that leads
 * inside is refused then) and again for every request, whose connection goes to exactly the
 * addresses checked (`guardedLookup`): a name that resolved to a public address when saved and to
 * 127.0.0.1 later (DNS rebinding) is refused at that request.
 *
 * The origins in NOTIFY_EXTRA_ORIGINS (comma separated) are the operator's explicit exception:
 * allowed whatever they resolve to — test and development stand-ins such as
 * `http://127.0.0.1:4100`, or a receiver the operator trusts inside the facility's network.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** The push services of Chrome/Android, Firefox, Safari/iOS and Edge. */
const PUSH_SERVICE_HOSTS = [
  /^fcm\.googleapis\.com$/,
  /^updates\.push\.services\.mozilla\.com$/,
  /^(?:[a-z0-9-]+\.)*push\.apple\.com$/,
  /^[a-z0-9-]+\.notify\.windows\.com$/,
];

export function extraOriginsFrom(env: Record<string, string | undefined>): readonly string[] {
  return (env.NOTIFY_EXTRA_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '')
    .flatMap((origin) => {
      try {
        return [new URL(origin).origin];
      } catch {
        return [];
      }
    });
}

function parsed(address: string): URL | null {
  try {
    const url = new URL(address);
    return url.username === '' && url.password === '' ? url : null;
  } catch {
    return null;
  }
}

export function isPushEndpointAllowed(endpoint: string, extraOrigins: readonly string[]): boolean {
  const url = parsed(endpoint);
  if (url === null) return false;
  if (extraOrigins.includes(url.origin)) return true;
  return url.protocol === 'https:' && url.port === '' && PUSH_SERVICE_HOSTS.some((host) => host.test(url.hostname));
}

const PRIVATE_HOST =
  /^(?:localhost|.*\.localhost|.*\.local|.*\.internal|0\.0\.0\.0|127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(?:1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+|\[.*\])$/i;

export function isWebhookAllowed(address: string, extraOrigins: readonly string[]): boolean {
  const url = parsed(address);
  if (url === null) return false;
  if (extraOrigins.includes(url.origin)) return true;
  return url.protocol === 'https:' && !PRIVATE_HOST.test(url.hostname);
}

/** Networks no webhook request may reach (IANA special-purpose registries, RFC 6890 and successors). */
const INSIDE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  INSIDE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  INSIDE.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (match === null) return null;
  if (match[1] !== undefined) return match[1];
  const high = Number.parseInt(match[2] as string, 16);
  const low = Number.parseInt(match[3] as string, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether an IP address is loopback, private, link-local or otherwise not on the public Internet. */
export function isInsideAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(bare);
  if (family === 4) return INSIDE.check(bare, 'ipv4');
  if (family !== 6) return true;
  const mapped = embeddedIpv4(bare);
  return mapped !== null ? INSIDE.check(mapped, 'ipv4') : INSIDE.check(bare, 'ipv6');
}

/** Resolves a host name to its addresses (the system resolver; tests give their own). */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A webhook request refused because its host leads inside the network (not worth another try). */
export class InsideNetworkError extends Error {
  readonly code = 'ERR_NEMURI_INSIDE_NETWORK';
}

function insideMessage(host: string, address: string): string {
  return host === address ? `${address} is inside the network` : `${host} resolves to ${address}, inside the network`;
}

/**
 * Why a webhook address is refused, or null: the rules above, then its host's addresses. A name that
 * does not resolve now is let through (the receiver may not be set up yet): every request checks again.
 */
export async function webhookRefusal(address: string, extraOrigins: readonly string[], resolve: HostResolver): Promise<string | null> {
  if (!isWebhookAllowed(address, extraOrigins)) return 'must be https to a public host';
  const url = new URL(address);
  if (extraOrigins.includes(url.origin)) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return isInsideAddress(host) ? insideMessage(host, host) : null;
  let addresses: { address: string }[];
  try {
    addresses = await resolve(host);
  } catch {
    return null;
  }
  const inside = addresses.find((candidate) => isInsideAddress(candidate.address));
  return inside === undefined ? null : insideMessage(host, inside.address);
}

/**
 * The `lookup` of a webhook's connection: resolves the name, refuses it when any address is inside
 * the network (InsideNetworkError), and hands the checked addresses to the connection, which
 * connects to them and to nothing resolved later.
 */
export function guardedLookup(resolve: HostResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((addresses) => {
        const inside = addresses.find((candidate) => isInsideAddress(candidate.address));
        if (inside !== undefined) throw new InsideNetworkError(insideMessage(hostname, inside.address));
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((candidate) => candidate.family === options.family) : addresses;
        const first = wanted[0];
        if (first === undefined) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
        if (options.all === true) callback(null, wanted);
        else callback(null, first.address, first.family);
      })
      .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), '', 0));
  };
}
