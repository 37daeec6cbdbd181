import { data } from "@remix-run/cloudflare";
import { normalizeDateTime } from "#worker/services/shared/datetime.ts";
import type { Blog } from "#worker/services/blogs/model.ts";
import { formatDate } from "./blog-text";
import { sameWallTime, withZone, zoneOf } from "./datetime";
import { redirectWithFlash } from "./flash.server";
import { handleForm, readForm } from "./forms.server";
import { MSG } from "./messages";
import { whatChanged } from "./what-changed";

/**
 * The changes a blog edit form asks for, as the blog service's update takes them (the image apart).
 * The date input shows minutes only: the same minute as stored means the field was left alone.
 */
export function blogChangesFrom(form: FormData, storedDateTime: string) {
  let dateTime = withZone(form.get("date_time"), form.get("tz"));
  if (sameWallTime(form.get("date_time"), form.get("tz"), storedDateTime)) dateTime = undefined;
  else if (dateTime && normalizeDateTime(dateTime)?.slice(0, 16) === storedDateTime.slice(0, 16)) dateTime = undefined;
  return {
    title: form.get("title"),
    category: form.get("category"),
    short_description: form.get("short_description"),
    blog_details: form.get("blog_details"),
    date_time: dateTime,
    status: form.get("status"),
    no_email: noEmailFrom(form),
    ...extraFieldsFrom(form),
  };
}

/** Tags, the SEO fields and the newsletter choice: a field the form did not carry is left out (kept as stored). */
export function extraFieldsFrom(form: FormData) {
  return {
    tags: form.get("tags") ?? undefined,
    meta_description: form.get("meta_description") ?? undefined,
    social_image: form.get("social_image") ?? undefined,
    seo_title: form.get("seo_title") ?? undefined,
    slug: form.get("slug") ?? undefined,
    newsletter_content: form.get("newsletter_content") ?? undefined,
    // Only an admin's form carries it (PostForm); the service refuses it from anyone else.
    newsletter_audience: form.get("newsletter_audience") ?? undefined,
    visibility: form.get("visibility") ?? undefined,
  };
}

/**
 * The cover a post form sends: the URL of the chosen file's earlier upload when the editor kept one
 * (`image_url`, app/lib/kept-cover.ts: it is the file now chosen, so the same bytes are not stored
 * twice), else the file itself.
 */
export function coverFrom(form: FormData): { url?: string; upload: FormDataEntryValue | null } {
  const kept = form.get("image_url");
  return typeof kept === "string" && kept.trim() ? { url: kept.trim(), upload: null } : { upload: form.get("image") };
}

/** The social image chosen as a file beside its URL field (PostExtraFields); stored as that URL. */
export const SOCIAL_IMAGE_FILE = "social_image_file";

/** "Don't email this post": ticked, unticked (the form offered it), or not offered (keep as stored). */
export function noEmailFrom(form: FormData): "on" | "off" | undefined {
  if (form.has("no_email")) return "on";
  return form.has("email_choice") ? "off" : undefined;
}

/** The toast after a save: the spec's text for posting or updating, ours for a draft or a schedule. */
export function savedTitle(status: FormDataEntryValue | null, otherwise: string = MSG.blog.posted): string {
  if (status === "draft") return MSG.blog.draftSaved;
  if (status === "scheduled") return MSG.blog.scheduled;
  if (status === "published") return MSG.blog.posted;
  return otherwise;
}

/**
 * What the "Scheduled" confirmation adds: when the post goes out, in the writer's own time (the zone the
 * form was read in), so a writer in Tokyo reads the time they typed, with its zone named.
 */
export function scheduledText(
  status: FormDataEntryValue | null,
  instant: string | undefined,
  tz: FormDataEntryValue | null,
) {
  if (status !== "scheduled" || !instant) return {};
  const iso = normalizeDateTime(instant);
  if (!iso) return {};
  const zone = zoneOf(tz);
  // A +hh:mm zone from an older form has no name to format in: UTC says the same instant.
  const when = formatDate(iso, true, zone.includes("/") || zone === "UTC" ? zone : "UTC");
  return { text: `It will be published on ${when}.` };
}

/**
 * The one body of the two blog edit actions (a writer's own post, any post for an admin), once the
 * caller has loaded the blog: parse the form, let the service save it (it checks the fields and the
 * schedule before it stores a new image), answer. No change answers `{modifiedCount: 0}` ("No Changes
 * Made!"); a change goes back to `back` with the spec's toast.
 */
export async function saveBlogEdit(
  request: Request,
  blog: Blog,
  save: (
    changes: Record<string, unknown>,
    upload: FormDataEntryValue | null,
    socialUpload: FormDataEntryValue | null,
  ) => Promise<{ modifiedCount: number }>,
  back: string,
) {
  const form = await readForm(request, "post");
  return handleForm(request, form, async () => {
    const cover = coverFrom(form);
    const input = { ...blogChangesFrom(form, blog.date_time), ...(cover.url ? { image: cover.url } : {}) };
    const { modifiedCount } = await save(input, cover.upload, form.get(SOCIAL_IMAGE_FILE));
    if (modifiedCount === 0) return data({ ok: true as const, modifiedCount });
    // What changed, and for a scheduled post when it goes out in the writer's own time.
    const when = scheduledText(input.status, input.date_time ?? blog.date_time, form.get("tz")).text;
    const text = [changedText(blog, input, cover.upload), when].filter(Boolean).join(" ");
    return redirectWithFlash(back, {
      kind: "toast",
      icon: "success",
      title: savedTitle(input.status, MSG.blog.updated),
      ...(text ? { text } : {}),
    });
  });
}

const BLOG_FIELD_WORDS: Record<string, string> = {
  title: "the title",
  category: "the category",
  short_description: "the short description",
  blog_details: "the details",
  date_time: "the date",
  tags: "the tags",
  seo_title: "the SEO title",
  meta_description: "the meta description",
  social_image: "the social image",
  slug: "the link",
  newsletter_content: "the newsletter choice",
  newsletter_audience: "who gets the newsletter",
  no_email: "the email choice",
};

const tagText = (tags: unknown) =>
  (Array.isArray(tags) ? tags : String(tags ?? "").split(","))
    .map((t) => String(t).trim())
    .filter(Boolean)
    .join(", ");

/** The confirmation's second line: what this edit changed ("Changed: the title and the cover image."). */
function changedText(
  blog: Blog,
  input: ReturnType<typeof blogChangesFrom> & { image?: string },
  upload: FormDataEntryValue | null,
): string {
  const before = {
    ...blog,
    slug: blog.custom_slug,
    tags: tagText(blog.tags),
    no_email: blog.email_subscribers ? "off" : "on",
  };
  const after = { ...input, tags: input.tags === undefined ? undefined : tagText(input.tags) };
  const newCover =
    (typeof upload === "object" && upload !== null && upload.size > 0) || (input.image && input.image !== blog.image);
  return whatChanged(before, after, BLOG_FIELD_WORDS, newCover ? ["the cover image"] : []);
}
