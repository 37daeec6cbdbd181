import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { authPageUrl } from "#app/lib/auth-url.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import type { Done, Intent } from "./reactions";

/**
 * Like, comment or reply, delete a comment, report one (or withdraw the report), and save. Each service checks the session
 * itself; a visitor is sent to /login (and back here afterwards). With JavaScript these run through
 * fetchers; without it they are plain form posts whose answer renders this page again.
 */
export async function action({ context, params, request }: ActionFunctionArgs) {
  const id = params.id ?? "";
  const form = await readForm(request);
  const intent = form.get("intent");
  const { services, user } = context;
  const done = (extra: Partial<Done> = {}): Done => ({ ok: true, intent: intent as Intent, ...extra });
  switch (intent) {
    case "like":
      return handleForm(request, form, async () => done(await services.likes.toggle(user, id)));
    case "comment":
      // A reply names its comment (parent_id); the one service call makes both.
      return handleForm(request, form, async () => {
        const created = await services.comments.create(user, id, {
          body: form.get("body"),
          parent_id: form.get("parent_id"),
        });
        // Without JavaScript (a document post) the page opens at the new comment. The hydrated form
        // says it is a fetch (`via=fetch`): single fetch strips `.data` from the URL an action sees.
        if (form.get("via") !== "fetch") {
          return redirect(`${new URL(request.url).pathname}#comment-${created.insertedId}`, 303);
        }
        return done({ commentId: created.insertedId });
      });
    case "delete-comment":
      return handleForm(request, form, async () => {
        await services.comments.remove(user, String(form.get("commentId") ?? ""));
        return done();
      });
    case "report-comment":
      return handleForm(request, form, async () => {
        const commentId = String(form.get("commentId") ?? "");
        await services.commentReports.report(user, commentId, { reason: form.get("reason"), note: form.get("note") });
        return done({ commentId });
      });
    case "withdraw-report":
      return handleForm(request, form, async () => {
        const commentId = String(form.get("commentId") ?? "");
        await services.commentReports.withdraw(user, commentId);
        return done({ commentId });
      });
    case "save":
      if (!user) {
        return redirectWithFlash(authPageUrl("/login", `${new URL(request.url).pathname}?save=1`), {
          kind: "alert",
          title: MSG.save.needLogin,
          icon: "error",
        });
      }
      return handleForm(request, form, async () => {
        const saved = await services.savedBlogs.save(user, { blogId: id });
        return done("alreadySaved" in saved ? { alreadySaved: true } : {});
      });
    // Saved toggles back: the post leaves the reading list (already gone is the same outcome).
    case "unsave":
      return handleForm(request, form, async () => {
        if (!user) return done();
        await services.savedBlogs.remove(user, id).catch((err: unknown) => {
          if (!(err instanceof NotFound)) throw err;
        });
        return done();
      });
    default:
      return unknownAction(form);
  }
}
