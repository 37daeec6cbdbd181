import { data } from "@remix-run/cloudflare";
import { redirectWithFlash } from "./flash.server";
import { handleForm, readForm, type FormFailure } from "./forms.server";
import { MSG } from "./messages";

/** The page a row action was posted from (with its ?page=), to land back on. */
export function samePage(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/**
 * The action of an admin table whose only row action is Delete: the service decides (and refuses
 * non-admins), then the same page shows the spec's "Deleted!" dialog.
 */
export async function deleteAction(request: Request, remove: (id: string) => Promise<unknown>) {
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    if (form.get("intent") !== "delete") {
      return data<FormFailure>({ ok: false, formError: "Unknown action.", fields: {}, values: {} }, { status: 400 });
    }
    await remove(String(form.get("id") ?? ""));
    return redirectWithFlash(samePage(request), {
      kind: "alert",
      icon: "success",
      title: MSG.delete.doneTitle,
      text: MSG.delete.doneText,
    });
  });
}
