import { redirect } from "@remix-run/cloudflare";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { safeRedirect } from "#worker/auth/redirect.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { authPageUrl } from "./auth-url";

/** Where a visitor goes to sign in, carrying the page they wanted so they come back to it. */
export function loginUrl(request: Request): string {
  const url = new URL(request.url);
  return authPageUrl("/login", `${url.pathname}${url.search}`);
}

/** Every loader and action that needs a session calls this itself (a layout does not protect children). */
export function signedInOrRedirect(context: AppLoadContext, request: Request): Actor {
  if (!context.user) throw redirect(loginUrl(request));
  return context.user;
}

/** Admin pages: visitors go to /login; signed-in non-admins get the 403 page. */
export function adminOrForbidden(context: AppLoadContext, request: Request): Actor {
  const user = signedInOrRedirect(context, request);
  if (user.role !== "admin") throw new Response("Forbidden", { status: 403 });
  return user;
}

/**
 * The loader of /login and /register: a visitor already signed in carries on to where they were
 * going; anyone else gets the form, with the safe path to return to.
 */
export function signedOutOnly(context: AppLoadContext, request: Request): { redirectTo: string; origin: string } {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  if (context.user) throw redirect(redirectTo);
  return { redirectTo, origin: url.origin };
}
