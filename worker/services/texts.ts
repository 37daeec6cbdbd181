/**
 * Words the services and sign-in flows say that the pages' scripts show too. They live here, in a
 * module with no imports, so a page's bundle can share them without pulling in zod, Drizzle or the
 * OAuth client (app/lib/messages.ts is in every page's JavaScript).
 */

/** The spec's one newsletter message for every unusable address (shown as it is by the page). */
export const INVALID_EMAIL_TEXT = "Please enter a valid email";

/** The spec's words after a Google sign-in: the popup's dialog and the redirect flow's flash say the same. */
export const GOOGLE_SIGNED_IN = {
  login: { title: "Success", text: "You have successfully signed up!" },
  register: { title: "Register Successful!", text: "You can now use Google Login." },
} as const;

/** The spec's newsletter success words, and what double opt-in adds to them. */
export const NEWSLETTER_SUCCESS = "Thank you for subscribing! 🎉";
// True for every address (the answer must not tell who is subscribed): a new one gets a link, a
// subscribed one stays as it is.
export const NEWSLETTER_CHECK_INBOX = "Check your inbox to confirm. Already subscribed? Then nothing changes.";
export const NEWSLETTER_SUCCESS_TEXT = `${NEWSLETTER_SUCCESS} ${NEWSLETTER_CHECK_INBOX}`;
// Only to a signed-in account subscribing its own verified, already confirmed address: it tells them nothing new.
export const NEWSLETTER_ALREADY_TEXT = "You're already subscribed.";

/** The start of every refused upload's field error (the spec's update-blog wording). */
export const IMAGE_UPLOAD_FAILED = "Image upload failed";

/** Why an account with an unconfirmed address cannot add a passkey (the API's 403 and the settings page). */
export const PASSKEY_NEEDS_VERIFIED_EMAIL =
  "Confirm your email address before you add a passkey: open the link we sent you, or ask for a new one.";

/** Why an account with an unconfirmed address cannot follow or answer anyone on the fediverse (a 403). */
export const FEDIVERSE_NEEDS_VERIFIED_EMAIL =
  "Confirm your email address before you follow or reply to anyone on the fediverse: open the link we sent you, or ask for a new one.";

/** Why an unverified writer's post went out on the site only (the page after Post Blog, the API's `notice`). */
export const OUTREACH_HELD_TEXT =
  "Your post is on the site, but it was not emailed to subscribers or followers, nor sent to the fediverse: confirm your email address first. Posts you publish after confirming go out as usual.";

/** What the email verification pages and API say (a module of texts only: pages ship it to the browser). */
export const VERIFY_TEXTS = {
  verified: "Your email address is confirmed. Thank you!",
  alreadyVerified: "Your email address is already confirmed.",
  startedAfresh:
    "The address is confirmed. This browser was not signed in to the account, so in case someone else created it with your address, we signed it out on every device and removed its password and passkeys. Choose a password to sign in.",
  notSignedIn:
    "This browser is not signed in to the account. Confirming here signs it out on every device and removes its password and passkeys (someone else may have created it with your address); you then choose a new password.",
  resent: (email: string) =>
    `We sent a new confirmation link to ${email}. It may take a few minutes to arrive; the link works for 24 hours.`,
} as const;

/** Why a comment is reported: the report form's choices, the API's `reason`, the admins' counts per reason. */
export const REPORT_REASONS = ["spam", "abuse", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: "Spam",
  abuse: "Abuse or harassment",
  other: "Something else",
};
export const REPORT_REASON_REQUIRED = "Choose a reason: spam, abuse or other.";

/** The code of the refusal that asks an admin to confirm a whole-server fediverse block (federation/blocks.ts). */
export const CONFIRM_SERVER_BLOCK = "confirm-server-block";
