import type { Subscriptions } from "#worker/events/index.ts";
import type { NewsletterService } from "#worker/services/newsletter/service.ts";

/** The newsletter mails a post that became public to every confirmed subscriber, once (a queued fan-out). */
export const newsletterSubscriptions = (newsletter: Pick<NewsletterService, "announce">): Subscriptions => ({
  "post.published": ({ blogId }) => newsletter.announce(blogId),
});
