import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeUser } from "./factories";
import { tag } from "./kernel";

/** A new writer, as the blog service's actor. */
export async function writerActor(): Promise<Actor> {
  const u = await makeUser();
  return { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
}

/** A complete post to publish (a title of its own each time). */
export const newsletterPost = (extra: Record<string, unknown> = {}) => ({
  title: `News ${tag()}`,
  short_description: "What happened this week.",
  blog_details: "The whole story.",
  category: "Technology",
  date_time: "2026-11-20T10:00:00.000Z",
  image: "/images/cover-0001.png",
  ...extra,
});

/** A confirmed subscriber written straight into D1 (the fan-out's input); answers its id. */
export async function confirmedSubscriber(email: string): Promise<string> {
  const id = newId();
  await db().insert(schema.newsletterSubscriptions).values({ id, email, state: "confirmed", confirmedAt: Date.now() });
  return id;
}
