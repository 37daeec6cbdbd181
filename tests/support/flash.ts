/** The flash message a redirect carries: base64 JSON signed by the Worker (`value.signature`, URL-encoded). */
export function flashOf(res: Response): { kind: string; title: string; text?: string } | null {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("flash=") && !c.startsWith("flash=;"));
  if (!cookie) return null;
  const signed = decodeURIComponent(cookie.slice("flash=".length).split(";")[0] ?? "");
  const value = signed.slice(0, signed.lastIndexOf("."));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(value), (c) => c.charCodeAt(0))));
}
