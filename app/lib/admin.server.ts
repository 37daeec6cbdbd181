import { redirectWithFlash } from "./flash.server";
import { handleForm, readForm, unknownAction } from "./forms.server";
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
export async function deleteAction(
  request: Request,
  remove: (id: string) => Promise<unknown>,
  /** The table's other row actions, by intent (approve, feature): each answers the request itself. */
  others: Record<string, (form: FormData) => Promise<Response>> = {},
) {
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    const intent = String(form.get("intent") ?? "");
    if (intent !== "delete") {
      return Object.hasOwn(others, intent) ? others[intent]!(form) : unknownAction(form);
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
