import { describe, expect, it } from "vitest";
import { asUser, makeUser } from "../support/factories";
import { json, send } from "../support/http";
import { getPage, withSession } from "../support/pages";

/** A post without a cover (a title-only draft): no grey box named after the post, no empty pill. */
describe("posts without a cover", () => {
  it("the post page has no hero, and the writer's cards draw a decorative panel with no empty category pill", async () => {
    const writer = await withSession(await makeUser({ name: "Coverless Cora" }));
    const title = `Bare draft ${Date.now().toString(36)}`;
    const created = await send("POST", "/api/blogs", { title, status: "draft" }, await asUser(writer));
    expect(created.status).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(created);

    const first = await getPage(`/blogs/${insertedId}`, writer);
    const post = first.status === 301 ? await getPage(first.headers.get("Location")!, writer) : first;
    const page = await post.text();
    expect(page).toContain(title);
    // No <figure> hero, and nothing announces an image named after the post.
    expect(page).not.toMatch(/<figure/);
    expect(page).not.toContain(`aria-label="${title}"`);
    // No category link with nothing in it.
    expect(page).not.toMatch(/href="\/allBlogs\?category="/);

    const list = await (await getPage("/dashboard/myBlog", writer)).text();
    const card = list.slice(list.indexOf("<article"), list.indexOf("</article>"));
    expect(card).toContain(title);
    expect(card).toMatch(/<span aria-hidden="true" data-no-cover=""/);
    expect(card).not.toMatch(/role="img"/);
    // No empty pill: every pill span has words in it.
    expect(card).not.toMatch(/rounded-full bg-brand-50[^"]*">\s*<\/span>/);
  });
});
