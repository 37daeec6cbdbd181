import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
  type AnySQLiteColumn,
} from "drizzle-orm/sqlite-core";

// Timestamps are Unix milliseconds: sortable, compact and free of time-zone parsing.
const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const createdAt = () => integer("created_at").notNull().default(now);
const updatedAt = () => integer("updated_at").notNull().default(now);

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    // Stored lower-cased so that uniqueness and look-ups are case-insensitive.
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    googleSub: text("google_sub"),
    photoUrl: text("photo_url"),
    role: text("role", { enum: ["user", "admin"] })
      .notNull()
      .default("user"),
    // When the person proved they read mail at this address (a link from /verify-email, or Google's
    // verified email); null until then. ADMIN_EMAILS grants admin only once it is set.
    emailVerifiedAt: integer("email_verified_at"),
    // The address a writer chose to show the public (lower-cased), "" by default: public answers carry
    // it in place of the sign-in address (docs/decisions/048-public-contact-address.md).
    contactEmail: text("contact_email").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    uniqueIndex("users_google_sub_unique").on(t.googleSub),
    index("users_role_idx").on(t.role),
    // The image cleanup asks whether an image is still someone's photo (image-cleanup.ts).
    index("users_photo_idx").on(t.photoUrl),
    // Manage Users and GET /api/users list accounts in the order they joined, a page at a time.
    index("users_created_idx").on(t.createdAt, t.id),
    // GET /api/blog?email= finds a writer by their public contact address; most have none.
    index("users_contact_email_idx")
      .on(t.contactEmail)
      .where(sql`contact_email != ''`),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The absolute end: the session never lives past it, however active. */
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
    /** Last request seen (touched at most once a minute); idle past the timeout, the session is over. */
    // Null only for sessions older than this column (their created_at stands in; SQLite cannot add a
    // column whose default is an expression).
    lastSeenAt: integer("last_seen_at"),
    /** For the "signed-in sessions" list: the browser and where it signed in from (request.cf, when present). */
    userAgent: text("user_agent"),
    country: text("country"),
    city: text("city"),
    colo: text("colo"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

export const profiles = sqliteTable(
  "profiles",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    bio: text("bio").notNull().default(""),
    designation: text("designation").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("profiles_user_unique").on(t.userId), index("profiles_email_idx").on(t.email)],
);

