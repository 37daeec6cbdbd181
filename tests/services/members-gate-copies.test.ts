import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { renderMarkdown } from "#worker/content/markdown.ts";
import { previewOf, publicTextOf } from "#worker/services/blogs/visible.ts";
import { toArticle } from "#worker/services/federation/publishing.ts";
import { urls } from "#worker/services/federation/vocab.ts";
import { db, makeBlog, makeUser } from "../support/factories";

const FREE = "The opening everyone reads.";
const SECRET = "The part only members read.";
const details = `${FREE}\n\n<!--members-only-->\n\n${SECRET}`;

describe("copies of a gated post that leave the site", () => {
  it("the preview is the text above the marker, else the short description; a public post is whole", () => {
    expect(previewOf({ blogDetails: details, shortDescription: "Short." })).toBe(FREE);
    expect(previewOf({ blogDetails: SECRET, shortDescription: "Short." })).toBe("Short.");
    expect(publicTextOf({ blogDetails: details, shortDescription: "Short.", visibility: "public" })).toBe(details);
    expect(publicTextOf({ blogDetails: details, shortDescription: "Short.", visibility: "paid" })).toBe(FREE);
  });

  it("the fediverse Article of a paid post carries the preview only", async () => {
    const writer = await makeUser();
    const post = await makeBlog(writer, { blogDetails: details, visibility: "paid" });
    const [row] = await db().select().from(schema.blogs).where(eq(schema.blogs.id, post.id));
    const article = JSON.stringify(toArticle(row!, urls("https://blog.test")));
    expect(article).toContain(FREE);
    expect(article).not.toContain(SECRET);
  });

  it("the whole post renders without the marker line", () => {
    const html = renderMarkdown(details);
    expect(html).toContain(SECRET);
    expect(html).not.toContain("members-only");
  });
});
