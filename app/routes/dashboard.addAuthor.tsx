import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData } from "@remix-run/react";
import { AuthorForm } from "#app/components/AuthorForm.tsx";
import { DashboardHeader, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, readForm } from "#app/lib/forms.server.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";

export const handle = { title: "Add Author" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Add Author", matches);

/** No D1 query: the guard reads the session the Worker already resolved. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  adminOrForbidden(context, request);
  return null;
}

/** Parse, create, answer: the service checks the form before it stores the picture, so a refused form leaves no image behind. */
export async function action({ context, request }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const form = await readForm(request, "image");
  return handleForm(request, form, async () => {
    const input = {
      name: form.get("name"),
      bio: form.get("bio"),
      twitter: form.get("twitter"),
      linkedin: form.get("linkedin"),
      github: form.get("github"),
    };
    await context.services.authors.create(admin, input, form.get("image"));
    return redirectWithFlash("/dashboard/manageAuthors", {
      kind: "alert",
      icon: "success",
      title: MSG.author.addedTitle,
      text: MSG.author.addedText,
    });
  });
}

export default function AddAuthor() {
  const result = useActionData<typeof action>();
  return (
    <>
      <DashboardHeader
        title="Add Author"
        description="Authors appear in Meet Our Authors on the home page. Name, bio and picture are required; the profile links are optional."
        actions={
          <Link to="/dashboard/manageAuthors" className={buttonSecondary}>
            Manage Authors
          </Link>
        }
      />
      <AuthorForm result={result} />
    </>
  );
}
