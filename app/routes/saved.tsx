import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { postPath } from "#worker/services/blogs/slug.ts";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { EmptyPage, PagedList, pageCount } from "#app/components/PagedList.tsx";
import { buttonClass, containerClass } from "#app/components/ui.tsx";
import { handleForm, readForm, unknownAction, loadOr404 } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { Image } from "#app/components/Image.tsx";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...seo({
    brand: brandOf(matches),
    title: "Your reading list",
    description: `The posts you saved on ${brandOf(matches)}.`,
    origin: data?.origin ?? "https://example.invalid",
    path: "/saved",
  }),
  { name: "robots", content: "noindex" },
];

/** The reader's own saved posts, newest save first (personal: `private, no-store`, as every page with a session). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const url = new URL(request.url);
  const saved = await loadOr404(() => context.services.savedBlogs.page(user, { page: url.searchParams.get("page") }));
  return { origin: url.origin, saved };
}

type Removed = { ok: true; intent: "remove"; message: string };

/** Remove: a plain form post, so it works without JavaScript; the loader then runs again. */
export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request);
  if (form.get("intent") !== "remove") return unknownAction(form);
  return handleForm(request, form, async (): Promise<Removed> => {
    try {
      await context.services.savedBlogs.remove(user, String(form.get("blogId") ?? ""));
      return { ok: true, intent: "remove", message: MSG.save.removed };
    } catch (err) {
      // A second Remove (a double click, another tab) finds nothing: say so rather than show a 404 page.
      if (err instanceof NotFound) return { ok: true, intent: "remove", message: MSG.save.alreadyRemoved };
      throw err;
    }
  });
}

export default function Saved() {
  const { saved } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as Removed | undefined;
  const navigation = useNavigation();
  const removing = navigation.state === "submitting" ? navigation.formData?.get("blogId") : null;

  return (
    <div className={containerClass({ width: "4xl", className: "py-10" })}>
      <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Saved</p>
      <h1 className="mt-1 text-3xl font-extrabold tracking-tight text-ink sm:text-4xl">Your reading list</h1>
      <p className="mt-2 text-gray-600" aria-live="polite">
        {`${saved.total} saved ${saved.total === 1 ? "post" : "posts"}, newest first.`}
      </p>

      {result?.ok ? (
        <p
          role="status"
          className="mt-6 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm font-medium text-green-800"
        >
          {result.message}
        </p>
      ) : null}

      <PagedList
        list={saved}
        as="ol"
        className="mt-6 flex flex-col gap-4"
        label="Saved posts"
        itemClassName="flex flex-col gap-4 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center"
        renderItem={(s) => (
          <>
            <Link to={postPath(s.blog)} className="group flex min-w-0 flex-1 items-center gap-4">
              <Image
                src={s.blog.image}
                alt=""
                width={128}
                height={72}
                sizes="128px"
                maxWidth={320}
                className="h-18 w-32 shrink-0 rounded-lg bg-gray-100 object-cover"
              />
              <span className="min-w-0">
                <span className="block text-xs font-semibold uppercase tracking-wide text-brand-700">
                  {s.blog.category}
                </span>
                <span className="mt-1 line-clamp-2 font-semibold leading-snug text-ink group-hover:text-brand-700">
                  {s.blog.title}
                </span>
                <span className="mt-0.5 block text-sm text-gray-600">By {s.blog.author_name}</span>
              </span>
            </Link>
            <Form method="post" className="shrink-0 self-end sm:self-center">
              <input type="hidden" name="intent" value="remove" />
              <input type="hidden" name="blogId" value={s.blog._id} />
              <button
                type="submit"
                disabled={removing === s.blog._id}
                aria-label={`Remove ${s.blog.title} from your reading list`}
                className={buttonClass({ tone: "secondary", size: "sm" })}
              >
                {removing === s.blog._id ? "Removing…" : "Remove"}
              </button>
            </Form>
          </>
        )}
        pagerLabel="Reading list pages"
        empty={
          <EmptyPage
            list={saved}
            className="mt-6"
            title="Nothing saved yet"
            text="Press Save on any post to keep it here for later."
            beyondText={`Your reading list has ${pageCount(saved.pages)}.`}
          >
            <Link to={saved.total > 0 ? "/saved" : "/allBlogs"} className={buttonClass({ className: "mt-6" })}>
              {saved.total > 0 ? "First page" : "Find something to read"}
            </Link>
          </EmptyPage>
        }
      />
    </div>
  );
}
