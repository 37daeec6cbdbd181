import { createPurge } from "#worker/cache/purge.ts";
import { configOf } from "#worker/config.ts";
import { createDb } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { createEvents } from "#worker/events/index.ts";
import { createAccountService } from "#worker/services/accounts/settings.ts";
import { createAccountTokenService } from "#worker/services/accounts/tokens.ts";
import { createAnalyticsIngest } from "#worker/services/analytics/ingest.ts";
import { createAnalyticsService } from "#worker/services/analytics/service.ts";
import { createAuthorService } from "#worker/services/authors.ts";
import { createDataExportService } from "#worker/services/accounts/export.ts";
import { createEmailChangeService } from "#worker/services/accounts/email-change.ts";
import { createPostAutosaveService } from "#worker/services/blogs/autosave.ts";
import { createBlogService } from "#worker/services/blogs/service.ts";
import { federationSubscriptions } from "#worker/services/federation/events.ts";
import { newsletterSubscriptions } from "#worker/services/newsletter/events.ts";
import { notificationSubscriptions } from "#worker/services/notifications/events.ts";
import { createFeaturedService } from "#worker/services/blogs/featured.ts";
import { createCommentService } from "#worker/services/comments/service.ts";
import { createCommentReportService } from "#worker/services/comments/reports.ts";
import { createContactService } from "#worker/services/contact.ts";
import { createEmailVerificationService } from "#worker/services/accounts/email-verification.ts";
import { createFederationService } from "#worker/services/federation/service.ts";
import { createFollowService } from "#worker/services/follows.ts";
import { createFeedService } from "#worker/services/feeds.ts";
import { createGoogleAccountService } from "#worker/services/accounts/google.ts";
import { createHealthService } from "#worker/services/health.ts";
import { createHomeService } from "#worker/services/queries/home.ts";
import { createDashboardService } from "#worker/services/queries/dashboard.ts";
import { createSitePageService } from "#worker/services/site-pages.ts";
import { createTagService } from "#worker/services/blogs/tag-lists.ts";
import { createImageCleanup } from "#worker/services/images/cleanup.ts";
import { createImageService } from "#worker/services/images/service.ts";
import { createImportRunner } from "#worker/services/import/run.ts";
import { createImportService } from "#worker/services/import/service.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { createLikeService } from "#worker/services/likes.ts";
import { memberSubscriptions } from "#worker/services/members/events.ts";
import { createMemberService } from "#worker/services/members/service.ts";
import { createMailer } from "#worker/services/mail/mailer.ts";
import { createNewsletterService } from "#worker/services/newsletter/service.ts";
import { createNotificationService } from "#worker/services/notifications/service.ts";
import { createPasswordResetService } from "#worker/services/accounts/password-reset.ts";
import { createPasskeyService } from "#worker/services/accounts/passkeys.ts";
import { createProfileService } from "#worker/services/profiles.ts";
import { createRateLimitService } from "#worker/services/rate-limit.ts";
import { createReadingService } from "#worker/services/queries/reading.ts";
import { createReviewService } from "#worker/services/reviews.ts";
import { createSavedBlogService } from "#worker/services/saved-blogs.ts";
import { createSessionService } from "#worker/services/accounts/sessions.ts";
import { createSiteExportService } from "#worker/services/export/site.ts";
import { createUserService } from "#worker/services/accounts/users.ts";
import { createViewService } from "#worker/services/views.ts";
import { createWriterService } from "#worker/services/writers.ts";

/** The kernel (worker/services/kernel.ts) over a Worker's env: made once per createServices (and by tests/support/kernel.ts). */
export function createKernel(env: Env, ctx?: ExecutionContext, origin: string | null = null): Kernel {
  const db = createDb(env.DB);
  return {
    db,
    env,
    // Parsed on first use (worker/serve.ts has already refused a request under a bad configuration).
    get config() {
      return configOf(env);
    },
    purge: createPurge(env, ctx),
    events: createEvents(),
    rateLimit: createRateLimitService(db),
    origin,
    defer: (work) => (ctx ? ctx.waitUntil(work) : void work),
  };
}

/**
 * Every service of one request (or one cron run, or one queue batch), wired once: the only composition
 * root. It builds the kernel (worker/services/kernel.ts: the database, the parsed config, the cache purge,
 * the event hub, rate limits, the origin, `defer`), hands it to every factory with at most one object of
 * the services that factory calls, and registers each service's subscribers from the file beside it. It
 * emits nothing: a write emits its own event (scripts/check-kernel.mjs holds it to that). Register new
 * services here.
 *
 * `origin` is the origin of the request being served, if any: links in mail made by work it starts
 * (a newsletter fan-out) point there when SITE_URL is not set (local development on any port).
 */
