import { env as testEnv } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  checkOutboundUrl,
  fetchOutbound,
  isPrivateHost,
  OutboundError,
  readOutboundBody,
} from "#worker/security/outbound.ts";
import { isFetchable } from "#worker/services/federation/remote.ts";
import { fetchImage } from "#worker/services/import/images.ts";
import type { Env } from "#worker/env.ts";

/** Every special-purpose range, by a URL the WHATWG parser accepts (its canonical form is what is checked). */
const REFUSED: [string, string][] = [
  ["this network 0/8", "http://0.0.0.0/"],
  ["this network 0/8, high", "http://0.255.1.1/"],
  ["private 10/8", "http://10.1.2.3/"],
  ["shared CGNAT 100.64/10", "http://100.64.0.1/"],
  ["shared CGNAT 100.64/10, top", "http://100.127.255.254/"],
  ["loopback 127/8", "http://127.0.0.1/"],
  ["loopback 127/8, other", "http://127.8.9.10/"],
  ["loopback as one number", "http://2130706433/"],
  ["loopback in hex", "http://0x7f.1/"],
  ["loopback in octal", "http://0177.0.0.1/"],
  ["link-local / metadata 169.254/16", "http://169.254.169.254/"],
  ["private 172.16/12", "http://172.16.0.1/"],
  ["private 172.16/12, top", "http://172.31.255.255/"],
  ["IETF 192.0.0/24", "http://192.0.0.8/"],
  ["documentation 192.0.2/24", "http://192.0.2.1/"],
  ["6to4 relay 192.88.99/24", "http://192.88.99.1/"],
  ["private 192.168/16", "http://192.168.1.1/"],
  ["benchmarking 198.18/15", "http://198.18.0.1/"],
  ["benchmarking 198.18/15, second half", "http://198.19.255.1/"],
  ["documentation 198.51.100/24", "http://198.51.100.7/"],
  ["documentation 203.0.113/24", "http://203.0.113.9/"],
  ["multicast 224/4", "http://224.0.0.1/"],
  ["multicast 224/4, top", "http://239.255.255.250/"],
  ["reserved 240/4", "http://240.0.0.1/"],
  ["broadcast", "http://255.255.255.255/"],
  ["IPv6 unspecified", "http://[::]/"],
  ["IPv6 loopback", "http://[::1]/"],
  ["IPv6 loopback, long form", "http://[0:0:0:0:0:0:0:1]/"],
  ["IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/"],
  ["IPv4-mapped private, hex", "http://[::ffff:a00:1]/"],
  ["IPv4-mapped public (never needed)", "http://[::ffff:8.8.8.8]/"],
  ["IPv4-compatible", "http://[::127.0.0.1]/"],
  ["NAT64 of metadata", "http://[64:ff9b::169.254.169.254]/"],
  ["NAT64 local-use", "http://[64:ff9b:1::1]/"],
  ["discard 100::/64", "http://[100::1]/"],
  ["Teredo 2001::/32", "http://[2001::1]/"],
  ["benchmarking 2001:2::/48", "http://[2001:2::1]/"],
  ["documentation 2001:db8::/32", "http://[2001:db8::1]/"],
  ["6to4 2002::/16", "http://[2002:7f00:1::1]/"],
  ["documentation 3fff::/20", "http://[3fff::1]/"],
  ["unique-local fc00::/7", "http://[fc00::1]/"],
  ["unique-local fd00::/8", "http://[fd12:3456::1]/"],
  ["link-local fe80::/10", "http://[fe80::1]/"],
  ["link-local fe80::/10, top", "http://[febf::1]/"],
  ["site-local fec0::/10", "http://[fec0::1]/"],
  ["multicast ff00::/8", "http://[ff02::1]/"],
  ["localhost", "http://localhost/"],
  ["localhost, trailing dot", "http://localhost./"],
  ["a name under localhost", "http://api.localhost/"],
  ["mDNS .local", "http://printer.local/"],
  ["an .internal name", "http://metadata.google.internal/"],
  ["home.arpa", "http://router.home.arpa/"],
  ["a single label", "http://intranet/"],
];

