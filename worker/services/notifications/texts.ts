import { NOTIFICATION_KINDS } from "#drizzle/schema.ts";

export { NOTIFICATION_KINDS };
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const EMAIL_CHOICES = ["off", "instant", "digest"] as const;
export type EmailChoice = (typeof EMAIL_CHOICES)[number];
export type NotificationPrefs = Record<NotificationKind, EmailChoice>;

/** What a person gets by email before they choose (a row in notification_prefs overrides it). */
export const DEFAULT_PREFS: NotificationPrefs = {
  comment: "instant",
  reply: "instant",
  follow: "off",
  post: "off",
  like: "off",
};

/** The kinds as /settings names them. */
export const KIND_LABELS: Record<NotificationKind, string> = {
  comment: "Comments on your posts",
  reply: "Replies to your comments",
  follow: "New followers",
  post: "New posts from writers you follow",
  like: "Likes on your posts (summed per post and day)",
};

export const CHOICE_LABELS: Record<EmailChoice, string> = {
  off: "No email",
  instant: "Email right away",
  digest: "Daily digest",
};

/** The facts a notification's sentence is made of. */
export interface NotificationFacts {
  kind: NotificationKind;
  count: number;
  actorId: string | null;
  actorName: string | null;
  blogId: string | null;
  blogTitle: string | null;
  /** A reply from the fediverse addressed to the writer alone. */
  privateReplyId?: string | null;
}

/** One sentence for the bell's list, the mail and the digest. */
export function describe(n: NotificationFacts): string {
  const who = n.actorName ?? "Someone";
  const title = `“${n.blogTitle ?? "a post"}”`;
  switch (n.kind) {
    case "comment":
      return n.privateReplyId ? `${who} replied privately to ${title}` : `${who} commented on ${title}`;
    case "reply":
      return `${who} replied to your comment on ${title}`;
    case "follow":
      return `${who} started following you`;
    case "post":
      return `${who} published ${title}`;
    case "like":
      return n.count > 1 ? `${n.count} people liked ${title} today` : `${who} liked ${title}`;
  }
}

/** Where a notification leads (a path on the site). */
export function targetOf(
  n: Pick<NotificationFacts, "kind" | "actorId" | "blogId" | "privateReplyId"> & { commentId?: string | null },
): string {
  // A private reply is read where it was delivered: the writer's notifications.
  if (n.privateReplyId) return `/notifications#private-${n.privateReplyId}`;
  if (n.kind === "follow" && n.actorId) return `/writers/${n.actorId}`;
  // A comment or reply lands on that very comment (its element id on the post page), else on the thread.
  if (n.kind === "comment" || n.kind === "reply") {
    if (!n.blogId) return "/notifications";
    return `/blogs/${n.blogId}#${n.commentId ? `comment-${n.commentId}` : "comments"}`;
  }
  return n.blogId ? `/blogs/${n.blogId}` : "/notifications";
}
