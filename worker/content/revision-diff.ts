import { diffWordsWithSpace } from "diff";

/** One version of a post's content: a revision or the post as it is now. */
export interface PostVersion {
  title: string;
  category: string;
  short_description: string;
  blog_details: string;
  image: string;
  /** The tags and SEO fields (absent counts as none). */
  tags?: string[];
  seo_title?: string;
  custom_slug?: string;
  meta_description?: string;
  social_image?: string;
}

/** A run of text: kept, added in the newer version, or removed from the older one. */
export interface DiffPart {
  value: string;
  added?: boolean;
  removed?: boolean;
}

export interface FieldDiff {
  field: keyof PostVersion;
  label: string;
  changed: boolean;
  parts: DiffPart[];
}

const FIELDS: { field: keyof PostVersion; label: string }[] = [
  { field: "title", label: "Title" },
  { field: "category", label: "Category" },
  { field: "short_description", label: "Short description" },
  { field: "blog_details", label: "Details" },
  { field: "image", label: "Image" },
  { field: "tags", label: "Tags" },
  { field: "seo_title", label: "SEO title" },
  { field: "custom_slug", label: "Custom slug" },
  { field: "meta_description", label: "Meta description" },
  { field: "social_image", label: "Social image" },
];

/** Fields whose value is one link: shown as replaced whole, never word by word. */
const WHOLE = new Set<keyof PostVersion>(["image", "social_image", "custom_slug"]);

/** A field as text: tags as the comma-separated list the form shows. */
const textOf = (version: PostVersion, field: keyof PostVersion): string => {
  const value = version[field];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
};

/** jsdiff gives up after this long (its `timeout`), and the field shows as replaced whole. */
export const DIFF_TIMEOUT_MS = 300;
/** Past this many characters on either side, a field is shown as replaced whole without diffing. */
export const DIFF_MAX_CHARS = 60_000;

function wordDiff(a: string, b: string): DiffPart[] {
  const whole = [
    { value: a, removed: true },
    { value: b, added: true },
  ];
  if (a.length > DIFF_MAX_CHARS || b.length > DIFF_MAX_CHARS) return whole;
  const parts = diffWordsWithSpace(a, b, { timeout: DIFF_TIMEOUT_MS });
  if (!parts) return whole;
  return parts.map((p) => ({
    value: p.value,
    ...(p.added ? { added: true } : {}),
    ...(p.removed ? { removed: true } : {}),
  }));
}

/** What changed from `older` to `newer`, field by field, marked word by word (line breaks kept). Computed on the server. */
export function diffVersions(older: PostVersion, newer: PostVersion): FieldDiff[] {
  return FIELDS.map(({ field, label }) => {
    const a = textOf(older, field);
    const b = textOf(newer, field);
    if (a === b) return { field, label, changed: false, parts: [{ value: b }] };
    const parts = WHOLE.has(field)
      ? [
          { value: a, removed: true },
          { value: b, added: true },
        ]
      : wordDiff(a, b);
    return { field, label, changed: true, parts };
  });
}
