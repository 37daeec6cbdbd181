/**
 * Limits a real platform needs where the spec is silent. Kept apart from validation.ts (zod) so that
 * pages can show them (maxLength, hints) without shipping zod to the browser.
 */
export const LIMITS = {
  name: 80,
  email: 254,
  title: 150,
  shortDescription: 300,
  blogDetails: 50_000,
  bio: 1_000,
  designation: 100,
  review: 1_000,
  subject: 150,
  message: 5_000,
  comment: 2_000,
  /** A comment report's own words (with the reason "other"): a line, not a letter. */
  reportNote: 200,
  url: 2_048,
  /** Free tags per post, and characters per tag. */
  tags: 5,
  tag: 30,
  /** A post's optional meta description (search engines show about this much). */
  metaDescription: 160,
  /** A post's optional SEO title (what fits a search result's line). */
  seoTitle: 70,
} as const;

/** A search box's text past this is cut, not refused (it is a search box). */
export const MAX_SEARCH_CHARS = 200;

/**
 * The contact form's honeypot (worker/services/contact.ts): a field the form hides from people (off screen,
 * out of the tab order, hidden from assistive technology) that form-filling robots fill. A message with it
 * is answered as sent and stored nowhere. Here, in the client-safe module, because the page names it too.
 */
export const CONTACT_HONEYPOT = "website";
