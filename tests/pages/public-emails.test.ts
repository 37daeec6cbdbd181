import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { db, makeBlog, makeUser } from "../support/factories";
import { call } from "../support/http";
import { cookieFor, getPage } from "../support/pages";

type User = Awaited<ReturnType<typeof makeUser>>;

/**
 * The reading pages (decision 026) show no writer's email, and their loader data
 * (in the HTML's window.__remixContext and in the single-fetch .data answers) carries none either.
 * The REST blog records keep it: the spec's contract.
 */
describe("writer emails stay out of the public reading pages", () => {
  const SECRET = "zq-distinctive-writer-7731@example.com";
  let writer: User;
  let reader: User;
  let postId: string;

  beforeAll(async () => {
    writer = await makeUser({ name: "Emailless Writer", email: SECRET });
    reader = await makeUser({ name: "Saving Reader" });
    const post = await makeBlog(writer, { title: "Quokka harbour notes", category: "Travel" });
    postId = post.id;
    // A second post in the same category, so the first one shows the other as "Read next".
    await makeBlog(writer, { title: "Quokka island notes", category: "Travel" });
    await db()
      .insert(schema.savedBlogs)
      .values({ id: newId(), userId: reader.id, blogId: postId, email: reader.email, createdAt: Date.now() });
  });

  const pages = () => [
    "/",
    "/_root.data",
    "/allBlogs",
    "/allBlogs.data",
    "/allBlogs?q=Quokka",
    "/allBlogs.data?q=Quokka",
    "/allBlogs?category=Travel",
    `/blogs/${postId}/quokka-harbour-notes`,
    `/blogs/${postId}/quokka-harbour-notes.data`,
    `/writers/${writer.id}`,
    `/writers/${writer.id}.data`,
  ];

  for (const who of ["a visitor", "a signed-in reader"] as const) {
    it(`sends ${who} no writer email in any reading page's HTML or route data`, async () => {
      const viewer = who === "a visitor" ? null : reader;
      for (const path of pages()) {
        const res = await getPage(path, viewer);
        expect(res.status, path).toBe(200);
        const body = await res.text();
        // The page really is about this writer's posts: it names them, just not their email.
        expect(body.includes("Quokka"), path).toBe(true);
        expect(body.toLowerCase().includes(SECRET), path).toBe(false);
      }
    });
  }

  it("keeps the writer's email off /saved too", async () => {
    for (const path of ["/saved", "/saved.data"]) {
      const res = await getPage(path, reader);
      expect(res.status, path).toBe(200);
      const body = await res.text();
      expect(body.includes("Quokka"), path).toBe(true);
      expect(body.toLowerCase().includes(SECRET), path).toBe(false);
    }
  });

  it("keeps the sign-in address off the REST blog records too, except for its writer (decision 048)", async () => {
    for (const path of ["/api/blogs", `/api/blogs/${postId}`, `/api/blog?email=${encodeURIComponent(SECRET)}`]) {
      const res = await call(path, { headers: await cookieFor(null) });
      expect(res.status, path).toBe(200);
      expect((await res.text()).toLowerCase(), path).not.toContain(SECRET);
    }
    const own = await call(`/api/blogs/${postId}`, { headers: await cookieFor(writer) });
    expect(await own.text()).toContain(SECRET);
  });
});
