import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { brandOf } from "#app/lib/site-name.ts";
import { EmptyState, containerClass } from "#app/components/ui.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useRef, type MouseEvent } from "react";
import { useOnActionResult } from "#app/lib/use-on-action-result.ts";
import { Avatar } from "#app/components/Avatar.tsx";
import { BlogCard } from "#app/components/BlogCard.tsx";
import { DesignationField, Field, FormError, SubmitButton, TextArea } from "#app/components/form.tsx";
import { alertDialog } from "#app/lib/dialogs.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm } from "#app/lib/forms.server.ts";
import { Pagination } from "#app/components/Pagination.tsx";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { seo } from "#app/lib/seo.ts";
import { refusal } from "#app/lib/form-result.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { toCard } from "#app/lib/cards.ts";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...seo({
    brand: brandOf(matches),
    title: data ? `${data.user.name}'s profile` : "Profile",
    description: `Your ${brandOf(matches)} profile and blog posts.`,
    origin: data?.origin ?? "https://example.invalid",
    path: "/Profile",
  }),
  { name: "robots", content: "noindex" },
];

export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  // Profile and blogs in one D1 batch (the session itself was resolved before Remix ran).
  const url = new URL(request.url);
  const { profile, blogs: result } = await loadOr404(() =>
    context.services.profiles.overview(user, { page: url.searchParams.get("page") }),
  );
  const blogs = result.items;
  return {
    // Edit Profile changes the profile's name, so that is the name this page shows once there is one.
    user: { name: profile?.name || user.name, email: user.email, photoURL: user.photoURL },
    profile,
    blogs: blogs.map(toCard),
    paging: { page: result.page, pages: result.pages, total: result.total },
    // Without JavaScript, "Create Profile" is a link to ?create, which shows the form in place.
    createOpen: url.searchParams.has("create"),
    origin: url.origin,
  };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request);
  // The spec's words ("All fields are required!", the failure text) come by code from ERROR_WORDS.
  return handleForm(request, form, async () => {
    await context.services.profiles.create(user, { bio: form.get("bio"), designation: form.get("designation") });
    return redirectWithFlash("/Profile", { kind: "toast", title: MSG.profile.created, icon: "success" });
  });
}

const primary = buttonClass();
const secondary = buttonClass({ tone: "secondary" });

export default function ProfilePage() {
  const { user, profile, blogs, paging, createOpen } = useLoaderData<typeof loader>();

  return (
    <div className={containerClass({ className: "py-10" })}>
      <section
        aria-labelledby="profile-heading"
        className="overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm"
      >
        <div className="h-28 bg-gradient-to-r from-brand-600 to-brand-500 sm:h-36" />
        <div className="px-6 pb-8 sm:px-10">
          <div className="-mt-14 sm:-mt-16">
            <Avatar
              photoURL={user.photoURL}
              size={112}
              eager
              alt={`${user.name}'s photo`}
              className="ring-4 shadow-md"
            />
          </div>
          <div className="mt-4 flex flex-col gap-5 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0">
              <h1 id="profile-heading" className="break-words text-2xl font-bold tracking-tight text-ink sm:text-3xl">
                {user.name}
              </h1>
              <p className="break-all text-sm text-gray-600">{user.email}</p>
            </div>
            <div className="flex flex-wrap gap-3">
              <Link to="/dashboard" className={secondary}>
                Dashboard
              </Link>
              {/* A profile whose optional bio was emptied is still there to edit: creating a second is refused. */}
              {profile ? (
                <Link to={`/editProfile/${profile._id}`} className={primary}>
                  Edit Profile
                </Link>
              ) : (
                <CreateProfile user={user} initiallyOpen={createOpen} />
              )}
            </div>
          </div>

          <dl className="mt-8 grid gap-6 sm:grid-cols-3">
            <div className="sm:col-span-2">
              <dt className="text-xs font-semibold uppercase tracking-wider text-gray-500">Bio</dt>
              <dd className={`mt-1 whitespace-pre-line ${profile?.bio ? "text-gray-800" : "italic text-gray-500"}`}>
                {profile?.bio || MSG.profile.noBio}
              </dd>
            </div>
            <div className="min-w-0">
              <dt className="text-xs font-semibold uppercase tracking-wider text-gray-500">Designation</dt>
              <dd
                className={`mt-1 [overflow-wrap:anywhere] ${profile?.designation ? "text-gray-800" : "italic text-gray-500"}`}
              >
                {profile?.designation || MSG.profile.noDesignation}
              </dd>
            </div>
          </dl>
        </div>
      </section>

      <section aria-labelledby="posts-heading" className="mt-12">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="posts-heading" className="text-2xl font-bold tracking-tight">
            Your Blog Posts
          </h2>
          {paging.total > 0 ? (
            <p className="text-sm text-gray-600">{paging.total === 1 ? "1 post" : `${paging.total} posts`}</p>
          ) : null}
        </div>
        {blogs.length === 0 ? (
          <EmptyState className="mt-6">
            <p className="text-gray-700">{MSG.profile.noBlogs}</p>
            <Link to="/dashboard/writeBlogs" className={`${primary} mt-5`}>
              Write your first blog
            </Link>
          </EmptyState>
        ) : (
          <div className="mt-6 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {blogs.map((blog, i) => (
              <BlogCard key={blog._id} blog={blog} eager={i < 3} />
            ))}
          </div>
        )}
        {paging.pages > 1 ? (
          <div className="mt-8">
            <Pagination page={paging.page} pages={paging.pages} label="Your blog posts pages" />
          </div>
        ) : null}
      </section>
    </div>
  );
}

