import { z } from "zod";
import { CATEGORIES } from "#worker/services/categories.ts";
import { normalizeDateTime } from "#worker/services/shared/datetime.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import {
  LIMITS,
  emailField,
  optionalText,
  optionalUrl,
  requiredText,
  requiredUrl,
} from "#worker/services/shared/validation.ts";
import {
  BLOG_STATUSES,
  POST_VISIBILITIES,
  type BlogStatus,
  type PostVisibility,
} from "#worker/services/blogs/visible.ts";
import { tagsField } from "#worker/services/blogs/tags.ts";
import { SLUG_MAX, SLUG_RULE, isChosenSlug } from "#worker/services/blogs/slug.ts";
import {
  NEWSLETTER_AUDIENCE_CHOICES,
  NEWSLETTER_CONTENT_CHOICES,
  type NewsletterAudienceChoice,
  type NewsletterContentChoice,
} from "#worker/services/blogs/model.ts";

const nullToUndefined = (v: unknown) => (v === null ? undefined : v);

/**
 * Tags and the optional SEO fields, the same on a create and an update (blank clears them). A chosen
 * slug is kept in Unicode's composed form (NFC), so one word has one spelling in the unique index.
 */
const extraFields = {
  seo_title: z.preprocess(
    nullToUndefined,
    z
      .string({ error: "SEO title must be text." })
      .trim()
      .max(LIMITS.seoTitle, { error: `SEO title must be at most ${LIMITS.seoTitle} characters.` })
      .optional(),
  ),
  slug: z.preprocess(
    nullToUndefined,
    z
      .string({ error: "Slug must be text." })
      .trim()
      .transform((v) => v.normalize("NFC"))
      .pipe(
        z
          .string()
          .max(SLUG_MAX, { error: `Slug must be at most ${SLUG_MAX} characters.` })
          .refine((v) => v === "" || isChosenSlug(v), { error: SLUG_RULE }),
      )
      .optional(),
  ),
  tags: tagsField,
  // Who reads it in full (worker/services/blogs/visible.ts): "public", "members" or "paid".
  visibility: z.preprocess(
    (v) => (v === null || v === "" ? undefined : v),
    z.enum(POST_VISIBILITIES, { error: 'Visibility must be one of: "public", "members", "paid".' }).optional(),
  ),
  // What the newsletter mail carries: "" the site's default, "teaser" or "full" (the whole post).
  newsletter_content: z.preprocess(
    nullToUndefined,
    z
      .enum(NEWSLETTER_CONTENT_CHOICES, {
        error: `In the newsletter must be one of: ${NEWSLETTER_CONTENT_CHOICES.map((c) => `"${c}"`).join(", ")}.`,
      })
      .optional(),
  ),
  // Who the newsletter mails it to (an admin's choice, checked in writing.ts): "" the site's default.
  newsletter_audience: z.preprocess(
    nullToUndefined,
    z
      .enum(NEWSLETTER_AUDIENCE_CHOICES, {
        error: `Send the newsletter to must be one of: ${NEWSLETTER_AUDIENCE_CHOICES.map((c) => `"${c}"`).join(", ")}.`,
      })
      .optional(),
  ),
  meta_description: z.preprocess(
    (v) => (v === null ? undefined : v),
    z
      .string({ error: "Meta description must be text." })
      .trim()
      .max(LIMITS.metaDescription, { error: `Meta description must be at most ${LIMITS.metaDescription} characters.` })
      .optional(),
  ),
  social_image: z.preprocess(
    (v) => (v === null ? undefined : v),
    z.union([z.literal(""), optionalUrl("Social image")]).optional(),
  ),
};

const blankToUndefined = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);

const categoryField = z.enum(CATEGORIES, {
  error: (issue) =>
    issue.input === undefined ? "Category is required." : `Category must be one of: ${CATEGORIES.join(", ")}.`,
});

/** Optional everywhere: a create without it publishes (the spec's path), an update without it keeps the status. */
const statusField = z.preprocess(
  blankToUndefined,
  z.enum(BLOG_STATUSES, { error: `Status must be one of: ${BLOG_STATUSES.join(", ")}.` }).optional(),
);

/** The writer's "Don't email this post": a checkbox ("on"), or true/false from the REST API. */
const noEmailField = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === "") return undefined;
    if (v === true || v === "on" || v === "true" || v === "1") return true;
    if (v === false || v === "off" || v === "false" || v === "0") return false;
    return v;
  },
  z.boolean({ error: "Don't email this post must be true or false." }).optional(),
);

const dateTimeField = z
  .string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? "Date and time is required." : "Date and time must be text.",
  })
  .trim()
  .min(1, { error: "Date and time is required." })
  .max(40, { error: "Date and time must be a date and time like 2026-11-21T10:30." })
  .transform((value, ctx) => {
    const iso = normalizeDateTime(value);
    if (!iso) {
      ctx.addIssue({ code: "custom", message: "Date and time must be a date and time like 2026-11-21T10:30." });
      return z.NEVER;
    }
    return iso;
  });