export const blogs = sqliteTable(
  "blogs",
  {
    id: text("id").primaryKey(),
    authorId: text("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    shortDescription: text("short_description").notNull(),
    blogDetails: text("blog_details").notNull(),
    category: text("category").notNull(),
    authorName: text("author_name").notNull(),
    // The author's email as the spec's contract carries it (lower-cased).
    email: text("email").notNull(),
    authorImage: text("author_image"),
    // ISO 8601 date and time as the writer set it; it orders "latest".
    dateTime: text("date_time").notNull(),
    image: text("image").notNull(),
    likes: integer("likes").notNull().default(0),
    // Who may read it: "published" (everyone), "draft" (its writer and admins), "scheduled" (like a
    // draft until publish_at, then like published). worker/services/blogs/visible.ts is the one reader of these.
    status: text("status", { enum: ["draft", "scheduled", "published"] })
      .notNull()
      .default("published"),
    // When a scheduled post goes public (epoch ms); null otherwise.
    publishAt: integer("publish_at"),
    // The writer's "Don't email this post": false keeps it out of the newsletter.
    emailSubscribers: integer("email_subscribers", { mode: "boolean" }).notNull().default(true),
    // Up to five free tags beside the category as the writer spelled them, comma-joined ("Web
    // Performance,café"): what cards and the post show. blog_tags holds the same tags one row each (by
    // slug, with the spelling), for the tag pages. Tags written before 0025 are spelled as their slugs.
    tags: text("tags").notNull().default(""),
    // Optional SEO fields: the meta description and share image; empty falls back to the
    // short description and the cover.
    metaDescription: text("meta_description").notNull().default(""),
    socialImage: text("social_image").notNull().default(""),
    // The writer's SEO title (<title>, og:title, JSON-LD headline); empty: the title.
    seoTitle: text("seo_title").notNull().default(""),
    // The writer's chosen slug (the readable link's tail); empty: computed from the title
    // (worker/services/blogs/slug.ts). Unique among posts when set (blogs_slug_unique).
    slug: text("slug").notNull().default(""),
    // What the newsletter mail of this post carries: "" the site's default (site_settings
    // newsletter_content), "teaser" (title, description, a link) or "full" (the whole post).
    newsletterContent: text("newsletter_content", { enum: ["", "teaser", "full"] })
      .notNull()
      .default(""),
    // Who the newsletter mails this post to (an admin's choice, issue 46): "" the site's default (site_settings
    // newsletter_audience), "everyone", "free" (every subscriber but paid and comped members) or "paid" (those).
    newsletterAudience: text("newsletter_audience", { enum: ["", "everyone", "free", "paid"] })
      .notNull()
      .default(""),
    // An admin's pick for the home page's Featured Blogs: when it was chosen (epoch ms), null
    // when it is not. Home shows the newest visible picks through the visible-blogs rule.
    featuredAt: integer("featured_at"),
    // Who may read the whole post (worker/services/blogs/gate.ts): "public" everyone; "members" any
    // signed-in account; "paid" paid and comped members. Others get the preview (up to <!--members-only-->).
    visibility: text("visibility", { enum: ["public", "members", "paid"] })
      .notNull()
      .default("public"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Every list of blogs reads newest first (date_time, created_at, id: visible-blogs.ts's newestFirst),
  // filtered by who may read (status, publish_at), in all, per writer, per email or per category. Each
  // index below ends in exactly those columns, so a page is a range of one index and its total is
  // counted on it without reading a row (docs/decisions/023-pagination-at-scale.md). likes rides along
  // so the Stats totals sum it from the index too.
  (t) => [
    index("blogs_newest_idx").on(t.dateTime, t.createdAt, t.id, t.status, t.publishAt, t.likes),
    index("blogs_author_newest_idx").on(t.authorId, t.dateTime, t.createdAt, t.id, t.status, t.publishAt, t.likes),
    index("blogs_email_newest_idx").on(t.email, t.dateTime, t.createdAt, t.id, t.status, t.publishAt),
    index("blogs_category_newest_idx").on(t.category, t.dateTime, t.createdAt, t.id, t.status, t.publishAt),
    // The scheduled publisher's queue: only scheduled posts are in it (a partial index), so it never
    // competes with the lists' indexes for "status = 'published'".
    // The image cleanup asks whether an image is still a cover or a writer's picture (image-cleanup.ts).
    index("blogs_image_idx").on(t.image),
    index("blogs_author_image_idx").on(t.authorImage),
    // ... or a post's social image (an upload of the editor's own, or a pasted link).
    index("blogs_social_image_idx").on(t.socialImage),
    index("blogs_scheduled_idx")
      .on(t.publishAt)
      .where(sql`status = 'scheduled'`),
    // The home page's featured posts: only picked posts are in it, newest first like every list.
    index("blogs_featured_idx")
      .on(t.dateTime, t.createdAt, t.id, t.status, t.publishAt)
      .where(sql`featured_at is not null`),
    // The posts the public may not read (drafts, scheduled): full-text search leaves these out
    // (visible-blogs.ts hiddenBlogRowids) instead of reading each match's row to test the rule.
    index("blogs_hidden_idx")
      .on(t.status, t.publishAt)
      .where(sql`status <> 'published'`),
    // Members' and paid posts: their gated text is not in the search indexes (migration 0034), so the image
    // sweep looks for an image in it here, among the few gated posts only.
    index("blogs_gated_idx")
      .on(t.visibility)
      .where(sql`visibility <> 'public'`),
    // A chosen slug belongs to one post; posts without one (the empty default) are not in the index.
    uniqueIndex("blogs_slug_unique")
      .on(t.slug)
      .where(sql`slug <> ''`),
  ],
);

/**
 * A post's tags, one row per tag: /tags/{tag}, its RSS and /allBlogs?tag= read the posts of a
 * tag through the primary key (tag first); the blog_id index serves the rewrite of a post's tags and the
 * cascade. Written in the same D1 batch as blogs.tags (worker/services/blogs/tags.ts). Triggers keep
 * each tag's totals in blog_counts (scope 'tag', migration 0025) for /tags.
 */
export const blogTags = sqliteTable(
  "blog_tags",
  {
    // The tag's slug ("web-performance", "café"): its identity (worker/services/blogs/slug.ts tagSlug).
    tag: text("tag").notNull(),
    blogId: text("blog_id")
      .notNull()
      .references(() => blogs.id, { onDelete: "cascade" }),
    // How this post spells it ("Web Performance"); a tag's pages show its visible posts' usual spelling.
    // Backfilled with the slug for the tags written before (they had no other spelling).
    name: text("name").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.tag, t.blogId] }), index("blog_tags_blog_idx").on(t.blogId)],
);

/**
 * A post's earlier versions: every save keeps the version it replaces (who saved the change and when),
 * and a restore is itself a save. Deleting the post deletes its history (cascade).
 */
export const blogRevisions = sqliteTable(
  "blog_revisions",
  {
    id: text("id").primaryKey(),
    blogId: text("blog_id")
      .notNull()
      .references(() => blogs.id, { onDelete: "cascade" }),
    // Who made the save that replaced this version; null once that account is deleted.
    savedBy: text("saved_by").references(() => users.id, { onDelete: "set null" }),
    savedByName: text("saved_by_name").notNull(),
    title: text("title").notNull(),
    shortDescription: text("short_description").notNull(),
    blogDetails: text("blog_details").notNull(),
    category: text("category").notNull(),
    image: text("image").notNull(),
    // Tags and the SEO fields as that version had them (columns of blogs, same spellings).
    tags: text("tags").notNull().default(""),
    metaDescription: text("meta_description").notNull().default(""),
    socialImage: text("social_image").notNull().default(""),
    seoTitle: text("seo_title").notNull().default(""),
    slug: text("slug").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [index("blog_revisions_blog_idx").on(t.blogId, t.createdAt), index("blog_revisions_image_idx").on(t.image)],
);

/**
 * The text a writer is typing on Write Blogs, kept on the server so another device of theirs can offer
 * it back (worker/services/blogs/autosave.ts): one per account, read by nobody else, never a post, so
 * the visible-blogs rule never sees it. `cover` is the URL of the cover already uploaded for it.
 */
export const postAutosaves = sqliteTable(
  "post_autosaves",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    // JSON: the form's words by field name (title, category, short_description, ...).
    fields: text("fields").notNull().default("{}"),
    cover: text("cover").notNull().default(""),
    updatedAt: updatedAt(),
  },
  // The image cleanup asks whether an upload is a kept draft's cover (worker/services/images/cleanup.ts).
  (t) => [index("post_autosaves_cover_idx").on(t.cover)],
);

export const savedBlogs = sqliteTable(
  "saved_blogs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blogId: text("blog_id")
      .notNull()
      .references(() => blogs.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("saved_blogs_user_blog_unique").on(t.userId, t.blogId),
    index("saved_blogs_user_created_idx").on(t.userId, t.createdAt),
    // A post's saves (the Stats page) and the cascade when a post is deleted.
    index("saved_blogs_blog_idx").on(t.blogId),
  ],
);

export const reviews = sqliteTable(
  "reviews",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    designation: text("designation").notNull(),
    rating: real("rating").notNull().default(0),
    review: text("review").notNull(),
    image: text("image").notNull(),
    // Admin approval: a new review waits as "pending"; only "approved" ones reach the home
    // page; "hidden" keeps a review out without deleting it. Rows from before approval existed were
    // made "approved" by their migration.
    status: text("status", { enum: ["pending", "approved", "hidden"] })
      .notNull()
      .default("pending"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("reviews_created_idx").on(t.createdAt), index("reviews_status_created_idx").on(t.status, t.createdAt)],
);

export const authors = sqliteTable(
  "authors",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    bio: text("bio").notNull(),
    img: text("img").notNull(),
    twitter: text("twitter"),
    linkedin: text("linkedin"),
    github: text("github"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("authors_created_idx").on(t.createdAt)],
);

export const contactMessages = sqliteTable(
  "contact_messages",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull().default(""),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("contact_messages_created_idx").on(t.createdAt)],
);

