/**
 * The client's address as the limits key it: IPv4 whole, IPv6 by its /64 (one customer's allocation;
 * a /64 has 2^64 addresses, so keying the whole address would give each attacker unlimited tries).
 * A request without an address (no CF-Connecting-IP: never from Cloudflare's edge) is one shared
 * client, "unknown", so it is limited together with every other such request, never unlimited.
 */
export function clientAddressKey(raw: string | null | undefined): string {
  const address = (raw ?? "").trim().toLowerCase();
  if (!address) return "unknown";
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(address)) return address;
  if (!address.includes(":") || !/^[0-9a-f:.]+$/.test(address) || address.length > 45) return "unknown";
  const [head = "", tail] = address.split("::");
  if (address.split("::").length > 2) return "unknown";
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  // An IPv4 tail (::ffff:1.2.3.4) is two groups; the /64 never reaches it.
  const count = (groups: string[]) => groups.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const missing = 8 - count(headGroups) - count(tailGroups);
  if (tail === undefined ? missing !== 0 : missing < 0) return "unknown";
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...tailGroups];
  if (groups.slice(0, 4).some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return "unknown";
  const v4Mapped = groups.slice(0, 5).every((g) => Number.parseInt(g, 16) === 0) && groups[5] === "ffff";
  if (v4Mapped && groups[6]?.includes(".")) return groups[6];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
