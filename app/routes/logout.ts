import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { clearSessionCookie } from "#worker/auth/cookie.ts";
import { flashCookie, redirectWithFlash, type Flash } from "#app/lib/flash.server.ts";
import { safeRedirect } from "#worker/auth/redirect.ts";
import { wantsJson } from "#worker/http/negotiation.ts";
import { formStatus, readForm } from "#app/lib/forms.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { DATABASE_UNAVAILABLE_TEXT, DomainError } from "#worker/services/shared/errors.ts";
import { logError } from "#worker/log.ts";

// Signing out changes state, so only a POST does it (a GET, say from a prefetch or a link, just goes home).
export function loader() {
  return redirect("/");
}

/**
 * Ends this browser's session and clears its cookie, then "Logged Out!" on the home page. A visitor
 * posting here also lands there: signing out twice is not a failure. If ending the session fails,
 * the person stays signed in and is told "Error!" with the reason.
 *
 * Without JavaScript this is posted by the /confirm page and answers with redirects. The menu's
 * script (after its own dialog) asks for JSON instead: `{ok: true}` with the same cookies (it then
 * loads the home page, which shows the flash), or the error's sentence with its status, which it
 * shows under "Error!" as it does a network failure.
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const back = safeRedirect(form?.get("redirectTo"));
  const json = wantsJson(request);
  try {
    if (context.sessionId) await context.services.sessions.end(context.sessionId);
  } catch (err) {
    logError("logout failed", err);
    // The person is told what failed: a domain error's own sentence, else D1 not answering (the only
    // storage this touches); the raw driver text stays in the log.
    const text = err instanceof DomainError ? err.message : DATABASE_UNAVAILABLE_TEXT;
    if (json) {
      const status = err instanceof DomainError ? formStatus(err) : 503;
      return Response.json({ error: { code: "sign-out-failed", message: text } }, { status });
    }
    return redirectWithFlash(back, { kind: "alert", title: MSG.signOut.errorTitle, text, icon: "error" });
  }
  const signedOut: Flash = {
    kind: "toast",
    title: MSG.signOut.successTitle,
    text: MSG.signOut.successText,
    icon: "success",
  };
  if (json) {
    const headers = new Headers();
    headers.append("Set-Cookie", clearSessionCookie());
    headers.append("Set-Cookie", flashCookie(signedOut));
    return Response.json({ ok: true }, { headers });
  }
  return redirectWithFlash("/", signedOut, [clearSessionCookie()]);
}
