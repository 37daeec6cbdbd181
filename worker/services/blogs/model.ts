import type { schema } from "#worker/db.ts";
import { previewOf, type PostVisibility } from "#worker/services/blogs/gate.ts";
import type { BlogStatus } from "#worker/services/blogs/visible.ts";
import { slugFor } from "#worker/services/blogs/slug.ts";
import { tagsOf } from "#worker/services/blogs/tags.ts";

export type BlogRow = typeof schema.blogs.$inferSelect;

/** A post's newsletter choice: "" follows the site's default, "teaser" or "full" (the whole post) overrides it. */
export const NEWSLETTER_CONTENT_CHOICES = ["", "teaser", "full"] as const;
export type NewsletterContentChoice = (typeof NEWSLETTER_CONTENT_CHOICES)[number];
/** Who a post's newsletter goes to: "" the site's default, or an admin's choice for this post. */
export const NEWSLETTER_AUDIENCE_CHOICES = ["", "everyone", "free", "paid"] as const;
export type NewsletterAudienceChoice = (typeof NEWSLETTER_AUDIENCE_CHOICES)[number];

/** How many posts the home page's latest list shows. */
export const LATEST_BLOGS = 6;

/** A blog as the REST contract and the pages see it. */
export interface Blog {
  _id: string;
  /** Beyond the spec: the readable part of the post's link, /blogs/{_id}/{slug}: the custom slug, else made from the title. */
  slug: string;
  /** Beyond the spec: the slug the writer chose ("" when the link follows the title). */
  custom_slug: string;
  title: string;
  short_description: string;
  blog_details: string;
  category: string;
  author_name: string;
  /** Beyond the spec: the writer's user id, for the byline's link to /writers/{id}. */
  author_id: string;
  email: string;
  author_image: string | null;
  date_time: string;
  image: string;
  likes: number;
  /** Beyond the spec: "published", "draft" (its writer and admins only) or "scheduled" (a draft until publish_at). */
  status: BlogStatus;
  /** ISO 8601 time a scheduled post goes public; null otherwise. */
  publish_at: string | null;
  /** Beyond the spec: false when the writer ticked "Don't email this post". */
  email_subscribers: boolean;
  /** Beyond the spec: up to five free tags beside the category, as the writer spelled them ("Web Performance"). */
  tags: string[];
  /** Beyond the spec: the optional meta description and share image ("" when not set). */
  meta_description: string;
  social_image: string;
  /** Beyond the spec: the optional SEO title (<title>, og:title, JSON-LD headline; "" when not set). */
  seo_title: string;
  /** Beyond the spec: what its newsletter mail carries: "" the site's default, "teaser" or "full" (the whole post). */
  newsletter_content: NewsletterContentChoice;
  /** Beyond the spec: who its newsletter goes to (an admin's choice): "" the site's default, "everyone", "free", "paid". */
  newsletter_audience: NewsletterAudienceChoice;
  /** Beyond the spec: an admin chose it for the home page's Featured Blogs. */
  featured: boolean;
  /** Beyond the spec: when the post was last saved (ISO 8601); the editor's local draft compares it. */
  updated_at: string;
  /** Beyond the spec: who reads it in full: "public", "members" (signed in) or "paid" (paid and comped members). */
  visibility: PostVisibility;
  /** Beyond the spec: false when `blog_details` is only the preview (this reader may not read the rest). */
  access: boolean;
}

/** Just enough of a blog to draw its card: the blog lists and the saved lists. */
export type BlogSummary = Pick<Blog, "_id" | "title" | "image" | "category" | "author_name" | "short_description"> &
  Partial<Pick<Blog, "status" | "publish_at" | "author_id" | "tags" | "slug">>;

/**
 * A blog as the public reading pages get it (home, all blogs, search, a post, related posts, a
 * writer's page): the REST record without the writer's email. The pages show none, and their loader
 * data goes out in the HTML and the .data answers, so they must not carry it (decision 026).
 * The REST API keeps `email` (the spec's contract); signed-in dashboards use `Blog`.
 */
export type PublicBlog = Omit<Blog, "email">;

export function toPublicCard<T extends Blog>(blog: T): Omit<T, "email"> {
  const { email: _email, ...card } = blog;
  return card;
}

/**
 * A row as the contract carries it. Gated unless told otherwise: a post that is not public carries only its
 * preview unless the caller proved this reader's access (`readsInFull` in visible.ts) or is its editor.
 */
export function toBlog(row: BlogRow, access = row.visibility === "public"): Blog {
  return {
    _id: row.id,
    slug: slugFor(row),
    custom_slug: row.slug,
    title: row.title,
    short_description: row.shortDescription,
    blog_details: access ? row.blogDetails : previewOf(row),
    category: row.category,
    author_name: row.authorName,
    author_id: row.authorId,
    email: row.email,
    author_image: row.authorImage,
    date_time: row.dateTime,
    image: row.image,
    likes: row.likes,
    status: row.status,
    publish_at: row.publishAt === null ? null : new Date(row.publishAt).toISOString(),
    email_subscribers: row.emailSubscribers,
    tags: tagsOf(row.tags),
    meta_description: row.metaDescription,
    social_image: row.socialImage,
    seo_title: row.seoTitle,
    newsletter_content: row.newsletterContent,
    newsletter_audience: row.newsletterAudience,
    featured: row.featuredAt !== null,
    updated_at: new Date(row.updatedAt || 0).toISOString(),
    visibility: row.visibility,
    access,
  };
}
