import type { Subscriptions } from "#worker/events/index.ts";
import type { NotificationService } from "#worker/services/notifications/service.ts";

/** What reaches people in the bell (and by mail, as each chose): followed writers' posts, comments, likes, follows. */
export const notificationSubscriptions = (notifications: NotificationService): Subscriptions => ({
  "post.published": ({ blogId }) => notifications.announce(blogId),
  "comment.created": (comment) => notifications.commented(comment),
  "reply.private": (reply) => notifications.repliedPrivately(reply),
  "post.liked": ({ actor, blogId }) => notifications.liked(actor, blogId),
  "user.followed": ({ actor, writerId }) => notifications.followed(actor, writerId),
});
