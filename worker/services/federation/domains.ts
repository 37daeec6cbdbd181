/**
 * The registrable domain of a host, for limits counted per server: one operator's subdomains
 * (a.example.social, b.example.social, or any port of them) share one count. A small public-suffix-aware
 * rule instead of the whole Public Suffix List (about 100 KiB in the Worker): the last two labels, or
 * three under a well-known second-level suffix (example.co.uk, example.com.au). Hosts under a suffix not
 * listed here share one count with everyone under that suffix: a coarser limit, never a looser one.
 */

/** Second-level suffixes under which names are registered (the Public Suffix List's most used). */
const SECOND_LEVEL = new Set([
  "ac.uk",
  "co.uk",
  "gov.uk",
  "ltd.uk",
  "me.uk",
  "net.uk",
  "org.uk",
  "plc.uk",
  "sch.uk",
  "com.au",
  "net.au",
  "org.au",
  "edu.au",
  "gov.au",
  "asn.au",
  "id.au",
  "co.nz",
  "net.nz",
  "org.nz",
  "ac.nz",
  "govt.nz",
  "co.jp",
  "ne.jp",
  "or.jp",
  "ac.jp",
  "go.jp",
  "co.kr",
  "or.kr",
  "ac.kr",
  "com.br",
  "net.br",
  "org.br",
  "com.cn",
  "net.cn",
  "org.cn",
  "com.tw",
  "org.tw",
  "com.hk",
  "org.hk",
  "com.sg",
  "com.my",
  "co.in",
  "net.in",
  "org.in",
  "co.za",
  "org.za",
  "com.mx",
  "com.ar",
  "com.tr",
  "co.il",
  "org.il",
  "com.ua",
  "co.id",
  "or.id",
  "com.pl",
  "co.at",
  "or.at",
]);

/** The registrable domain of a host name (lower-cased, no port, no trailing dot); an IP address as is. */
export function registrableDomain(host: string): string {
  const hostname = host
    .toLowerCase()
    .replace(/^\[([^\]]+)\](?::\d+)?$/, "$1")
    .replace(/:\d{1,5}$/, "")
    .replace(/\.$/, "");
  if (/^[\d.]+$/.test(hostname) || hostname.includes(":")) return hostname;
  const labels = hostname.split(".").filter(Boolean);
  if (labels.length <= 2) return labels.join(".");
  const lastTwo = labels.slice(-2).join(".");
  return SECOND_LEVEL.has(lastTwo) ? labels.slice(-3).join(".") : lastTwo;
}

/** The key a per-server limit counts under. */
export const serverKey = registrableDomain;
