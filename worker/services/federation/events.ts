import type { Subscriptions } from "#worker/events/index.ts";
import { logError } from "#worker/log.ts";
import type { FederationService } from "#worker/services/federation/service.ts";

/** The fediverse mirrors every write of a post (Create, Update or Delete); its failure never fails the writer's save. */
export const federationSubscriptions = (federation: Pick<FederationService, "publishing">): Subscriptions => ({
  "post.changed": ({ blogId }) =>
    federation.publishing.sync(blogId).catch((err) => logError("federation: sync failed", err, { blogId })),
});
