import { sessionFor } from "./factories";
import { call } from "./http";

/** A real 1x1 PNG. */
export const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
export const pngFile = (name = "cover.png") => new File([PNG], name, { type: "image/png" });

/** Who asks: a user (a new session per request), or a user with one `token` (one session throughout). */
export type Who = { id: string; email: string; token?: string } | null;

export async function cookieFor(who: Who): Promise<Record<string, string>> {
  return who ? { Cookie: `__Host-session=${who.token ?? (await sessionFor(who))}` } : {};
}

/** The same user with one session for every request (what a browser does). */
export async function withSession<T extends { id: string; email: string }>(user: T): Promise<T & { token: string }> {
  return { ...user, token: await sessionFor(user) };
}

/** A document form post, as a browser without JavaScript sends it (multipart, like the pages' forms). */
export async function postForm(
  path: string,
  who: Who,
  fields: Record<string, string>,
  files: Record<string, File> = {},
) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const [name, file] of Object.entries(files)) body.append(name, file);
  return call(path, {
    method: "POST",
    body,
    headers: { Accept: "text/html", ...(await cookieFor(who)) },
    redirect: "manual",
  });
}

/** A document request, signed in as `who` or as a visitor. */
export async function getPage(path: string, who: Who) {
  return call(path, { headers: { Accept: "text/html", ...(await cookieFor(who)) }, redirect: "manual" });
}
