import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { clearSessionCookie } from "#worker/auth/cookie";
import { redirectWithFlash } from "#app/lib/flash.server";
import { safeRedirect } from "#worker/auth/redirect";
import { readForm } from "#app/lib/forms.server";
import { MSG } from "#app/lib/messages";

// Signing out changes state, so only a POST does it (a GET, say from a prefetch or a link, just goes home).
export function loader() {
  return redirect("/");
}

/**
 * Ends this browser's session and clears its cookie, then "Logged Out!" on the home page. A visitor
 * posting here also lands there: signing out twice is not a failure. If ending the session fails,
 * the person goes back where they were with "Error!" and the reason, still signed in.
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const back = safeRedirect(form?.get("redirectTo"));
  try {
    if (context.sessionId) await context.services.sessions.end(context.sessionId);
  } catch (err) {
    console.error("logout failed", err);
    // Storage errors are internal: the person gets a sentence, the log gets the details.
    return redirectWithFlash(back, {
      kind: "alert",
      title: MSG.signOut.errorTitle,
      text: MSG.accounts.signOutFailed,
      icon: "error",
    });
  }
  return redirectWithFlash(
    "/",
    { kind: "toast", title: MSG.signOut.successTitle, text: MSG.signOut.successText, icon: "success" },
    [clearSessionCookie()],
  );
}