const ALLOWED = [
  "http://93.184.215.14/",
  "http://8.8.8.8/",
  "http://100.63.255.255/",
  "http://100.128.0.1/",
  "http://172.15.255.255/",
  "http://172.32.0.1/",
  "http://198.17.255.255/",
  "http://198.20.0.1/",
  "http://223.255.255.255/",
  "http://[2606:4700:4700::1111]/",
  "http://[2a00:1450:4001:80b::200e]/",
  "http://images.example.com/",
  "http://localhost.example.com/",
];

afterEach(() => vi.restoreAllMocks());

describe("the one outbound host rule (worker/security/outbound.ts)", () => {
  for (const [range, url] of REFUSED) {
    it(`refuses ${range}: ${url}, for federation and imports alike`, async () => {
      expect(isPrivateHost(new URL(url).hostname)).toBe(true);
      expect(() => checkOutboundUrl(url, { allowHttp: true })).toThrow(OutboundError);
      expect(isFetchable(url.replace(/^http:/, "https:"), false)).toBe(false);
      const spy = vi.spyOn(globalThis, "fetch");
      await expect(fetchImage(testEnv as Env, url)).rejects.toThrow("a private or loopback address");
      expect(spy).not.toHaveBeenCalled();
    });
  }

  it("lets public addresses and names through", () => {
    for (const url of ALLOWED) {
      expect(isPrivateHost(new URL(url).hostname), url).toBe(false);
      expect(isFetchable(url.replace(/^http:/, "https:"), false), url).toBe(true);
    }
  });

  it("refuses other schemes and credentials; federation needs https outside a test configuration", () => {
    expect(() => checkOutboundUrl("file:///etc/passwd", { allowHttp: true })).toThrow(OutboundError);
    expect(() => checkOutboundUrl("https://user:pw@example.com/")).toThrow(OutboundError);
    expect(isFetchable("http://example.com/", false)).toBe(false);
    expect(isFetchable("http://127.0.0.1/", true)).toBe(true);
  });
});

describe("redirects, deadline and size cap", () => {
  it("checks every redirect hop again: a public URL redirecting to the metadata address is refused before it is fetched", async () => {
    const fetched: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      fetched.push(url);
      if (url === "https://public.example.com/a") {
        return new Response(null, { status: 302, headers: { Location: "https://public.example.com/b" } });
      }
      return new Response(null, { status: 301, headers: { Location: "http://[::ffff:169.254.169.254]/latest" } });
    });
    const error = await fetchOutbound("https://public.example.com/a", {
      allowHttp: true,
      timeoutMs: 1000,
      maxRedirects: 3,
    }).catch((e: unknown) => e);
    expect((error as OutboundError).reason).toBe("private-host");
    expect(fetched).toEqual(["https://public.example.com/a", "https://public.example.com/b"]);
    await expect(fetchImage(testEnv as Env, "https://public.example.com/a")).rejects.toThrow(
      "a private or loopback address",
    );
  });

  it("stops after the allowed number of redirects", async () => {
    let n = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation(
      async () => new Response(null, { status: 302, headers: { Location: `https://loop.example.com/${++n}` } }),
    );
    const error = await fetchOutbound("https://loop.example.com/0", { timeoutMs: 1000, maxRedirects: 3 }).catch(
      (e: unknown) => e,
    );
    expect((error as OutboundError).reason).toBe("too-many-redirects");
    expect(n).toBe(4);
  });

  it("gives up at the deadline", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(
      (_input, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => reject(new DOMException("timed out", "TimeoutError"))),
        ),
    );
    const error = await fetchOutbound("https://slow.example.com/", { timeoutMs: 50, maxRedirects: 0 }).catch(
      (e: unknown) => e,
    );
    expect((error as OutboundError).reason).toBe("timeout");
  });

  it("cuts a body past its cap, declared or streamed", async () => {
    const declared = new Response("x".repeat(10), { headers: { "Content-Length": "999999" } });
    await expect(readOutboundBody(declared, 100)).rejects.toMatchObject({ reason: "too-large" });
    const streamed = new Response(
      new ReadableStream({
        pull(controller) {
          controller.enqueue(new Uint8Array(64));
        },
      }),
    );
    await expect(readOutboundBody(streamed, 1000)).rejects.toMatchObject({ reason: "too-large" });
    expect(await readOutboundBody(new Response("hello"), 100)).toEqual(new TextEncoder().encode("hello"));
  });
});
