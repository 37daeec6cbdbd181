import { createPurge } from "../cache/purge";
import { createDb } from "../db";
import type { Env } from "../env";
import { createAccountService } from "./account";
import { createAccountTokenService } from "./account-tokens";
import { createAuthorService } from "./authors";
import { createDataExportService } from "./data-export";
import { createEmailChangeService } from "./email-change";
import { createBlogService } from "./blogs";
import { createCommentService } from "./comments";
import { createContactService } from "./contact";
import { createEmailVerificationService } from "./email-verification";
import { createFeedService } from "./feeds";
import { createGoogleAccountService } from "./google-accounts";
import { createHealthService } from "./health";
import { createHomeService } from "./home";
import { createImageCleanup } from "./image-cleanup";
import { createImageService } from "./images";
import { createLikeService } from "./likes";
import { createMailer } from "./mail/mailer";
import { createNewsletterService } from "./newsletter";
import { createPasswordResetService } from "./password-reset";
import { createPasskeyService } from "./passkeys";
import { createProfileService } from "./profiles";
import { createRateLimitService } from "./rate-limit";
import { createReadingService } from "./reading";
import { createReviewService } from "./reviews";
import { createSavedBlogService } from "./saved-blogs";
import { createSessionService } from "./sessions";
import { createUserService } from "./users";
import { createViewService } from "./views";
import { createWriterService } from "./writers";

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
  // Every write that drops an image lets it go from R2 once nothing shows it (worker/services/image-cleanup.ts).
  const imageCleanup = createImageCleanup(db, env, purge);
  const release = imageCleanup.release;
  // Every message goes through the one mailer and its outbox; links in mail are single-use tokens.
  const mailer = createMailer(db, env);
  const accountTokens = createAccountTokenService(db);
  const newsletter = createNewsletterService(db, env, { rateLimit, mailer, origin });
  const emailVerification = createEmailVerificationService(db, env, { tokens: accountTokens, mailer, rateLimit });
  const account = createAccountService(db, { sessions, rateLimit, purge, release });
  return {
    account,
    emailChange: createEmailChangeService(db, env, { account, tokens: accountTokens, mailer, rateLimit, purge }),
    accountTokens,
    passkeys: createPasskeyService(db, env, { sessions, rateLimit }),
    dataExport: createDataExportService(db, env, rateLimit),
    authors: createAuthorService(db, purge, release),
    // A post that becomes public goes to the newsletter's confirmed subscribers (once).
    blogs: createBlogService(db, purge, release, (blogId) => newsletter.announce(blogId)),
    comments: createCommentService(db, rateLimit, purge),
    contact: createContactService(db, rateLimit),
    emailVerification,
    feeds: createFeedService(db),
    googleAccounts: createGoogleAccountService(db, env),
    health: createHealthService(db),
    home: createHomeService(db),
    images,
    likes: createLikeService(db, purge, rateLimit),
    mailer,
    newsletter,
    passwordReset: createPasswordResetService(db, env, {
      tokens: accountTokens,
      mailer,
      rateLimit,
      // Work after the answer (the request's waitUntil); without a request context it simply runs.
      defer: (work) => (ctx ? ctx.waitUntil(work) : void work),
    }),
    profiles: createProfileService(db, purge),
    reading: createReadingService(db),
    reviews: createReviewService(db, purge, rateLimit, release),
    savedBlogs: createSavedBlogService(db),
    sessions,
    users: createUserService(db, env, { sessions, rateLimit, images, purge, release, verification: emailVerification }),
    imageCleanup,
    // Views change no cached answer (no public page shows them), so they purge nothing.
    views: createViewService(db, env),
    writers: createWriterService(db),
  };
}

export type Services = ReturnType<typeof createServices>;
