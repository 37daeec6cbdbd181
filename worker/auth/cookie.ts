import { SESSION_TTL_SECONDS } from "./tokens";

export const SESSION_COOKIE = "session";

/** Set-Cookie for a session: HttpOnly, Secure, SameSite=Lax (browsers accept Secure on localhost). */
export function sessionCookie(token: string, maxAge = SESSION_TTL_SECONDS): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${maxAge}`;
}

export function clearSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;
}

/** The token a request carries: `Authorization: Bearer` first (the REST clients), then the cookie (pages). */
export function readToken(request: Request): string | null {
  const auth = request.headers.get("Authorization");
  if (auth) {
    const match = /^Bearer\s+(\S+)$/i.exec(auth);
    return match?.[1] ?? null;
  }
  const cookies = request.headers.get("Cookie");
  if (!cookies) return null;
  for (const part of cookies.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) return rest.join("=") || null;
  }
  return null;
}
