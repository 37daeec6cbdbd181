import { createDb } from "../db";
import type { Env } from "../env";
import { createAuthorService } from "./authors";
import { createBlogService } from "./blogs";
import { createCommentService } from "./comments";
import { createContactService } from "./contact";
import { createFeedService } from "./feeds";
import { createGoogleAccountService } from "./google-accounts";
import { createHealthService } from "./health";
import { createHomeService } from "./home";
import { createImageService } from "./images";
import { createLikeService } from "./likes";
import { createNewsletterService } from "./newsletter";
import { createProfileService } from "./profiles";
import { createRateLimitService } from "./rate-limit";
import { createReadingService } from "./reading";
import { createReviewService } from "./reviews";
import { createSavedBlogService } from "./saved-blogs";
import { createSessionService } from "./sessions";
import { createUserService } from "./users";

/** Every service, wired to this request's bindings. Register new services here. */
export function createServices(env: Env) {
  const db = createDb(env.DB);
  // Shared pieces are made once here and handed to the services that need them.
  const rateLimit = createRateLimitService(db);
  const sessions = createSessionService(db, env);
  const images = createImageService(db, env, rateLimit);
  return {
    authors: createAuthorService(db),
    blogs: createBlogService(db),
    comments: createCommentService(db, rateLimit),
    contact: createContactService(db, rateLimit),
    feeds: createFeedService(db),
    googleAccounts: createGoogleAccountService(db, env),
    health: createHealthService(db),
    home: createHomeService(db),
    images,
    likes: createLikeService(db),
    newsletter: createNewsletterService(db, rateLimit),
    profiles: createProfileService(db),
    reading: createReadingService(db),
    reviews: createReviewService(db),
    savedBlogs: createSavedBlogService(db),
    sessions,
    users: createUserService(db, env, { sessions, rateLimit, images }),
  };
}

export type Services = ReturnType<typeof createServices>;