/**
 * Newsletter subscribers, with double opt-in (docs/decisions/024-newsletter-fan-out.md): an address is
 * "pending" until its confirmation link is opened, "confirmed" from then on (only these get posts), and
 * "unsubscribed" after its one-click link. Rows are kept after unsubscribing, so a post already sent is
 * never sent again if the address comes back.
 */
export const newsletterSubscriptions = sqliteTable(
  "newsletter_subscriptions",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    state: text("state", { enum: ["pending", "confirmed", "unsubscribed"] })
      .notNull()
      .default("pending"),
    confirmedAt: integer("confirmed_at"),
    unsubscribedAt: integer("unsubscribed_at"),
    // The post the subscriber came from (the form was reached from it): the analytics' "subscribers gained".
    sourceBlogId: text("source_blog_id").references((): AnySQLiteColumn => blogs.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("newsletter_email_unique").on(t.email),
    index("newsletter_source_blog_idx").on(t.sourceBlogId, t.state),
    index("newsletter_state_id_idx").on(t.state, t.id),
    index("newsletter_created_idx").on(t.createdAt),
  ],
);

/**
 * One row per post that went out to the newsletter: written once, the first time the post becomes public
 * with mailing on, so editing or republishing it never sends it again.
 */
export const newsletterSends = sqliteTable("newsletter_sends", {
  blogId: text("blog_id")
    .primaryKey()
    .references(() => blogs.id, { onDelete: "cascade" }),
  title: text("title").notNull(),
  // Who it went to, fixed when the send started: "everyone", "free" or "paid" (the post's choice, else the site's).
  audience: text("audience", { enum: ["everyone", "free", "paid"] })
    .notNull()
    .default("everyone"),
  // The fan-out walked the whole list.
  completedAt: integer("completed_at"),
  createdAt: createdAt(),
});

/**
 * One row per post and subscriber: the primary key is the idempotency key of the fan-out. A queue
 * batch delivered twice finds the row already claimed (outbox_id set) and sends nothing.
 */
export const newsletterDeliveries = sqliteTable(
  "newsletter_deliveries",
  {
    blogId: text("blog_id")
      .notNull()
      .references(() => blogs.id, { onDelete: "cascade" }),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => newsletterSubscriptions.id, { onDelete: "cascade" }),
    // The outbox message written for it; null while queued.
    outboxId: text("outbox_id"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blogId, t.subscriptionId] }),
    index("newsletter_deliveries_outbox_idx").on(t.outboxId),
  ],
);

export const blogLikes = sqliteTable(
  "blog_likes",
  {
    blogId: text("blog_id")
      .notNull()
      .references(() => blogs.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blogId, t.userId] }), index("blog_likes_user_idx").on(t.userId)],
);

export const comments = sqliteTable(
  "comments",
  {
    id: text("id").primaryKey(),
    blogId: text("blog_id")
      .notNull()
      .references(() => blogs.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    // A reply names the top comment it answers (one level: a reply to a reply names the same top
    // comment). Deleting a comment deletes its replies.
    parentId: text("parent_id").references((): AnySQLiteColumn => comments.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("comments_blog_created_idx").on(t.blogId, t.createdAt),
    index("comments_user_idx").on(t.userId),
    index("comments_parent_created_idx").on(t.parentId, t.createdAt),
  ],
);

// One report per person per comment (a second report is the same row, with the latest reason). Admins
// see the reported comments at /dashboard/comments; "keep" deletes a comment's reports, "delete" the
// comment; the reporter may withdraw theirs. Reports from before reasons existed read as "other".
export const commentReports = sqliteTable(
  "comment_reports",
  {
    commentId: text("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    reason: text("reason", { enum: ["spam", "abuse", "other"] })
      .notNull()
      .default("other"),
    // The reporter's own short words, only with the reason "other" (LIMITS.reportNote).
    note: text("note"),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.userId] }),
    index("comment_reports_created_idx").on(t.createdAt),
    index("comment_reports_user_idx").on(t.userId),
  ],
);

// Every object written to R2 through the upload endpoint, so expiry and ownership live in D1.
export const images = sqliteTable(
  "images",
  {
    key: text("key").primaryKey(),
    ownerId: text("owner_id").references(() => users.id, { onDelete: "set null" }),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    expiresAt: integer("expires_at"),
    createdAt: createdAt(),
  },
  (t) => [index("images_expires_idx").on(t.expiresAt)],
);

// Fixed-window counters for rate limiting (login attempts, uploads, messages).
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
});

