import { readBytesUpTo } from "#worker/http/bytes.ts";

/**
 * The one way the Worker fetches a URL it was handed (a remote actor, an avatar, an inbox, an imported
 * post's image): the scheme and host rule, a deadline over the whole exchange, redirects followed by hand
 * with the rule checked again at every hop, and a body read that stops at a cap.
 *
 * The host rule refuses IP literals in any special-purpose range (loopback, private, shared, link-local,
 * benchmarking, documentation, multicast, reserved; in IPv6 everything outside global unicast 2000::/3,
 * which covers ::1, ::ffff:a.b.c.d, 64:ff9b::/96, fc00::/7, fe80::/10 and ff00::/8, plus the special
 * blocks inside it) and the local names (localhost, .local, .internal, .home.arpa, single labels). The
 * WHATWG URL parser has already turned 0x7f.1, 2130706433 and [::ffff:127.0.0.1] into their canonical
 * forms, so the check sees them as what they are. A public name that resolves to a private address is
 * refused by Cloudflare's fetch itself: a Worker cannot reach private networks (SECURITY.md).
 */

export type OutboundRefusal =
  | "invalid-url"
  | "scheme"
  | "credentials"
  | "private-host"
  | "timeout"
  | "unreachable"
  | "too-many-redirects"
  | "cross-host-redirect"
  | "too-large";

export class OutboundError extends Error {
  constructor(readonly reason: OutboundRefusal) {
    super(`outbound fetch refused: ${reason}`);
    this.name = "OutboundError";
  }
}

export interface OutboundRule {
  /** Plain http too (imports; federation only in a test configuration). */
  allowHttp?: boolean;
  /** Private and loopback hosts too: local runs and tests only (IMPORT_ALLOW_PRIVATE_HOSTS, FEDERATION_ALLOW_PRIVATE). */
  allowPrivate?: boolean;
}

// IPv4 special-purpose blocks (IANA registry), as [first address, prefix length].
const V4_BLOCKS: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast 255.255.255.255
];

// IPv6: only global unicast (2000::/3) may be reached, less the special blocks inside it.
const V6_GLOBAL: [string, number] = ["2000::", 3];
const V6_BLOCKS: [string, number][] = [
  ["2001::", 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4 (carries an IPv4 address, private ones included)
  ["3fff::", 20], // documentation
];

function v4ToBigInt(host: string): bigint | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

function v6ToBigInt(host: string): bigint | null {
  if (!host.includes(":")) return null;
  let text = host;
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const tail = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(text);
  if (tail) {
    const v4 = v4ToBigInt(tail[1]!);
    if (v4 === null) return null;
    text = `${text.slice(0, -tail[1]!.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function inBlock(address: bigint, [first, prefix]: [string, number], bits: 32 | 128): boolean {
  const base = bits === 32 ? v4ToBigInt(first)! : v6ToBigInt(first)!;
  const shift = BigInt(bits - prefix);
  return address >> shift === base >> shift;
}

/**
 * Whether `hostname` (a URL's hostname: IPv6 in brackets or not) is one the Worker never fetches from:
 * a local name, or an address outside the public internet.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "");
  if (host === "") return true;
  if (host.includes(":")) {
    const address = v6ToBigInt(host.replace(/%.*$/, ""));
    if (address === null) return true;
    return !inBlock(address, V6_GLOBAL, 128) || V6_BLOCKS.some((block) => inBlock(address, block, 128));
  }
  const v4 = v4ToBigInt(host);
  if (v4 !== null) return V4_BLOCKS.some((block) => inBlock(v4, block, 32));
  if (!host.includes(".")) return true; // a single label: an intranet name
  return /(^|\.)(localhost|local|internal|home\.arpa|localdomain)$/.test(host);
}

/** The URL if the rule lets it be fetched; otherwise the reason it may not. */
export function checkOutboundUrl(url: string | URL, rule: OutboundRule = {}): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundError("invalid-url");
  }
  const schemes = rule.allowHttp ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(parsed.protocol)) throw new OutboundError("scheme");
  if (parsed.username || parsed.password) throw new OutboundError("credentials");
  if (!rule.allowPrivate && isPrivateHost(parsed.hostname)) throw new OutboundError("private-host");
  return parsed;
}

export function isOutboundAllowed(url: string | URL, rule: OutboundRule = {}): boolean {
  try {
    checkOutboundUrl(url, rule);
    return true;
  } catch {
    return false;
  }
}

export interface OutboundFetch extends OutboundRule {
  /** The deadline of the whole exchange: every hop and the body read. */
  timeoutMs: number;
  /** Redirects followed (each hop checked again); one more is refused. */
  maxRedirects: number;
  /**
   * A redirect to another host is refused: for documents believed for the host that served them
   * (ActivityPub actors, keys, objects), an open redirect on a server must not speak for it.
   */
  sameHost?: boolean;
  /** Builds the request of each hop (a signed GET signs every hop); a plain GET by default. */
  request?: (url: string) => Request | Promise<Request>;
  headers?: HeadersInit;
}

/**
 * Fetches `url` under the rule, following up to `maxRedirects` redirects by hand (each Location checked
 * again before it is fetched). Returns the first answer that is not a redirect, unread, and the signal
 * its body read must still obey. Throws OutboundError for a refused URL, a timeout or no answer.
 */
export async function fetchOutbound(
  url: string,
  opts: OutboundFetch,
): Promise<{ response: Response; url: string; signal: AbortSignal }> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let target = checkOutboundUrl(url, opts).href;
  for (let hop = 0; hop <= opts.maxRedirects; hop++) {
    let response: Response;
    try {
      const request = opts.request ? await opts.request(target) : new Request(target, { headers: opts.headers });
      response = await fetch(request, { redirect: "manual", signal });
    } catch (err) {
      throw new OutboundError(signal.aborted || isTimeout(err) ? "timeout" : "unreachable");
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get("Location") : null;
    if (!location) return { response, url: target, signal };
    await response.body?.cancel();
    let next: URL;
    try {
      next = new URL(location, target);
    } catch {
      throw new OutboundError("invalid-url");
    }
    if (opts.sameHost && next.host !== new URL(target).host) throw new OutboundError("cross-host-redirect");
    target = checkOutboundUrl(next, opts).href;
  }
  throw new OutboundError("too-many-redirects");
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
}

/**
 * An answer's body, at most `max` bytes: a declared length over it is refused before reading, and the
 * transfer is cut as soon as more arrives (the one capped reader, worker/http/bytes.ts).
 */
export async function readOutboundBody(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("Content-Length") ?? "0");
  if (declared > max) {
    await response.body?.cancel();
    throw new OutboundError("too-large");
  }
  try {
    return await readBytesUpTo(response.body, max, () => new OutboundError("too-large"));
  } catch (err) {
    if (err instanceof OutboundError) throw err;
    throw new OutboundError(isTimeout(err) ? "timeout" : "unreachable");
  }
}