export const SCHEDULE_IN_PAST = "To schedule a post, set its date and time in the future.";

/**
 * Who may read a post after this save: published now, a draft, or scheduled for its own date and time
 * (which must still be ahead).
 */
export function publication(
  status: BlogStatus,
  dateTime: string,
  now = Date.now(),
): { status: BlogStatus; publishAt: number | null } {
  if (status !== "scheduled") return { status, publishAt: null };
  const at = Date.parse(dateTime);
  if (!(at > now)) throw new ValidationError({ date_time: SCHEDULE_IN_PAST }, SCHEDULE_IN_PAST, "schedule-in-past");
  return { status, publishAt: at };
}

/**
 * What a writer sends. Author name, email, picture and likes are not here on purpose: they come
 * from the session (and new blogs start at 0 likes), so whatever the form says about them is dropped.
 */
export const newBlogInput = z.object({
  title: requiredText("Title", LIMITS.title),
  short_description: requiredText("Short description", LIMITS.shortDescription),
  blog_details: requiredText("Blog details", LIMITS.blogDetails),
  category: z.preprocess(blankToUndefined, categoryField),
  date_time: dateTimeField,
  image: requiredUrl("Image"),
  status: statusField,
  no_email: noEmailField,
  ...extraFields,
});

/** The status a write asks for, read before the rest so a draft is checked by the draft's schema. */
export function requestedStatus(input: unknown): BlogStatus | undefined {
  const status = (input as Record<string, unknown> | null)?.status;
  return typeof status === "string" && (BLOG_STATUSES as readonly string[]).includes(status.trim())
    ? (status.trim() as BlogStatus)
    : undefined;
}

export const INCOMPLETE_POST = "A draft needs only a title; to publish or schedule a post, fill in every field.";

/**
 * What a post must have before readers see it (published or scheduled): the spec's fields. A draft saved
 * with only a title is refused here when it is published, with the field errors of the missing ones.
 */
export function requireComplete(
  stored: { category: string; shortDescription: string; blogDetails: string; image: string },
  changes: { category?: string; short_description?: string; blog_details?: string; image?: string } = {},
  uploading = false,
): void {
  const fields: Record<string, string> = {};
  if (!(changes.category ?? stored.category).trim()) fields.category = "Category is required.";
  if (!(changes.short_description ?? stored.shortDescription).trim())
    fields.short_description = "Short description is required.";
  if (!(changes.blog_details ?? stored.blogDetails).trim()) fields.blog_details = "Blog details is required.";
  if (!uploading && !(changes.image ?? stored.image).trim()) fields.image = "Image is required.";
  if (Object.keys(fields).length) throw new ValidationError(fields, INCOMPLETE_POST, "incomplete-post");
}

/** Updates: every field optional, and an empty one keeps the stored value (spec section 5). */
export const blogChangesInput = z.object({
  title: optionalText("Title", LIMITS.title),
  short_description: optionalText("Short description", LIMITS.shortDescription),
  blog_details: optionalText("Blog details", LIMITS.blogDetails),
  category: z.preprocess(blankToUndefined, categoryField.optional()),
  date_time: z.preprocess(blankToUndefined, dateTimeField.optional()),
  image: optionalUrl("Image"),
  status: statusField,
  no_email: noEmailField,
  ...extraFields,
});

/**
 * A draft: only the title is needed; everything else may wait until the post is published
 * or scheduled (then `requireComplete` asks for it). A missing date and time is the moment of saving.
 */
export const newDraftInput = blogChangesInput.extend({ title: requiredText("Title", LIMITS.title) });

/** The columns of the extra fields a write sent (a missing one is left out, so an update keeps it). */
export function extraColumns(data: {
  tags?: string[] | undefined;
  meta_description?: string | undefined;
  social_image?: string | undefined;
  seo_title?: string | undefined;
  slug?: string | undefined;
  newsletter_content?: NewsletterContentChoice | undefined;
  newsletter_audience?: NewsletterAudienceChoice | undefined;
  visibility?: PostVisibility | undefined;
}): {
  tags?: string;
  metaDescription?: string;
  socialImage?: string;
  seoTitle?: string;
  slug?: string;
  newsletterContent?: NewsletterContentChoice;
  newsletterAudience?: NewsletterAudienceChoice;
  visibility?: PostVisibility;
} {
  return {
    ...(data.visibility === undefined ? {} : { visibility: data.visibility }),
    ...(data.newsletter_content === undefined ? {} : { newsletterContent: data.newsletter_content }),
    ...(data.newsletter_audience === undefined ? {} : { newsletterAudience: data.newsletter_audience }),
    ...(data.seo_title === undefined ? {} : { seoTitle: data.seo_title }),
    ...(data.slug === undefined ? {} : { slug: data.slug }),
    ...(data.tags === undefined ? {} : { tags: data.tags.join(",") }),
    ...(data.meta_description === undefined ? {} : { metaDescription: data.meta_description }),
    ...(data.social_image === undefined ? {} : { socialImage: data.social_image }),
  };
}

export const byEmailInput = z.object({ email: emailField() });
