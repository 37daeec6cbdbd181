import { describe, expect, it } from "vitest";
import { renderMarkdown, withAutoDirection } from "#worker/content/markdown.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { call, send } from "../support/http";

// Issue 43: titles, descriptions, comments and every block of a body take their direction from their text.
const ARABIC = "مرحبا بالعالم";
const HEBREW = "שלום עולם";

describe('dir="auto"', () => {
  it("on every block of a rendered body, and nowhere a writer could put it", () => {
    const html = withAutoDirection(
      renderMarkdown(
        `${ARABIC}\n\n## ${HEBREW}\n\n- ${ARABIC}\n\n3. one\n\n> ${HEBREW}\n\n| a |\n|---|\n| ${ARABIC} |\n\n<p dir="rtl">x</p>`,
      ),
    );
    expect(html).toContain(`<p dir="auto">${ARABIC}</p>`);
    expect(html).toContain(`<h2 dir="auto">${HEBREW}</h2>`);
    expect(html).toContain(`<ul dir="auto">`);
    expect(html).toContain(`<li dir="auto">${ARABIC}</li>`);
    expect(html).toContain(`<ol dir="auto" start="3">`);
    expect(html).toContain(`<blockquote dir="auto">`);
    expect(html).toContain(`<td dir="auto">${ARABIC}</td>`);
    expect(html).toContain("&lt;p dir=&quot;rtl&quot;&gt;");
  });

  it("on the post page's title, description, body and comments, and in its feed", async () => {
    const writer = await makeUser({ name: "Layla Writer" });
    const blog = await makeBlog(writer, { title: ARABIC, shortDescription: HEBREW, blogDetails: ARABIC });
    const reader = await makeUser();
    const posted = await send("POST", `/api/blogs/${blog.id}/comments`, { body: HEBREW }, await asUser(reader));
    expect(posted.status).toBe(201);
    const res = await call(postPath(blog), { headers: { Accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(new RegExp(`<h1 dir="auto"[^>]*>${ARABIC}</h1>`));
    expect(html).toMatch(new RegExp(`<p dir="auto"[^>]*>${HEBREW}</p>`));
    expect(html).toContain(`<p dir="auto">${ARABIC}</p>`);
    expect(html).toMatch(new RegExp(`<p dir="auto"[^>]*>${HEBREW}</p>`));
    const feed = await (await call("/rss.xml")).text();
    expect(feed).toContain(`&lt;p dir=&quot;auto&quot;&gt;${HEBREW}&lt;/p&gt;`);
  });
});