// The local edge cache's tag index (worker/cache/edge.ts): which cached URL carries which tag, so a
// purge by tag can find the copies to delete. Production's Workers Cache keeps its own tags instead.
export const cacheTags = sqliteTable(
  "cache_tags",
  {
    tag: text("tag").notNull(),
    url: text("url").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tag, t.url] }), index("cache_tags_url_idx").on(t.url)],
);

// Views per post and UTC day (YYYY-MM-DD), flushed in batches by the view counters (worker/views/counter.ts,
// docs/decisions/014). Only counts live here: no reader identity is ever stored in D1.
export const blogViewsDaily = sqliteTable(
  "blog_views_daily",
  {
    blogId: text("blog_id")
      .notNull()
      .references(() => blogs.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    views: integer("views").notNull().default(0),
  },
  // (day, views): the site's chart and totals sum views from the index alone.
  (t) => [primaryKey({ columns: [t.blogId, t.day] }), index("blog_views_daily_day_idx").on(t.day, t.views)],
);

/**
 * Single-use links mailed to a person (verify an email, reset a password, confirm a new email):
 * only the SHA-256 of the token is kept, so a copy of the database opens no account
 * (worker/services/accounts/tokens.ts). `redemption` names the one redeeming request.
 */
export const accountTokens = sqliteTable(
  "account_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // JSON the link carries for its kind (the new address of an email change, say).
    data: text("data").notNull().default("{}"),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    redemption: text("redemption"),
    createdAt: createdAt(),
  },
  (t) => [
    index("account_tokens_user_kind_idx").on(t.userId, t.kind),
    index("account_tokens_expires_idx").on(t.expiresAt),
  ],
);

/**
 * Every message the site sends, written in the same batch as the change that causes it and sent by
 * worker/services/mail/mailer.ts. A failed send stays here with its attempts and last error until
 * the minute cron's retry (with backoff) gets it out; once sent, its body is dropped.
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    // Which template made it (verify-email, password-reset, ...): for the logs and the tests.
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    // JSON object of extra headers (List-Unsubscribe on newsletter mail); "{}" for most messages.
    headers: text("headers").notNull().default("{}"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    // When the next try may run; a message sent or given up on keeps its last value.
    nextAttemptAt: integer("next_attempt_at").notNull(),
    // A message that only makes sense for a while (a link that expires) is not sent after this.
    expiresAt: integer("expires_at"),
    sentAt: integer("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_due_idx").on(t.sentAt, t.nextAttemptAt)],
);

/**
 * Passkeys (WebAuthn credentials) a person registered in /settings. The credential id is the key
 * (base64url, as the authenticator gave it); the public key is stored base64url too. Deleting the
 * account deletes its passkeys (cascade).
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    // JSON array of the authenticator's transports (usb, internal, hybrid...), a hint for the browser.
    transports: text("transports").notNull().default("[]"),
    deviceType: text("device_type").notNull().default("singleDevice"),
    backedUp: integer("backed_up", { mode: "boolean" }).notNull().default(false),
    lastUsedAt: integer("last_used_at"),
    // When the account's address was proven, as it stood when this passkey was added; null for one added
    // before any proof (only possible before passkeys required a verified address). A password reset, an
    // email change and "sign out everywhere" remove those: whoever squatted an address cannot keep one.
    addressProvenAt: integer("address_proven_at"),
    // The very address that was proven then. A passkey signs in only while the account still has it, and a
    // password reset, an email change and "sign out everywhere" remove every passkey proven for another
    // address (or none): an address change must not carry a way in from the old owner to the new one.
    provenEmail: text("proven_email"),
    createdAt: createdAt(),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

/**
 * WebAuthn challenges, kept on the server: each is good for one ceremony (deleted as it is used) and
 * for a few minutes. A registration challenge belongs to the account that asked for it; a sign-in
 * challenge to nobody yet.
 */
