import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DesignationField, FormError, NameField, SubmitButton, TextArea } from "#app/components/form.tsx";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { seo } from "#app/lib/seo.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { refusal } from "#app/lib/form-result.ts";
import { buttonClass } from "#app/components/ui.tsx";
import { whatChanged } from "#app/lib/what-changed.ts";

export const meta: MetaFunction<typeof loader> = ({ data, params, matches }) => [
  ...seo({
    brand: brandOf(matches),
    title: "Edit profile",
    description: "Update your name, bio and designation.",
    origin: data?.origin ?? "https://example.invalid",
    path: `/editProfile/${params.id ?? ""}`,
  }),
  { name: "robots", content: "noindex" },
];

export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  // The service lets only the owner or an admin read it: anyone else gets the 403 page.
  const profile = await loadOr404(() => context.services.profiles.byId(user, params.id ?? ""));
  return { profile, origin: new URL(request.url).origin };
}

export async function action({ context, request, params }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    const before = await context.services.profiles.byId(user, params.id ?? "");
    const wanted = { name: form.get("name"), bio: form.get("bio"), designation: form.get("designation") };
    const { modifiedCount } = await context.services.profiles.update(user, params.id ?? "", wanted);
    const text = modifiedCount
      ? whatChanged(before, wanted, { name: "your name", bio: "your bio", designation: "your designation" })
      : "Nothing was different, so nothing changed.";
    return redirectWithFlash("/Profile", { kind: "toast", title: MSG.profile.updated, icon: "success", text });
  });
}

export default function EditProfile() {
  const { profile } = useLoaderData<typeof loader>();
  const failure = refusal(useActionData<typeof action>());
  const fields = failure?.fields ?? {};
  const value = (name: "name" | "bio" | "designation") => failure?.values[name] ?? profile[name];

  return (
    <div className="bg-gradient-to-b from-brand-50 to-white">
      <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6 sm:py-16">
        <nav aria-label="Breadcrumb" className="text-sm text-gray-600">
          <Link to="/Profile" className="font-medium text-brand-700 hover:underline">
            Profile
          </Link>
          <span aria-hidden="true"> / </span>
          <span>Edit</span>
        </nav>
        <section className="mt-4 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">Edit Profile</h1>
          <p className="mt-2 text-sm text-gray-600">
            Signed in as <span className="font-medium text-gray-800">{profile.email}</span>. Name and designation are
            required.
          </p>
          <Form method="post" className="mt-6 flex flex-col gap-4">
            <FormError message={failure && Object.keys(fields).length === 0 ? failure.formError : undefined} />
            <NameField defaultValue={value("name")} error={fields.name} autoComplete="name" />
            <TextArea
              label="Bio"
              name="bio"
              rows={5}
              maxLength={LIMITS.bio}
              defaultValue={value("bio")}
              error={fields.bio}
              hint="Optional."
            />
            <DesignationField defaultValue={value("designation")} error={fields.designation} />
            <div className="mt-2 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Link to="/Profile" className={buttonClass({ tone: "secondary" })}>
                Cancel
              </Link>
              <SubmitButton pendingText="Saving…">Save changes</SubmitButton>
            </div>
          </Form>
        </section>
      </div>
    </div>
  );
}
