import type { MailContent } from "#worker/services/mail/layout.tsx";

/**
 * Every message the site sends, by kind. A template gets the site's name and what the message is
 * about, and returns its words; worker/services/mail/layout.tsx turns them into HTML and text.
 * Links are absolute URLs on the site's origin (the mailer's `link()` makes them).
 */
export const MAIL_TEMPLATES = {
  "verify-email": (site: string, p: { name: string; url: string }): MailContent => ({
    subject: `Confirm your email address for ${site}`,
    preheader: `One click confirms this address for your ${site} account.`,
    heading: "Confirm your email address",
    paragraphs: [
      `Hi ${p.name},`,
      `Welcome to ${site}! Please confirm that this is your email address, so that you can always get back into your account.`,
    ],
    action: { label: "Confirm my email address", url: p.url },
    after: [
      "This link works once and expires in 24 hours.",
      `If you did not create ${withArticle(site)} account, you can ignore this message.`,
    ],
  }),

  "password-reset": (site: string, p: { name: string; url: string }): MailContent => ({
    subject: `Reset your ${site} password`,
    preheader: "Choose a new password with this link. It expires in one hour.",
    heading: "Reset your password",
    paragraphs: [
      `Hi ${p.name},`,
      `Someone (we hope you) asked to reset the password of your ${site} account. Choose a new one with this link.`,
    ],
    action: { label: "Choose a new password", url: p.url },
    after: [
      "This link works once and expires in one hour. Setting a new password signs you out everywhere.",
      "If you did not ask for this, ignore this message: your password stays as it is.",
    ],
  }),

  "password-changed": (site: string, p: { name: string; url: string }): MailContent => ({
    subject: `Your ${site} password was changed`,
    preheader: "Your password was just changed, and every session was signed out.",
    heading: "Your password was changed",
    paragraphs: [
      `Hi ${p.name},`,
      `The password of your ${site} account was just changed, and every device that was signed in has been signed out.`,
    ],
    action: { label: "Sign in", url: p.url },
    after: [
      "If this was not you, reset your password at once from the sign-in page, and tell us through the contact page.",
    ],
  }),

  // A change made in /settings: the device that made it stays signed in.
  "password-changed-in-settings": (site: string, p: { name: string; url: string }): MailContent => ({
    subject: `Your ${site} password was changed`,
    preheader: "Your password was just changed in your settings; every other device was signed out.",
    heading: "Your password was changed",
    paragraphs: [
      `Hi ${p.name},`,
      `The password of your ${site} account was just changed in its settings. The device that changed it stays signed in; every other device has been signed out.`,
    ],
    action: { label: `Go to ${site}`, url: p.url },
    after: [
      "If this was not you, reset your password at once from the sign-in page, and tell us through the contact page.",
    ],
  }),

  "email-change": (site: string, p: { name: string; url: string; newEmail: string }): MailContent => ({
    subject: `Confirm your new email address for ${site}`,
    preheader: `Confirm ${p.newEmail} as the address of your ${site} account.`,
    heading: "Confirm your new email address",
    paragraphs: [
      `Hi ${p.name},`,
      `You asked to use ${p.newEmail} for your ${site} account. Confirm it with this link; until then your old address stays in place.`,
    ],
    action: { label: "Confirm my new address", url: p.url },
    after: ["This link works once and expires in 24 hours.", "If you did not ask for this, ignore this message."],
  }),

  "email-changed": (site: string, p: { name: string; url: string; newEmail: string }): MailContent => ({
    subject: `The email address of your ${site} account was changed`,
    preheader: `Your ${site} account now uses ${p.newEmail}.`,
    heading: "Your email address was changed",
    paragraphs: [
      `Hi ${p.name},`,
      `Your ${site} account now uses ${p.newEmail}. This address will no longer receive its messages.`,
    ],
    action: { label: `Go to ${site}`, url: p.url },
    after: ["If this was not you, tell us at once through the contact page."],
  }),

  "newsletter-confirm": (site: string, p: { url: string }): MailContent => ({
    subject: `Confirm your subscription to ${site}`,
    preheader: `One click and the ${site} newsletter starts arriving.`,
    heading: "Confirm your subscription",
    paragraphs: [
      `Someone (we hope you) asked to get the ${site} newsletter at this address: every new post, as it is published.`,
      "Nothing is sent until you confirm.",
    ],
    action: { label: "Yes, subscribe me", url: p.url },
    after: [
      "This link expires in 7 days.",
      "If you did not ask for this, ignore this message: you will not hear from us.",
    ],
    reason: "because this address was entered in its newsletter form. You cannot reply to it.",
  }),

  "newsletter-post": (
    site: string,
    p: {
      title: string;
      description: string;
      author: string;
      url: string;
      image: string | null;
      unsubscribeUrl: string;
      /** The whole post (worker/content/mail-post.ts) when the mail carries it; absent: the teaser. */
      body?: { html: string; text: string };
    },
  ): MailContent => ({
    subject: p.title,
    preheader: p.description,
    heading: p.title,
    paragraphs: [p.description, `By ${p.author}`],
    ...(p.body ? { body: p.body } : {}),
    action: { label: p.body ? "Read it on the site" : "Read the post", url: p.url },
    ...(p.image ? { image: { url: p.image, alt: "" } } : {}),
    reason: `because you subscribed to the ${site} newsletter.`,
    unsubscribeUrl: p.unsubscribeUrl,
  }),

  // Notifications: one as it happens, or the day's in one digest; /settings changes which.
  notification: (site: string, p: { text: string; url: string; settingsUrl: string }): MailContent => ({
    subject: p.text,
    preheader: `${p.text} on ${site}.`,
    heading: p.text,
    paragraphs: [`${p.text}.`],
    action: { label: "Open it", url: p.url },
    after: [`Choose which notifications you get by email in your settings: ${p.settingsUrl}`],
    reason: "because of your notification settings. You cannot reply to it.",
  }),

  // Comments and replies that came in within a minute of each other: one message quoting them all.
  "notification-batch": (
    site: string,
    p: { subject: string; quotes: string[]; more: number; url: string; settingsUrl: string; unsubscribeUrl: string },
  ): MailContent => ({
    subject: p.subject,
    preheader: p.quotes[0] ?? p.subject,
    heading: p.subject,
    paragraphs: [...p.quotes, ...(p.more > 0 ? [`and ${p.more} more.`] : [])],
    action: { label: "Open them", url: p.url },
    after: [`Choose which notifications you get by email in your settings: ${p.settingsUrl}`],
    reason: "because of your notification settings. You cannot reply to it.",
    unsubscribeUrl: p.unsubscribeUrl,
  }),

  "notification-digest": (
    site: string,
    p: { lines: string[]; more: number; url: string; settingsUrl: string },
  ): MailContent => ({
    subject: `Your daily ${site} digest: ${p.lines.length + p.more} new`,
    preheader: p.lines[0] ?? `What happened on ${site} today.`,
    heading: "What happened today",
    paragraphs: [...p.lines, ...(p.more > 0 ? [`and ${p.more} more.`] : [])],
    action: { label: "See all notifications", url: p.url },
    after: [`Choose which notifications you get by email in your settings: ${p.settingsUrl}`],
    reason: "because you chose a daily digest in your notification settings. You cannot reply to it.",
  }),

  // The last message to an account's address: sent after the account is gone, to the owner who asked.
  "account-deleted": (
    site: string,
    p: {
      name: string;
      email: string;
      counts: { posts: number; comments: number; likes: number; saves: number; cap: number };
      newsletter: boolean;
    },
  ): MailContent => ({
    subject: `Your ${site} account was deleted`,
    preheader: `Your ${site} account (${p.email}) and everything in it are gone, as you asked.`,
    heading: "Your account was deleted",
    paragraphs: [
      `Hi ${p.name},`,
      `As you asked, your ${site} account for ${p.email} was deleted, with ${listOf(deletedWith(p.counts))}. This cannot be undone, and the address is free for a new account.`,
      `This is the last message about your account: nothing more will be sent to you about it.`,
      ...(p.newsletter
        ? [
            `The ${site} newsletter you subscribed to at this address is separate from the account: it keeps coming until you use the unsubscribe link in any of its messages.`,
          ]
        : []),
    ],
    after: ["If this was not you, tell us at once through the contact page."],
    reason: "because this account was deleted at its owner's request. You cannot reply to it.",
  }),

  // Paid memberships (worker/services/members/sync.ts): sent once per change of the member's state.
  "member-welcome": (site: string, p: { name: string; tier: string; url: string }): MailContent => ({
    subject: `Welcome to ${p.tier} on ${site}`,
    preheader: `Your ${p.tier} membership of ${site} is active: every members' post is open to you.`,
    heading: `Welcome to ${p.tier}`,
    paragraphs: [`Hi ${p.name},`, `Thank you for joining ${p.tier}. Every post for members is now open to you.`],
    action: { label: "See your membership", url: p.url },
    after: ["You can change your plan, your card or cancel at any time from your settings."],
  }),

  "member-payment-failed": (site: string, p: { name: string; tier: string; url: string }): MailContent => ({
    subject: `Your ${site} payment did not go through`,
    preheader: `We could not take the payment for your ${p.tier} membership.`,
    heading: "Your payment did not go through",
    paragraphs: [
      `Hi ${p.name},`,
      `We could not take the payment for your ${p.tier} membership. Your access stays open while we try again; please check your card.`,
    ],
    action: { label: "Update your payment details", url: p.url },
  }),

  "member-cancelled": (site: string, p: { name: string; tier: string; until: string; url: string }): MailContent => ({
    subject: `Your ${site} membership was cancelled`,
    preheader: `Your ${p.tier} membership ends on ${p.until}.`,
    heading: "Your membership was cancelled",
    paragraphs: [
      `Hi ${p.name},`,
      `Your ${p.tier} membership was cancelled. Your access to members' posts lasts until ${p.until}.`,
    ],
    action: { label: "Change your mind", url: p.url },
  }),
} as const;

export type MailKind = keyof typeof MAIL_TEMPLATES;
export type MailParams<K extends MailKind> = Parameters<(typeof MAIL_TEMPLATES)[K]>[1];

/** "a Blog", "an Edge Blog": the article a site's name takes, read from its first letter. */
export function withArticle(name: string): string {
  return `${/^[aeiou]/i.test(name.trim()) ? "an" : "a"} ${name}`;
}

/** What went with a deleted account, as the goodbye mail lists it ("your 3 posts (drafts too)", ...). */
function deletedWith(c: { posts: number; comments: number; likes: number; saves: number; cap: number }): string[] {
  const n = (count: number, one: string, many: string) =>
    `${count >= c.cap ? `more than ${(c.cap - 1).toLocaleString("en-US")}` : count} ${count === 1 ? one : many}`;
  return [
    `your ${n(c.posts, "post", "posts")} (drafts and scheduled ones too)`,
    `your ${n(c.comments, "comment", "comments")}`,
    `${n(c.likes, "like", "likes")}`,
    `${n(c.saves, "saved post", "saved posts")}`,
    "your profile, photo, passkeys and every signed-in session",
  ];
}

/** "a, b and c": a list as a sentence says it. */
export function listOf(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