export const webauthnChallenges = sqliteTable(
  "webauthn_challenges",
  {
    challenge: text("challenge").primaryKey(),
    kind: text("kind", { enum: ["register", "authenticate"] }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webauthn_challenges_expires_idx").on(t.expiresAt)],
);

/*
 * ActivityPub federation (docs/decisions/032-activitypub-federation.md). The site and each
 * writer are actors; remote servers follow them, reply to their posts and like them.
 */

/**
 * The local actors: each writer (id = the user's id) and the site (id "site"). The handle is unique and
 * lower-cased (the `@handle@host` of WebFinger); the key pair signs every delivery (RSA-SHA256). Made
 * on first need (the writer page, /settings, a publish).
 */
export const apActors = sqliteTable(
  "ap_actors",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    handle: text("handle").notNull(),
    publicKeyPem: text("public_key_pem").notNull(),
    // PKCS#8, PEM: never leaves the Worker.
    privateKeyPem: text("private_key_pem").notNull(),
    // The Ed25519 pair of the actor's `assertionMethod` (a Multikey) that signs object integrity proofs
    // (FEP-8b32); made on first need for actors that predate it.
    edPublicMultibase: text("ed_public_multibase"),
    edPrivateKeyPem: text("ed_private_key_pem"),
    createdAt: createdAt(),
    // A writer whose account was deleted: the row stays (user_id cleared) to sign the Delete sent to
    // their followers; the actor URL then answers 410 Gone and the handle stays reserved.
    deletedAt: integer("deleted_at"),
  },
  (t) => [uniqueIndex("ap_actors_handle_unique").on(t.handle), uniqueIndex("ap_actors_user_unique").on(t.userId)],
);

/**
 * Remote actors we have seen (a follower, a commenter, a signer): their inboxes and public key, fetched
 * with a timeout and a size cap (worker/services/federation/remote.ts) and refreshed when stale.
 */
export const apRemoteActors = sqliteTable(
  "ap_remote_actors",
  {
    id: text("id").primaryKey(),
    host: text("host").notNull(),
    handle: text("handle").notNull().default(""),
    name: text("name").notNull().default(""),
    iconUrl: text("icon_url"),
    profileUrl: text("profile_url"),
    inbox: text("inbox").notNull(),
    sharedInbox: text("shared_inbox"),
    keyId: text("key_id").notNull(),
    publicKeyPem: text("public_key_pem").notNull(),
    // Its Ed25519 `assertionMethod` Multikey, when it publishes one (proofs, RFC 9421 ed25519).
    assertionKeyId: text("assertion_key_id"),
    assertionMultibase: text("assertion_multibase"),
    // The accounts it says it also is (`alsoKnownAs`, JSON array): a Move is believed only toward one.
    alsoKnownAs: text("also_known_as"),
    // Its followers collection: a post addressed to it (and not to the public) is followers-only.
    followersUrl: text("followers_url"),
    fetchedAt: integer("fetched_at").notNull(),
  },
  (t) => [uniqueIndex("ap_remote_actors_key_unique").on(t.keyId), index("ap_remote_actors_host_idx").on(t.host)],
);

/**
 * Every key a remote actor publishes (`publicKey` may list several): a delivery signed with any of them
 * verifies from D1, so a gone actor's Delete is believed whichever key signed it.
 */
export const apRemoteKeys = sqliteTable(
  "ap_remote_keys",
  {
    keyId: text("key_id").primaryKey(),
    actorId: text("actor_id")
      .notNull()
      .references(() => apRemoteActors.id, { onDelete: "cascade" }),
    publicKeyPem: text("public_key_pem").notNull(),
  },
  (t) => [index("ap_remote_keys_actor_idx").on(t.actorId)],
);

/**
 * Activities an inbox accepted (verified, not blocked), by author and activity id: the POST records one
 * and queues it; the federation queue's consumer runs its handler once (`handled_at`). A repeated
 * delivery finds its row and does nothing. The body waits here (a queue message is smaller than an
 * activity may be) and is emptied once handled; rows go after INBOX_KEEP_MS.
 */
export const apInbox = sqliteTable(
  "ap_inbox",
  {
    authorId: text("author_id").notNull(),
    activityId: text("activity_id").notNull(),
    // The server that delivered it (its signer), when it is not the author (a forwarded reply).
    senderId: text("sender_id").notNull(),
    body: text("body").notNull(),
    receivedAt: createdAt(),
    handledAt: integer("handled_at"),
    result: text("result"),
  },
  (t) => [primaryKey({ columns: [t.authorId, t.activityId] }), index("ap_inbox_received_idx").on(t.receivedAt)],
);

/** Who follows whom: a remote actor following a local one (accepted at once). */
export const apFollowers = sqliteTable(
  "ap_followers",
  {
    localId: text("local_id")
      .notNull()
      .references(() => apActors.id, { onDelete: "cascade" }),
    remoteId: text("remote_id")
      .notNull()
      .references(() => apRemoteActors.id, { onDelete: "cascade" }),
    // The inbox a delivery goes to: the server's shared inbox when it has one (one delivery per server).
    inbox: text("inbox").notNull(),
    followId: text("follow_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.localId, t.remoteId] }), index("ap_followers_local_idx").on(t.localId, t.createdAt)],
);

/**
 * What has been federated of each post: the version sent (its updated_at) and whether it was deleted.
 * No foreign key: a deleted post keeps its row, so the Delete can still be sent once.
 */
export const apPosts = sqliteTable(
  "ap_posts",
  {
    blogId: text("blog_id").primaryKey(),
    authorId: text("author_id").notNull(),
    version: integer("version").notNull(),
    deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
    // The Create activity as sent: the outbox lists these.
    activity: text("activity").notNull(),
    publishedAt: integer("published_at").notNull(),
  },
  (t) => [index("ap_posts_author_idx").on(t.authorId, t.deleted, t.publishedAt)],
);

/** Likes and Announces (boosts) of a post from the fediverse: one per remote actor and kind. */
export const apReactions = sqliteTable(
  "ap_reactions",
  {
    activityId: text("activity_id").notNull(),
    blogId: text("blog_id")
      .notNull()
      .references(() => blogs.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["like", "announce"] }).notNull(),
    remoteId: text("remote_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blogId, t.kind, t.remoteId] }),
    uniqueIndex("ap_reactions_activity_unique").on(t.activityId),
  ],
);

/** Replies from the fediverse shown as comments: the comment row and the remote note it came from. */
export const apComments = sqliteTable(
  "ap_comments",
  {
    noteId: text("note_id").primaryKey(),
    commentId: text("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    remoteId: text("remote_id").notNull(),
    // The reply's content warning (`summary` of a `sensitive` note): the comment shows collapsed behind it.
    contentWarning: text("content_warning"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("ap_comments_comment_unique").on(t.commentId), index("ap_comments_remote_idx").on(t.remoteId)],
);

/** Remote accounts (an actor URL) and whole instances (a host) an admin blocked. */
export const apBlocks = sqliteTable("ap_blocks", {
  target: text("target").primaryKey(),
  kind: text("kind", { enum: ["actor", "host"] }).notNull(),
  createdAt: createdAt(),
});

/**
 * Remote actors a local account follows (the fediverse in miniature): our Follow is sent from the
 * account's own actor, and `accepted` turns true when the remote server's Accept arrives.
 */
export const apFollowing = sqliteTable(
  "ap_following",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    remoteId: text("remote_id")
      .notNull()
      .references(() => apRemoteActors.id, { onDelete: "cascade" }),
    followId: text("follow_id").notNull(),
    accepted: integer("accepted", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.remoteId] }),
    index("ap_following_remote_idx").on(t.remoteId),
    index("ap_following_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * Posts received from followed remote actors (Create of an Article or a Note), kept as plain text (every
 * tag dropped) and bounded: the newest REMOTE_POSTS_PER_ACTOR of each actor.
 */
export const apRemotePosts = sqliteTable(
  "ap_remote_posts",
  {
    id: text("id").primaryKey(),
    remoteId: text("remote_id")
      .notNull()
      .references(() => apRemoteActors.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    name: text("name").notNull().default(""),
    text: text("text").notNull(),
    url: text("url"),
    publishedAt: integer("published_at").notNull(),
    receivedAt: createdAt(),
  },
  (t) => [index("ap_remote_posts_actor_idx").on(t.remoteId, t.publishedAt)],
);

/** Replies a local account sent to a remote post (Create(Note) inReplyTo), served at /ap/notes/{id}. */
export const apNotes = sqliteTable(
  "ap_notes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    inReplyTo: text("in_reply_to").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("ap_notes_reply_idx").on(t.inReplyTo, t.createdAt)],
);

/** Deliveries already made (activity id + inbox): a retried queue message never sends twice. */
export const apDeliveries = sqliteTable("ap_deliveries", {
  key: text("key").primaryKey(),
  deliveredAt: integer("delivered_at").notNull(),
});

/**
 * Totals kept by triggers (migration 0016), so a list's total costs one row read at any size:
 * how many posts have each status, for the whole site (scope "all", key ""), per writer ("author",
 * their id), per writer's email ("email"), per category ("category") and per tag ("tag", its slug: triggers
 * on blog_tags and blogs, migration 0025). The visible total adds the
 * scheduled posts whose time has come, counted live (worker/services/blogs/visible.ts visibleTotal):
 * a trigger cannot see time.
 */
export const blogCounts = sqliteTable(
  "blog_counts",
  {
    scope: text("scope", { enum: ["all", "author", "email", "category", "tag"] }).notNull(),
    key: text("key").notNull(),
    status: text("status", { enum: ["draft", "scheduled", "published"] }).notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key, t.status] })],
);

/**
 * A writer's Stats totals (and the site's, owner "*"), kept by triggers on blogs, comments, saves and
 * views (migration 0016): the Stats page reads one row, not every post of a writer of 100,000 posts.
 */
export const writerTotals = sqliteTable("writer_totals", {
  owner: text("owner").primaryKey(),
  posts: integer("posts").notNull().default(0),
  likes: integer("likes").notNull().default(0),
  comments: integer("comments").notNull().default(0),
  saves: integer("saves").notNull().default(0),
  views: integer("views").notNull().default(0),
});

/** A writer's (and the site's, owner "*") views per UTC day, kept by triggers on blog_views_daily: the Stats chart. */
export const writerViewsDaily = sqliteTable(
  "writer_views_daily",
  {
    owner: text("owner").notNull(),
    day: text("day").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.owner, t.day] })],
);

