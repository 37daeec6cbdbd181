import { createPurge } from "#worker/cache/purge.ts";
import { createDb } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { createAccountService } from "#worker/services/accounts/settings.ts";
import { createAccountTokenService } from "#worker/services/accounts/tokens.ts";
import { createAnalyticsService } from "#worker/services/analytics/service.ts";
import { createAuthorService } from "#worker/services/authors.ts";
import { createDataExportService } from "#worker/services/accounts/export.ts";
import { createEmailChangeService } from "#worker/services/accounts/email-change.ts";
import { createPostAutosaveService } from "#worker/services/blogs/autosave.ts";
import { createBlogService } from "#worker/services/blogs/service.ts";
import { gateOutreach } from "#worker/services/blogs/outreach.ts";
import { createEvents } from "#worker/events/index.ts";
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
import { createLikeService } from "#worker/services/likes.ts";
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

/** Every service, wired to this request's bindings. Register new services here. */
/**
 * `origin` is the origin of the request being served, if any: links in mail made by work it starts
 * (a newsletter fan-out) point there when SITE_URL is not set (local development on any port).
 */
export function createServices(env: Env, ctx?: ExecutionContext, origin: string | null = null) {
  const db = createDb(env.DB);
  // Shared pieces are made once here and handed to the services that need them.
  const rateLimit = createRateLimitService(db);
  const sessions = createSessionService(db, env);
  const images = createImageService(db, env, rateLimit);
  // Every write purges what it changed from the edge cache (worker/cache/tags.ts).
  const purge = createPurge(env, ctx);
  // Every write that drops an image lets it go from R2 once nothing shows it (worker/services/images/cleanup.ts).
  const imageCleanup = createImageCleanup(db, env, purge);
  const release = imageCleanup.release;
  // Every message goes through the one mailer and its outbox; links in mail are single-use tokens.
  const mailer = createMailer(db, env, origin);
  const accountTokens = createAccountTokenService(db);
  // What a write causes elsewhere goes through the domain events (worker/events/index.ts): services emit,
  // and each subscriber is registered below from the file beside its service.
  const events = createEvents();
  const newsletter = createNewsletterService(db, env, { rateLimit, mailer, origin });
  // In-app notifications (and their email): comments, replies, follows, likes and followed writers' posts.
  const notifications = createNotificationService(db, env, { mailer, origin });
  const sitePages = createSitePageService(db, purge);
  const emailVerification = createEmailVerificationService(db, env, { tokens: accountTokens, mailer, rateLimit });
  const federation = createFederationService(
    db,
    env,
    // A reply from the fediverse tells the post's writer, like any comment.
    {
      rateLimit,
      purge,
      onComment: (created) => events.emit("comment.created", created),
      onPrivateReply: (reply) => events.emit("reply.private", reply),
    },
    origin,
  );
  // A deleted account's followers on the fediverse hear of it (Delete of its posts and of its actor).
  const accountFederation = federation.accountDeletion;
  const account = createAccountService(db, {
    sessions,
    rateLimit,
    purge,
    release,
    mailer,
    federation: accountFederation,
  });
  // What a post sends beyond the site (newsletter, followers, fediverse), gated once on a verified
  // writer (worker/services/blogs/outreach.ts); the fediverse's failure never fails the writer's save.
  events.subscribe(newsletterSubscriptions(newsletter));
  events.subscribe(notificationSubscriptions(notifications));
  events.subscribe(federationSubscriptions(federation));
  const follows = createFollowService(db, {
    purge,
    rateLimit,
    onFollow: (actor, writerId) => events.emit("user.followed", { actor, writerId }),
  });
  const outreach = gateOutreach(db, {
    announce: (blogId) => events.emit("post.published", { blogId }),
    federate: (blogId) => events.emit("post.changed", { blogId }),
  });
  return {
    account,
    // Analytics without a third-party cloud (docs/decisions/038): rollups folded from the hit queue.
    analytics: createAnalyticsService(db, env),
    emailChange: createEmailChangeService(db, env, { account, tokens: accountTokens, mailer, rateLimit, purge }),
    accountTokens,
    passkeys: createPasskeyService(db, env, { sessions, rateLimit }),
    dataExport: createDataExportService(db, env, rateLimit),
    authors: createAuthorService(db, purge, release, images),
    // A post that becomes public goes to the newsletter's confirmed subscribers (once), to the
    // followers of its writer (in-app, and by email if they chose it), and to the fediverse.
    blogs: createBlogService(db, purge, release, outreach.announce, images, outreach.federate),
    // What a writer is typing on Write Blogs, kept for their other devices (never a post).
    postAutosave: createPostAutosaveService(db, release),
    federation,
    // An admin's picks for the home page's Featured Blogs.
    featured: createFeaturedService(db, purge),
    // A new comment or reply tells the post's writer and the person answered (notifications).
    comments: createCommentService(db, rateLimit, purge, (created) => events.emit("comment.created", created)),
    commentReports: createCommentReportService(db, rateLimit),
    contact: createContactService(db, rateLimit),
    // The dashboard menu's numbers for admins (pending reviews, reported comments).
    dashboard: createDashboardService(db),
    emailVerification,
    feeds: createFeedService(db),
    follows,
    googleAccounts: createGoogleAccountService(db, env),
    health: createHealthService(db),
    home: createHomeService(db),
    // /privacy and /terms, which admins edit.
    sitePages,
    images,
    // Imports from other platforms: staged by the upload, run by the import queue (worker/index.ts).
    imports: createImportService(db, env, rateLimit, purge),
    importRunner: createImportRunner(db, env, {
      purge,
      // Substack's subscribers confirmed there: the newsletter's own import, which never mails an opt-in.
      importSubscribers: (actor, emails) => newsletter.importCsv(actor, `email\n${emails.join("\n")}`),
      savePage: (actor, slug, body) => sitePages.update(actor, slug, { body }),
      // This site's export brings its follows back: the follows' own restore, which notifies nobody.
      importFollows: (actor, pairs) => follows.restore(actor, pairs),
    }),
    likes: createLikeService(db, purge, rateLimit, (actor, blogId) => events.emit("post.liked", { actor, blogId })),
    mailer,
    // Paid memberships through Stripe (docs/decisions/052): tiers, checkout, the webhook's queue, comps.
    members: createMemberService(db, env, {
      mailer,
      origin,
      onPaid: (payload) => events.emit("member.paid", payload),
    }),
    newsletter,
    notifications,
    passwordReset: createPasswordResetService(db, env, {
      tokens: accountTokens,
      mailer,
      rateLimit,
      // Work after the answer (the request's waitUntil); without a request context it simply runs.
      defer: (work) => (ctx ? ctx.waitUntil(work) : void work),
    }),
    profiles: createProfileService(db, purge),
    reading: createReadingService(db),
    reviews: createReviewService(db, purge, rateLimit, release, images),
    savedBlogs: createSavedBlogService(db),
    sessions,
    // /tags and the tag pages: every tag with visible posts, its usual spelling and count (read only).
    tags: createTagService(db),
    // The whole site as one streamed zip, for admins; the import reads it back.
    siteExport: createSiteExportService(db, env, rateLimit),
    users: createUserService(db, env, {
      sessions,
      rateLimit,
      images,
      purge,
      release,
      verification: emailVerification,
      federation: accountFederation,
    }),
    imageCleanup,
    // Views change no cached answer (no public page shows them), so they purge nothing.
    views: createViewService(db, env),
    writers: createWriterService(db),
  };
}

export type Services = ReturnType<typeof createServices>;
