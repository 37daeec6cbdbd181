import { importPrivateKey, toBase64 } from "#worker/services/federation/keys.ts";

/**
 * HTTP Message Signatures (RFC 9421) as Mastodon 4.4+, Fedify and GoToSocial send them: one labelled
 * signature in `Signature-Input`/`Signature`, covering derived components (`@method`, `@target-uri`,
 * ...) and headers, with `created`, `expires`, `keyid` and `alg` parameters.
 */

/** What a refused signature's 401 asks for (RFC 9421 section 5.1): the components we need, created, keyid. */
export const ACCEPT_SIGNATURE = 'sig1=("@method" "@target-uri" "content-digest");created;keyid';

/** The components our own deliveries cover. */
const SIGNED_POST = ['"@method"', '"@target-uri"', '"content-type"', '"content-digest"'];

export interface Rfc9421Input {
  label: string;
  /** Component names, unquoted (lower-case). */
  components: string[];
  /** The inner list and parameters exactly as sent: the base's last line. */
  params: string;
  keyId: string;
  alg: string | null;
  created: number | null;
  expires: number | null;
  signature: string;
}

/** Splits a structured-field dictionary at top-level commas (never inside quotes or parentheses). */
function members(header: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      out.push(header.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(header.slice(start).trim());
  return out.filter(Boolean);
}

/** The first signature both headers name; null when either is missing or malformed. */
export function parseRfc9421(inputHeader: string | null, signatureHeader: string | null): Rfc9421Input | null {
  if (!inputHeader || !signatureHeader || inputHeader.length > 4096 || signatureHeader.length > 8192) return null;
  const signatures = new Map<string, string>();
  for (const member of members(signatureHeader)) {
    const match = member.match(/^([a-z*][a-z0-9_.*-]*)=:([A-Za-z0-9+/=]+):$/);
    if (match) signatures.set(match[1]!, match[2]!);
  }
  for (const member of members(inputHeader)) {
    const match = member.match(/^([a-z*][a-z0-9_.*-]*)=(\(([^)]*)\)(.*))$/);
    if (!match) continue;
    const [, label, params, inner, rest] = match as unknown as [string, string, string, string, string];
    const signature = signatures.get(label);
    if (!signature) continue;
    const names = inner.trim() ? inner.trim().split(/\s+/) : [];
    // Plain quoted names only: component parameters (`;req`, `;sf`, `;key`) are not something we sign or read.
    if (!names.every((name) => /^"[a-z0-9@_.-]+"$/.test(name))) return null;
    const fields = new Map<string, string>();
    for (const part of rest.split(";").slice(1)) {
      const [name, ...value] = part.split("=");
      fields.set(name!.trim(), value.join("=").trim());
    }
    const text = (value: string | undefined) => (value && /^"[^"\\]*"$/.test(value) ? value.slice(1, -1) : null);
    const int = (value: string | undefined) => (value && /^\d{1,12}$/.test(value) ? Number(value) : null);
    const keyId = text(fields.get("keyid"));
    if (!keyId) return null;
    return {
      label,
      components: names.map((name) => name.slice(1, -1)),
      params,
      keyId,
      alg: text(fields.get("alg")),
      created: int(fields.get("created")),
      expires: int(fields.get("expires")),
      signature,
    };
  }
  return null;
}

/** The signature base (RFC 9421 section 2.5); null when a covered component is missing. */
export function rfc9421Base(request: Request, components: string[], params: string): string | null {
  const url = new URL(request.url);
  const lines: string[] = [];
  for (const name of components) {
    let value: string | null;
    switch (name) {
      case "@method":
        value = request.method.toUpperCase();
        break;
      case "@target-uri":
        value = url.href;
        break;
      case "@authority":
        // The Host the request came with, else the URL's (a Request built in code has no Host header).
        value = (request.headers.get("host") ?? url.host).toLowerCase();
        break;
      case "@scheme":
        value = url.protocol.slice(0, -1);
        break;
      case "@request-target":
        value = `${url.pathname}${url.search}`;
        break;
      case "@path":
        value = url.pathname;
        break;
      case "@query":
        value = url.search || "?";
        break;
      case "host":
        // Fedify covers the `host` header too; fetch sets it from the URL, and a Request never carries it.
        value = request.headers.get("host")?.trim() ?? url.host;
        break;
      default:
        value = name.startsWith("@") ? null : (request.headers.get(name)?.trim() ?? null);
    }
    if (value === null) return null;
    lines.push(`"${name}": ${value}`);
  }
  lines.push(`"@signature-params": ${params}`);
  return lines.join("\n");
}

/** Content-Digest (RFC 9530): SHA-256 of the body. */
export async function contentDigest(body: string): Promise<string> {
  return `sha-256=:${toBase64(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)))}:`;
}

/** Whether a Content-Digest header names the body's SHA-256 (or SHA-512). */
export async function contentDigestMatches(header: string | null, body: string): Promise<boolean> {
  if (!header) return false;
  const bytes = new TextEncoder().encode(body);
  for (const member of members(header)) {
    const match = member.match(/^(sha-256|sha-512)=:([A-Za-z0-9+/=]+):$/i);
    if (!match) continue;
    const hash = match[1]!.toLowerCase() === "sha-256" ? "SHA-256" : "SHA-512";
    if (toBase64(await crypto.subtle.digest(hash, bytes)) === match[2]) return true;
  }
  return false;
}

/** Adds an RFC 9421 `rsa-v1_5-sha256` signature to a POST (headers already carry Content-Type). */
export async function signRfc9421(
  url: URL,
  headers: Headers,
  body: string,
  keyId: string,
  privateKeyPem: string,
  now: number,
): Promise<void> {
  headers.set("Content-Digest", await contentDigest(body));
  const params = `(${SIGNED_POST.join(" ")});created=${Math.floor(now / 1000)};keyid="${keyId}";alg="rsa-v1_5-sha256"`;
  const probe = new Request(url, { method: "POST", headers });
  const base = rfc9421Base(
    probe,
    SIGNED_POST.map((n) => n.slice(1, -1)),
    params,
  )!;
  const key = await importPrivateKey(privateKeyPem);
  const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, new TextEncoder().encode(base));
  headers.set("Signature-Input", `sig1=${params}`);
  headers.set("Signature", `sig1=:${toBase64(signature)}:`);
}