/**
 * Readers following writers: one row per reader and writer. The writer's followers are read
 * by the fan-out of a new post (writer_id, follower_id: a range per page); the reader's by /following.
 */
export const follows = sqliteTable(
  "follows",
  {
    followerId: text("follower_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    writerId: text("writer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.writerId] }),
    index("follows_writer_follower_idx").on(t.writerId, t.followerId),
    index("follows_follower_created_idx").on(t.followerId, t.createdAt),
  ],
);

export const NOTIFICATION_KINDS = ["comment", "reply", "follow", "post", "like"] as const;

/**
 * In-app notifications. `dedupe_key` makes each one idempotent and lets likes sum: one row
 * per post and day for likes (`like:{blog}:{day}`, its count grows), one per post for a followed
 * writer's new post (`post:{blog}`: a retried fan-out adds nothing), one per comment or follower.
 * `emailed_at` is set once the person's email choice for the kind was applied (a message, a digest,
 * or nothing), so no notification is ever mailed twice.
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    // Who caused it (the commenter, the follower, the writer); the latest liker for likes.
    actorId: text("actor_id").references(() => users.id, { onDelete: "cascade" }),
    blogId: text("blog_id").references(() => blogs.id, { onDelete: "cascade" }),
    // A deleted comment takes its notification with it.
    commentId: text("comment_id").references(() => comments.id, { onDelete: "cascade" }),
    // A reply from the fediverse addressed to the writer alone (never a public comment).
    privateReplyId: text("private_reply_id").references(() => apPrivateReplies.id, { onDelete: "cascade" }),
    count: integer("count").notNull().default(1),
    readAt: integer("read_at"),
    emailedAt: integer("emailed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("notifications_user_key_unique").on(t.userId, t.dedupeKey),
    index("notifications_user_updated_idx").on(t.userId, t.updatedAt, t.id),
    // The unread count: a range of this index, no row read.
    index("notifications_unread_idx")
      .on(t.userId)
      .where(sql`read_at is null`),
    // The daily digest's work list: notifications whose email choice is still to be applied.
    index("notifications_unmailed_idx")
      .on(t.userId, t.createdAt)
      .where(sql`emailed_at is null`),
  ],
);

/**
 * Per-kind email choices: "off", "instant" (a message as it happens) or "digest" (one
 * message a day). No row means the defaults (DEFAULT_PREFS in worker/services/notifications/texts.ts).
 */
const emailChoice = (name: string, fallback: "off" | "instant" | "digest") =>
  text(name, { enum: ["off", "instant", "digest"] })
    .notNull()
    .default(fallback);
export const notificationPrefs = sqliteTable("notification_prefs", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  comment: emailChoice("email_comment", "instant"),
  reply: emailChoice("email_reply", "instant"),
  follow: emailChoice("email_follow", "off"),
  post: emailChoice("email_post", "off"),
  like: emailChoice("email_like", "off"),
  updatedAt: updatedAt(),
});

