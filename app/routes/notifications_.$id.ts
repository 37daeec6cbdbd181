import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";

/**
 * Opening a notification from the list or the bell: it is marked read and the person lands where it
 * points (the comment itself, `#comment-…`). A plain link, so it works without JavaScript; marking a
 * notification read is harmless to repeat. Someone else's notification sends them to their own list.
 */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const to = await context.services.notifications.open(user, params.id ?? "");
  return redirect(to ?? "/notifications", 303);
}