/**
 * The create-profile dialog: a native <dialog> opened as a modal once hydrated. Without JavaScript
 * the button is a link to ?create and the server renders the same dialog already open, in place;
 * a refused submission comes back with the dialog open and the message inside it.
 */
function CreateProfile({ user, initiallyOpen }: { user: { name: string; email: string }; initiallyOpen: boolean }) {
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  const dialog = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  const serverOpen = initiallyOpen || Boolean(failure);

  const showModal = () => {
    const d = dialog.current;
    if (!d) return;
    // A dialog the server rendered open is not modal; reopen it as one.
    if (d.open && !d.matches(":modal")) d.close();
    if (!d.open) d.showModal();
    // The first field a person can type in, not the locked Name (issue 47); after a refusal, the first wrong one.
    d.querySelector<HTMLElement>('[aria-invalid="true"], textarea[name="bio"]')?.focus();
  };

  // Each new answer (and the first render, for ?create): the dialog opens as a modal, and a refusal
  // that is not about a field gets the spec's failure dialog.
  useOnActionResult(result, () => {
    if (serverOpen) showModal();
    if (failure && Object.keys(failure.fields).length === 0)
      void alertDialog(MSG.profile.createFailed, undefined, "error");
  });

  const open = (e: MouseEvent) => {
    e.preventDefault();
    showModal();
  };
  const close = (e: MouseEvent) => {
    if (!hydrated) return;
    e.preventDefault();
    dialog.current?.close();
  };

  return (
    <>
      <a href="/Profile?create#create-profile" onClick={open} className={primary} aria-haspopup="dialog">
        Create Profile
      </a>
      <dialog
        ref={dialog}
        id="create-profile"
        aria-labelledby="create-profile-title"
        open={serverOpen || undefined}
        className="fixed inset-0 z-50 m-auto w-[calc(100%-2rem)] max-w-lg rounded-2xl border border-gray-200 bg-white p-0 shadow-2xl backdrop:bg-gray-900/50"
      >
        <Form method="post" noValidate className="flex flex-col gap-4 p-6 sm:p-8">
          <input type="hidden" name="intent" value="create-profile" />
          <h2 id="create-profile-title" className="text-xl font-bold tracking-tight">
            Create Profile
          </h2>
          <p className="-mt-2 text-sm text-gray-600">Your name and email come from your account and are locked here.</p>
          <FormError message={failure?.formError} />
          <Field label="Name" name="name" value={user.name} readOnly />
          <Field label="Email" name="email" type="email" value={user.email} readOnly />
          <TextArea
            label="Bio"
            name="bio"
            required
            defaultValue={failure?.values.bio}
            maxLength={LIMITS.bio}
            rows={4}
            error={failure?.fields.bio}
          />
          <DesignationField defaultValue={failure?.values.designation} error={failure?.fields.designation} />
          <div className="mt-2 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link to="/Profile" onClick={close} className={secondary}>
              Cancel
            </Link>
            <SubmitButton pendingText="Creating…">Create Profile</SubmitButton>
          </div>
        </Form>
      </dialog>
    </>
  );
}