/**
 * One import of another platform's export file (worker/services/import/): staged by the upload, shown
 * in a preview (category choices), then run in the background by the import queue in small batches.
 * The counters are the progress bar; `report` is the final account (JSON).
 */
export const importJobs = sqliteTable(
  "import_jobs",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").references(() => users.id, { onDelete: "cascade" }),
    // "site": an admin's import (authors mapped by email); "own": a writer's posts, all theirs.
    scope: text("scope", { enum: ["site", "own"] }).notNull(),
    platform: text("platform").notNull(),
    filename: text("filename").notNull(),
    status: text("status", { enum: ["preview", "running", "done"] })
      .notNull()
      .default("preview"),
    total: integer("total").notNull().default(0),
    done: integer("done").notNull().default(0),
    imported: integer("imported").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    imagesDone: integer("images_done").notNull().default(0),
    imagesFailed: integer("images_failed").notNull().default(0),
    // JSON: { "<source category>": "<one of the ten>" } and the category for everything unmapped.
    categoryMap: text("category_map").notNull().default("{}"),
    defaultCategory: text("default_category").notNull().default("Lifestyle"),
    // JSON summary made at upload: counts per kind, the source categories and tags, warnings.
    summary: text("summary").notNull().default("{}"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("import_jobs_owner_idx").on(t.ownerId, t.createdAt)],
);

/**
 * The staged, normalised records of one import (a post, or a slice of subscribers), in file order.
 * A queue batch claims pending ones (state working), and each ends done, skipped or failed with a note.
 */
export const importItems = sqliteTable(
  "import_items",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => importJobs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    // "page": a page of the source, never imported, kept skipped in the ledger. "site-page": this site's
    // own export brings back /privacy or /terms (payload: slug and Markdown). "follows": a slice of its
    // follows (follower and writer by email).
    kind: text("kind", { enum: ["post", "page", "site-page", "subscribers", "follows"] }).notNull(),
    sourceKey: text("source_key").notNull(),
    title: text("title").notNull().default(""),
    payload: text("payload").notNull(),
    state: text("state", { enum: ["pending", "working", "done", "skipped", "failed"] })
      .notNull()
      .default("pending"),
    claimedAt: integer("claimed_at"),
    blogId: text("blog_id"),
    // JSON: what happened (skip reason, failed images).
    note: text("note").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq] }), index("import_items_state_idx").on(t.jobId, t.state, t.seq)],
);

/**
 * Each image an import has copied (or failed to), by its source URL: a second post showing the same image
 * reuses the copy, a failed address is not fetched again for every post, and "retry failed images" knows
 * what to retry. Gone with its job.
 */
export const importImages = sqliteTable(
  "import_images",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => importJobs.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    // The copy here (/images/<key>), or null with the reason it failed.
    path: text("path"),
    reason: text("reason"),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.url] })],
);

/**
 * What an import has already brought in, by its origin ("wp:<site>:post:<id>", "ghost:<id>", a Medium
 * URL...): the idempotency ledger. Written in the same batch as the record it made, so importing the
 * same file twice (or a queue message delivered twice) creates nothing twice.
 */
export const importedSources = sqliteTable(
  "imported_sources",
  {
    // Whose ledger: "site" for admins' site imports, else the importing writer's id. One writer's file
    // (forged or not) can then never make another importer's real post read as "already imported".
    importer: text("importer").notNull().default("site"),
    sourceKey: text("source_key").notNull(),
    targetId: text("target_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.importer, t.sourceKey] })],
);

/**
 * Pages of text an admin edits: /privacy and /terms. A page without a row shows its default
 * text (worker/services/site-pages.ts); the body is Markdown, rendered by the one Markdown renderer.
 */
export const sitePages = sqliteTable("site_pages", {
  slug: text("slug").primaryKey(),
  body: text("body").notNull(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});

/**
 * Site-wide choices an admin makes, one row per key; a key without a row has its default. Today:
 * `newsletter_content` ("teaser" or "full", worker/services/newsletter/model.ts).
 */
export const siteSettings = sqliteTable("site_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});

/**
 * Replies from the fediverse that were not addressed to the public (direct, or followers-only): the
 * writer reads them in their notifications; they are never comments and never shown to anyone else.
 */
export const apPrivateReplies = sqliteTable(
  "ap_private_replies",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blogId: text("blog_id")
      .notNull()
      .references(() => blogs.id, { onDelete: "cascade" }),
    remoteId: text("remote_id")
      .notNull()
      .references(() => apRemoteActors.id, { onDelete: "cascade" }),
    noteId: text("note_id").notNull(),
    body: text("body").notNull(),
    // A content warning, as the sender wrote it (shown before the text).
    summary: text("summary"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ap_private_replies_note_unique").on(t.noteId),
    index("ap_private_replies_user_idx").on(t.userId),
  ],
);

/**
 * What we know of each remote server as a recipient: the signature style it last accepted (we knock
 * with RFC 9421 first, then draft-cavage), and since when its deliveries have been failing.
 */
export const apPeers = sqliteTable("ap_peers", {
  host: text("host").primaryKey(),
  signing: text("signing", { enum: ["rfc9421", "cavage"] }),
  failingSince: integer("failing_since"),
  // The last failed delivery: a failure after a long quiet (RESTART_AFTER_MS) starts a new failing spell.
  lastFailureAt: integer("last_failure_at"),
  updatedAt: updatedAt(),
});

/**
 * Analytics (docs/decisions/038): counts per scope ("site", "w:<writer id>", "p:<post id>"), UTC day,
 * dimension ("total", "post", "source", "country", "device", "browser") and key. Folded from the hit queue
 * in one D1 batch per message batch; no hit, address or agent is ever kept here.
 */
export const analyticsDaily = sqliteTable(
  "analytics_daily",
  {
    scope: text("scope").notNull(),
    dim: text("dim").notNull(),
    day: text("day").notNull(),
    key: text("key").notNull().default(""),
    pageviews: integer("pageviews").notNull().default(0),
    visitors: integer("visitors").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.dim, t.day, t.key] }), index("analytics_daily_day_idx").on(t.day)],
);

/**
 * A message batch's hits while it is folded: filled and emptied inside the same D1 batch (a transaction),
 * so between batches the table is empty. The visitor is the day's salted hash, never an address.
 */
export const analyticsInbox = sqliteTable("analytics_inbox", {
  hitId: text("hit_id").primaryKey(),
  day: text("day").notNull(),
  minute: integer("minute").notNull(),
  blogId: text("blog_id"),
  owner: text("owner"),
  source: text("source").notNull(),
  refHost: text("ref_host"),
  country: text("country").notNull(),
  device: text("device").notNull(),
  browser: text("browser").notNull(),
  visitor: text("visitor").notNull(),
  newSite: integer("new_site").notNull().default(0),
  newWriter: integer("new_writer").notNull().default(0),
  newPost: integer("new_post").notNull().default(0),
});

/** Hit ids already folded, so a message delivered twice counts once; pruned after two days. */
export const analyticsSeen = sqliteTable(
  "analytics_seen",
  {
    hitId: text("hit_id").primaryKey(),
    day: text("day").notNull(),
  },
  (t) => [index("analytics_seen_day_idx").on(t.day)],
);

/** The day's visitor hashes per scope (unique visitors); useless once the day's salt is gone, pruned after two days. */
export const analyticsVisitors = sqliteTable(
  "analytics_visitors",
  {
    day: text("day").notNull(),
    scope: text("scope").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.scope, t.hash] })],
);

