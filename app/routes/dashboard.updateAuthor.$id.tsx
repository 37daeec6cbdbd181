import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthorForm } from "#app/components/AuthorForm.tsx";
import { DashboardHeader, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm } from "#app/lib/forms.server.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";

export const handle = { title: "Update Author" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Update Author", matches);

/** One D1 query: the author to preload. */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  return { author: await loadOr404(() => context.services.authors.byId(admin, params.id ?? "")) };
}

/**
 * Nothing is required and an empty field keeps the stored value (spec section 5); the picture changes
 * only when a new file is chosen, and the service stores it only once the rest has been checked.
 */
export async function action({ context, request, params }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const id = params.id ?? "";
  // A missing author is the 404 page before anything is uploaded.
  await loadOr404(() => context.services.authors.byId(admin, id));
  const form = await readForm(request, "image");
  return handleForm(request, form, async () => {
    const input = {
      name: form.get("name"),
      bio: form.get("bio"),
      twitter: form.get("twitter"),
      linkedin: form.get("linkedin"),
      github: form.get("github"),
    };
    const { modifiedCount } = await context.services.authors.update(admin, id, input, form.get("img"));
    if (modifiedCount === 0) return data({ ok: true as const, modifiedCount });
    return redirectWithFlash("/dashboard/manageAuthors", { kind: "toast", icon: "success", title: MSG.author.updated });
  });
}

export default function UpdateAuthor() {
  const { author } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <DashboardHeader
        title="Update Author"
        description="Change what you need. A field left empty keeps its current value, and the picture changes only if you choose a new one."
        actions={
          <Link to="/dashboard/manageAuthors" className={buttonSecondary}>
            Manage Authors
          </Link>
        }
      />
      <AuthorForm author={author} result={result} />
    </>
  );
}
