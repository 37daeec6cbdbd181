/**
 * The one table from a write to the cached answers it changes. A service that writes calls
 * `purge(event)` with one of these events; the tags are the ones `policy.ts` gives the shared answers.
 * A new kind of write is added here first, or it cannot be purged at all.
 */
export type WriteEvent =
  | { kind: "blog.created" }
  | { kind: "blog.changed"; blogId: string }
  | { kind: "blog.reaction"; blogId: string }
  | { kind: "blog.like"; blogId: string }
  | { kind: "image.removed"; keys: string[] }
  | { kind: "author.changed" }
  | { kind: "review.changed" }
  | { kind: "page.changed"; slug: string }
  | { kind: "profile.changed"; userId: string }
  | { kind: "follow.changed"; writerId: string }
  | { kind: "user.removed" }
  | { kind: "user.photo" }
  | { kind: "user.email" };

export function tagsFor(event: WriteEvent): string[] {
  switch (event.kind) {
    // A new post shows in every list (home, all blogs, /tags and its tags' pages, feeds, sitemap, API lists).
    case "blog.created":
      return ["blogs"];
    // An edit, a delete, a publish: the lists and the post itself. A change of its tags (or of whether
    // the public sees them) changes /tags and the tag pages, all shared under `blogs` too.
    case "blog.changed":
      return ["blogs", `blog:${event.blogId}`];
    // A like or a comment: the post, and the lists (the API lists carry like counts).
    case "blog.reaction":
      return ["blogs", `blog:${event.blogId}`];
    // A like: only the post. Lists' like counts catch up within their shared lifetime; a like loop
    // must not purge every page that carries `blogs` (each purge spends the zone's purge budget).
    case "blog.like":
      return [`blog:${event.blogId}`];
    // An image gone from R2: its original and every width, cached long and immutable under image:<key>.
    case "image.removed":
      return event.keys.map((key) => `image:${key}`);
    case "author.changed":
      return ["authors"];
    case "review.changed":
      return ["reviews"];
    // An admin edited /privacy or /terms.
    case "page.changed":
      return [`page:${event.slug}`];
    case "profile.changed":
      return [`writer:${event.userId}`];
    // A follow or unfollow: the writer's page shows their follower count. The sidebar's suggestions
    // for visitors do not depend on anyone's follows; signed-in readers' pages are never shared.
    case "follow.changed":
      return [`writer:${event.writerId}`];
    // A deleted user's posts, comments, likes and reviews may be on any page; a new photo shows
    // beside their comments; a changed email wherever their posts are (the API's answers carry it).
    case "user.removed":
    case "user.photo":
    case "user.email":
      return ["site"];
  }
}