/** Pageviews per scope and minute (Unix minute), for "the last 30 minutes"; pruned after an hour. */
export const analyticsRecent = sqliteTable(
  "analytics_recent",
  {
    scope: text("scope").notNull(),
    minute: integer("minute").notNull(),
    pageviews: integer("pageviews").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.minute] }), index("analytics_recent_minute_idx").on(t.minute)],
);

/** The day's random salt of the visitor hash; deleted when the day is over, so no hash can be traced back. */
export const analyticsSalts = sqliteTable("analytics_salts", {
  day: text("day").primaryKey(),
  salt: text("salt").notNull(),
});

/**
 * Paid membership tiers (worker/services/members/tiers.ts). Prices are in minor units (cents) of `currency`;
 * each amount has its own Stripe Price (a changed amount gets a new one: Stripe Prices are immutable). An
 * archived tier takes no new sign-ups; its members keep it.
 */
export const memberTiers = sqliteTable("member_tiers", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  // One benefit per line.
  benefits: text("benefits").notNull().default(""),
  monthlyPrice: integer("monthly_price").notNull(),
  yearlyPrice: integer("yearly_price").notNull(),
  currency: text("currency").notNull(),
  trialDays: integer("trial_days").notNull().default(0),
  archived: integer("archived", { mode: "boolean" }).notNull().default(false),
  stripeProductId: text("stripe_product_id"),
  stripeMonthlyPriceId: text("stripe_monthly_price_id"),
  stripeYearlyPriceId: text("stripe_yearly_price_id"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const MEMBER_STATUSES = ["free", "paid", "comped"] as const;

/**
 * A reader's membership, one row per account once they start a checkout or an admin comps them. `status` is
 * derived (worker/services/members/sync.ts): paid while Stripe's subscription is active, trialing or past_due;
 * comped while an admin's comp lasts; free otherwise. No row: free.
 */
export const members = sqliteTable(
  "members",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    // Stripe's own status of the subscription (active, trialing, past_due, canceled, ...), as last read.
    subscriptionStatus: text("subscription_status"),
    status: text("status", { enum: MEMBER_STATUSES }).notNull().default("free"),
    tierId: text("tier_id").references(() => memberTiers.id, { onDelete: "set null" }),
    cadence: text("cadence", { enum: ["month", "year"] }),
    currentPeriodEnd: integer("current_period_end"),
    cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
    // The amount of the current subscription in minor units (MRR in the admin's stats).
    amount: integer("amount"),
    currency: text("currency"),
    compTierId: text("comp_tier_id").references(() => memberTiers.id, { onDelete: "set null" }),
    // An admin's comp: until when (epoch ms); null with comp_tier_id set: for good.
    compUntil: integer("comp_until"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("members_customer_unique").on(t.stripeCustomerId),
    index("members_status_idx").on(t.status, t.createdAt),
  ],
);

/**
 * Monthly recurring revenue per month and currency, in minor units (worker/services/members/mrr.ts): each write of
 * a member from Stripe sets the month's row of every currency to the MRR as it stands after that write (paid
 * members only; a yearly amount counts a twelfth). A month without a row carries the previous month's value.
 */
export const memberMrrMonths = sqliteTable(
  "member_mrr_months",
  {
    // "YYYY-MM", UTC.
    month: text("month").notNull(),
    currency: text("currency").notNull(),
    mrr: integer("mrr").notNull(),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.month, t.currency] })],
);

/** Every Stripe event the webhook accepted, once (its id is the key): a redelivery is acknowledged and dropped. */
export const stripeEvents = sqliteTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  // The object the event is about (a subscription, a customer, a checkout session), as Stripe sent it.
  payload: text("payload").notNull(),
  receivedAt: integer("received_at").notNull().default(now),
  handledAt: integer("handled_at"),
});
