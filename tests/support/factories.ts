import { env } from "cloudflare:workers";
import { createDb, schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";

export const db = () => createDb(env.DB);

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export async function makeUser(overrides: Partial<typeof schema.users.$inferInsert> = {}) {
  const id = newId();
  const row = {
    id,
    name: "Test Writer",
    email: `writer-${unique()}@example.com`,
    role: "user" as const,
    // An ordinary existing account has confirmed its address; pass null for one that has not.
    emailVerifiedAt: Date.now(),
    ...overrides,
  };
  await db().insert(schema.users).values(row);
  return row;
}

/**
 * `count` accounts written in one batch (a crowd for a concurrency test costs one round trip, not `count`),
 * ten rows a statement to stay under D1's 100 bound parameters.
 */
export async function makeUsers(count: number, overrides: Partial<typeof schema.users.$inferInsert> = {}) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    name: `Test Reader ${i + 1}`,
    email: `reader-${unique()}@example.com`,
    role: "user" as const,
    emailVerifiedAt: Date.now(),
    ...overrides,
  }));
  const chunks = Array.from({ length: Math.ceil(count / 10) }, (_, i) => rows.slice(i * 10, i * 10 + 10));
  const [first, ...rest] = chunks.map((chunk) => db().insert(schema.users).values(chunk));
  if (first) await db().batch([first, ...rest]);
  return rows;
}

export async function makeBlog(
  author: { id: string; name: string; email: string },
  overrides: Partial<typeof schema.blogs.$inferInsert> = {},
) {
  const row = {
    id: newId(),
    authorId: author.id,
    authorName: author.name,
    email: author.email,
    title: `A post ${unique()}`,
    shortDescription: "A short description of the post.",
    blogDetails: "The body of the post.\n\nA second paragraph.",
    category: "Technology",
    dateTime: new Date().toISOString(),
    image: "/images/test-image-0001.png",
    ...overrides,
  };
  await db().insert(schema.blogs).values(row);
  return row;
}

export async function clearContent() {
  await env.DB.batch([env.DB.prepare("delete from blogs"), env.DB.prepare("delete from users")]);
}

/** A real session for a user, through the same service the login calls use. */
export async function sessionFor(user: { id: string; email: string }): Promise<string> {
  const { createServices } = await import("#worker/services/index.ts");
  return (await createServices(env).sessions.start(user)).token;
}

/** Headers that make a request as this user (REST clients send a Bearer token). */
export async function asUser(user: { id: string; email: string }): Promise<Record<string, string>> {
  return { Authorization: `Bearer ${await sessionFor(user)}` };
}
