import { z } from "zod";
import { PUBLIC } from "#worker/services/federation/vocab.ts";
import { DomainError } from "#worker/services/shared/errors.ts";

/**
 * The incoming vocabulary, typed: what each activity type we act on must carry, as zod schemas over
 * the compacted JSON every implementation sends (unknown properties pass through untouched). The
 * inbox's handler table is keyed by these types; anything else is acknowledged and ignored.
 */

const url = z.string().min(1).max(2048);
/** A reference: a URL, or an object with an `id`. */
const ref = z.union([url, z.looseObject({ id: url })]);
const refOrNull = z.union([ref, z.null()]).optional();
/** `to`/`cc`: one or many references. */
const audience = z.union([url, z.array(z.unknown()).max(10_000), z.looseObject({})]).optional();

export const noteSchema = z.looseObject({
  id: url,
  type: z.string().max(100),
  attributedTo: z.unknown().optional(),
  inReplyTo: refOrNull,
  content: z
    .string()
    .max(512 * 1024)
    .optional()
    .nullable(),
  summary: z.string().max(10_000).optional().nullable(),
  sensitive: z.boolean().optional().nullable(),
  name: z.string().max(10_000).optional().nullable(),
  url: z.unknown().optional(),
  to: audience,
  cc: audience,
});
export type NoteObject = z.infer<typeof noteSchema>;

const base = { id: url, actor: ref, to: audience, cc: audience };

export const activitySchemas = {
  Follow: z.looseObject({ ...base, type: z.literal("Follow"), object: ref }),
  Undo: z.looseObject({ ...base, type: z.literal("Undo"), object: ref }),
  Like: z.looseObject({ ...base, type: z.literal("Like"), object: ref }),
  // Misskey's emoji reaction is a Like by another name.
  EmojiReact: z.looseObject({ ...base, type: z.literal("EmojiReact"), object: ref }),
  Announce: z.looseObject({ ...base, type: z.literal("Announce"), object: ref }),
  Create: z.looseObject({ ...base, type: z.literal("Create"), object: z.union([url, noteSchema]) }),
  Update: z.looseObject({ ...base, type: z.literal("Update"), object: z.union([url, z.looseObject({ id: url })]) }),
  Delete: z.looseObject({ ...base, type: z.literal("Delete"), object: ref }),
  Accept: z.looseObject({ ...base, type: z.literal("Accept"), object: ref }),
  Reject: z.looseObject({ ...base, type: z.literal("Reject"), object: ref }),
  Move: z.looseObject({ ...base, type: z.literal("Move"), object: ref, target: ref }),
} as const;

export type ActivityType = keyof typeof activitySchemas;
export type ActivityOf<T extends ActivityType> = z.infer<(typeof activitySchemas)[T]>;
export type AnyActivity = { [T in ActivityType]: ActivityOf<T> }[ActivityType];

/** A body as an activity we act on; null for a well-formed activity of a type we do not act on. */
export function parseActivity(json: unknown): AnyActivity | null {
  if (!json || typeof json !== "object" || Array.isArray(json)) {
    throw new DomainError("invalid-activity", "The body is not an activity.");
  }
  const type = (json as { type?: unknown }).type;
  if (typeof type !== "string") throw new DomainError("invalid-activity", "The body is not an activity.");
  if (!(type in activitySchemas)) return null;
  const parsed = activitySchemas[type as ActivityType].safeParse(json);
  if (!parsed.success) {
    throw new DomainError("invalid-activity", `That ${type} is missing something it needs (its id, actor or object).`);
  }
  return parsed.data as AnyActivity;
}

/** The ids an audience value names (strings, or objects with an id). */
export function audienceOf(...values: unknown[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    for (const item of Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]) {
      if (typeof item === "string") out.push(item);
      else if (item && typeof item === "object" && typeof (item as { id?: unknown }).id === "string") {
        out.push((item as { id: string }).id);
      }
    }
  }
  return out;
}

/** Whether an audience includes the public, in any of the spellings compacted JSON-LD allows. */
export function isPublic(...values: unknown[]): boolean {
  return audienceOf(...values).some((id) => id === PUBLIC || id === "as:Public" || id === "Public");
}

/** An object id we accept: an https URL (http only in a test configuration). */
export function isObjectUrl(value: string, allowHttp: boolean): boolean {
  try {
    const parsed = new URL(value);
    return (parsed.protocol === "https:" || (allowHttp && parsed.protocol === "http:")) && !!parsed.host;
  } catch {
    return false;
  }
}
