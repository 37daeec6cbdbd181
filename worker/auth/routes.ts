import { configOf } from "#worker/config.ts";
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { html, raw } from "hono/html";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiContext, ApiEnv } from "#worker/api/context.ts";
import { statusOf } from "#worker/api/errors.ts";
import { DomainError } from "#worker/services/shared/errors.ts";
import { deviceOf, signedFlashCookie, setSessionCookies } from "#worker/auth/cookie.ts";
import { GoogleFlowError, exchangeGoogleCode, googleClient, startGoogleFlow } from "#worker/auth/google.ts";
import { GOOGLE_SIGNED_IN } from "#worker/services/texts.ts";
import { reauthCookie } from "#worker/auth/reauth.ts";
import { safeRedirect } from "#worker/auth/redirect.ts";
import { logError } from "#worker/log.ts";

type Mode = "popup" | "redirect";
type Intent = "login" | "register" | "reauth";

/** What the popup hands to its opener (see app/lib/google-popup.ts, which reads it). */
export type GoogleAuthMessage =
  | { type: "auth:google"; ok: true; isNewUser: boolean; intent: Exclude<Intent, "reauth">; redirectTo: string }
  | { type: "auth:google"; ok: false; code: string; message: string };

// The flow's own cookies live only under /auth/google and only for the ten minutes a sign-in may take.
const FLOW = {
  state: "google_oauth_state",
  verifier: "google_code_verifier",
  redirectTo: "google_redirect_to",
  mode: "google_mode",
  intent: "google_intent",
} as const;
const FLOW_COOKIE = { path: "/auth/google", httpOnly: true, secure: true, sameSite: "Lax", maxAge: 600 } as const;

const modeOf = (value: unknown): Mode => (value === "popup" ? "popup" : "redirect");
// "reauth": a signed-in Google-only account proves itself again before deleting itself (worker/auth/reauth.ts).
const intentOf = (value: unknown): Intent => (value === "register" || value === "reauth" ? value : "login");

function readFlow(c: ApiContext) {
  return {
    state: getCookie(c, FLOW.state) ?? null,
    verifier: getCookie(c, FLOW.verifier) ?? null,
    redirectTo: safeRedirect(getCookie(c, FLOW.redirectTo)),
    mode: modeOf(getCookie(c, FLOW.mode)),
    intent: intentOf(getCookie(c, FLOW.intent)),
  };
}

/** A state is good for one callback only, whatever its outcome. */
function clearFlow(c: ApiContext) {
  for (const name of Object.values(FLOW)) deleteCookie(c, name, { path: FLOW_COOKIE.path, secure: true });
}

function nonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** JSON that cannot end the <script> it sits in, nor be read as HTML by anything. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f2937}" +
  "h1{font-size:1.25rem}a{color:#2563eb}";

/**
 * Every page these routes render. Only server-chosen texts and an already-sanitised path reach it,
 * and `html` escapes them anyway; the one inline script runs under a per-response nonce.
 */
function page(
  c: ApiContext,
  status: number,
  content: { title: string; message: string; link: { href: string; label: string }; post?: GoogleAuthMessage },
) {
  const n = nonce();
  const script = content.post
    ? html`<script nonce="${n}">
        (function () {
          var result = ${raw(scriptJson(content.post))};
          var opener = null;
          try {
            opener = window.opener;
          } catch (e) {}
          if (opener && !opener.closed) {
            try {
              opener.postMessage(result, location.origin);
              window.close();
              return;
            } catch (e) {}
          }
          // No opener (the popup was opened as a tab, or the browser cut the link): carry on here instead.
          if (result.ok) location.replace(result.redirectTo);
        })();
      </script>`
    : "";
  const body = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${content.title}</title>
        <style nonce="${n}">
          ${raw(STYLE)}
        </style>
      </head>
      <body>
        <main>
          <h1>${content.title}</h1>
          <p>${content.message}</p>
          <p><a href="${content.link.href}">${content.link.label}</a></p>
        </main>
        ${script}
      </body>
    </html>`;
  return c.html(body, status as ContentfulStatusCode, {
    "Content-Security-Policy": `default-src 'none'; script-src 'nonce-${n}'; style-src 'nonce-${n}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    "Cache-Control": "no-store",
    // The callback URL carries the authorization code: never hand it on as a referrer.
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  });
}

