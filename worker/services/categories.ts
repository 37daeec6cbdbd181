/** The spec's ten categories: home tiles, sidebar topics and the blog form's choices. */
export const CATEGORIES = [
  "Technology",
  "Travel",
  "Health",
  "Finance",
  "AI",
  "Education",
  "Business",
  "Science",
  "Marketing",
  "Lifestyle",
] as const;

export type Category = (typeof CATEGORIES)[number];

export function isCategory(value: unknown): value is Category {
  return typeof value === "string" && (CATEGORIES as readonly string[]).includes(value);
}