export function createServices(env: Env, ctx?: ExecutionContext, origin: string | null = null) {
  const k = createKernel(env, ctx, origin);
  // Shared pieces are made once here and handed to the services that need them.
  const sessions = createSessionService(k);
  const images = createImageService(k);
  // Every write that drops an image lets it go from R2 once nothing shows it (worker/services/images/cleanup.ts).
  const imageCleanup = createImageCleanup(k);
  // Every message goes through the one mailer and its outbox; links in mail are single-use tokens.
  const mailer = createMailer(k);
  const accountTokens = createAccountTokenService(k);
  const newsletter = createNewsletterService(k, { mailer });
  // In-app notifications (and their email): comments, replies, follows, likes and followed writers' posts.
  const notifications = createNotificationService(k, { mailer });
  const sitePages = createSitePageService(k);
  const emailVerification = createEmailVerificationService(k, { tokens: accountTokens, mailer });
  // ActivityPub; a reply from the fediverse tells the post's writer, like any comment (it emits comment.created).
  const federation = createFederationService(k);
  // A deleted account's followers on the fediverse hear of it (Delete of its posts and of its actor).
  const accountFederation = federation.accountDeletion;
  const account = createAccountService(k, { sessions, imageCleanup, mailer, federation: accountFederation });
  const follows = createFollowService(k);
  // Paid memberships through Stripe (docs/decisions/052): tiers, checkout, the webhook's queue, comps.
  const members = createMemberService(k, { mailer });
  // What a write causes elsewhere: each service's subscribers, from the file beside it (worker/events/index.ts
  // names every event and who emits it). A post that becomes public goes to the newsletter's confirmed
  // subscribers (once), to its writer's followers and to the fediverse; the fediverse's failure never
  // fails the writer's save.
  k.events.subscribe(newsletterSubscriptions(newsletter));
  k.events.subscribe(notificationSubscriptions(notifications));
  k.events.subscribe(federationSubscriptions(federation));
  k.events.subscribe(memberSubscriptions(members));
  return {
    account,
    // Analytics without a third-party cloud (docs/decisions/038): rollups folded from the hit queue.
    analytics: createAnalyticsService(k),
    // The beacon's hit (POST /api/analytics/hit): read before the session layer, so it resolves the token itself.
    analyticsIngest: createAnalyticsIngest(k, { sessions }),
    emailChange: createEmailChangeService(k, { account, tokens: accountTokens, mailer }),
    accountTokens,
    passkeys: createPasskeyService(k, { sessions }),
    dataExport: createDataExportService(k),
    authors: createAuthorService(k, { images, imageCleanup }),
    // Posts; a write emits post.published and post.changed itself, for a verified writer (blogs/outreach.ts).
    blogs: createBlogService(k, { images, imageCleanup }),
    // What a writer is typing on Write Blogs, kept for their other devices (never a post).
    postAutosave: createPostAutosaveService(k, { imageCleanup }),
    federation,
    // An admin's picks for the home page's Featured Blogs.
    featured: createFeaturedService(k),
    // A new comment or reply emits comment.created: the post's writer and the person answered hear of it.
    comments: createCommentService(k),
    commentReports: createCommentReportService(k),
    contact: createContactService(k),
    // The dashboard menu's numbers for admins (pending reviews, reported comments).
    dashboard: createDashboardService(k),
    emailVerification,
    feeds: createFeedService(k),
    follows,
    googleAccounts: createGoogleAccountService(k),
    health: createHealthService(k),
    home: createHomeService(k),
    // /privacy and /terms, which admins edit.
    sitePages,
    images,
    // Imports from other platforms: staged by the upload, run by the import queue (worker/index.ts).
    imports: createImportService(k),
    // An import brings back what other services own through their own writes: Substack's confirmed subscribers
    // (the newsletter's CSV import, no opt-in mail), this site's pages and its follows (no notification).
    importRunner: createImportRunner(k, { newsletter, sitePages, follows }),
    likes: createLikeService(k),
    mailer,
    members,
    newsletter,
    notifications,
    passwordReset: createPasswordResetService(k, { tokens: accountTokens, mailer }),
    profiles: createProfileService(k),
    reading: createReadingService(k),
    reviews: createReviewService(k, { images, imageCleanup }),
    savedBlogs: createSavedBlogService(k),
    sessions,
    // /tags and the tag pages: every tag with visible posts, its usual spelling and count (read only).
    tags: createTagService(k),
    // The whole site as one streamed zip, for admins; the import reads it back.
    siteExport: createSiteExportService(k),
    users: createUserService(k, {
      sessions,
      images,
      imageCleanup,
      verification: emailVerification,
      federation: accountFederation,
    }),
    imageCleanup,
    // Views change no cached answer (no public page shows them), so they purge nothing.
    views: createViewService(k),
    writers: createWriterService(k),
  };
}

export type Services = ReturnType<typeof createServices>;