function failure(c: ApiContext, mode: Mode, err: unknown) {
  let code: string;
  let message: string;
  let status: number;
  if (err instanceof GoogleFlowError) {
    ({ code, message, status } = err);
  } else if (err instanceof DomainError) {
    ({ code, message } = err);
    status = statusOf(err);
  } else {
    logError("google sign-in failed", err);
    const internal = new GoogleFlowError("internal-error");
    ({ code, message, status } = internal);
  }
  return page(c, status, {
    title: "Google sign-in failed",
    message,
    link: { href: "/login", label: "Back to sign in" },
    post: mode === "popup" ? { type: "auth:google", ok: false, code, message } : undefined,
  });
}

/** Google sign-in (authorization code + PKCE + state), mounted at /auth by the Worker entry. */
export const authRoutes = new Hono<ApiEnv>()
  .get("/google", (c) => {
    const mode = modeOf(c.req.query("mode"));
    const client = googleClient(c.env, c.req.url);
    if (!client) return failure(c, mode, new GoogleFlowError("google-not-configured"));

    const { state, codeVerifier, url } = startGoogleFlow(client.google);
    setCookie(c, FLOW.state, state, FLOW_COOKIE);
    setCookie(c, FLOW.verifier, codeVerifier, FLOW_COOKIE);
    setCookie(c, FLOW.redirectTo, safeRedirect(c.req.query("redirectTo")), FLOW_COOKIE);
    setCookie(c, FLOW.mode, mode, FLOW_COOKIE);
    setCookie(c, FLOW.intent, intentOf(c.req.query("intent")), FLOW_COOKIE);
    c.header("Cache-Control", "no-store");
    return c.redirect(url.toString(), 302);
  })
  .get("/google/callback", async (c) => {
    // Mode, destination and intent come from our cookies only: nothing Google (or anyone) puts in the
    // callback URL is reflected into the page.
    const flow = readFlow(c);
    clearFlow(c);
    try {
      const client = googleClient(c.env, c.req.url);
      if (!client) throw new GoogleFlowError("google-not-configured");

      const state = c.req.query("state");
      if (!flow.state || !flow.verifier || !state || state !== flow.state) throw new GoogleFlowError("state-mismatch");

      const providerError = c.req.query("error");
      if (providerError)
        throw new GoogleFlowError(providerError === "access_denied" ? "access-denied" : "google-error");
      const code = c.req.query("code");
      if (!code) throw new GoogleFlowError("google-error");

      const identity = await exchangeGoogleCode(client, code, flow.verifier);
      if (flow.intent === "reauth") {
        const user = await c.var.services.googleAccounts.reauthenticate(c.var.user, identity);
        c.header("Set-Cookie", await reauthCookie(user.id, configOf(c.env).sessionSecret), { append: true });
        c.header("Cache-Control", "no-store");
        return c.redirect(flow.redirectTo, 302);
      }
      const { user, isNewUser } = await c.var.services.googleAccounts.signIn(identity);
      const { token } = await c.var.services.sessions.start(user, deviceOf(c.req.raw));
      for (const cookie of await setSessionCookies(token, user.id, configOf(c.env).sessionSecret))
        c.header("Set-Cookie", cookie, { append: true });
      c.header("Cache-Control", "no-store");

      if (flow.mode === "redirect") {
        // No opener to tell: the page it lands on shows the spec's success message as a flash.
        const words = GOOGLE_SIGNED_IN[flow.intent];
        const flash = { kind: "toast", title: words.title, text: words.text, icon: "success" } as const;
        c.header("Set-Cookie", await signedFlashCookie(flash, configOf(c.env).sessionSecret), { append: true });
        return c.redirect(flow.redirectTo, 302);
      }
      return page(c, 200, {
        title: "Signed in",
        message: "You are signed in with Google. You can close this window.",
        link: { href: flow.redirectTo, label: "Continue" },
        post: { type: "auth:google", ok: true, isNewUser, intent: flow.intent, redirectTo: flow.redirectTo },
      });
    } catch (err) {
      return failure(c, flow.mode, err);
    }
  });
