import { expectNoSeriousA11yViolations } from "./axe";
import { expect, test } from "./fixtures";
import { ACCOUNTS, screenshots, signIn, uploadCover } from "./support";

/**
 * Tags that keep the writer's spelling, in a browser: a writer tags posts "café", "Web Performance",
 * "数据库" and "Ελληνικά"; a visitor finds them on /tags (spelled so, with their counts), follows "#café" to
 * /tags/caf%C3%A9, and reaches the same page by typing /tags/café. Another spelling of a tag's address
 * (/tags/Web%20Performance) lands on its slug's. Screenshots of both pages at 375 and 1280 px.
 */
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test("/tags lists the tags as written, and /tags/café is the tag's page", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page, ACCOUNTS.writer);
  const cover = await uploadCover(page);
  const run = unique();
  const ids: string[] = [];
  for (const [title, tags] of [
    [`Coffee houses of Lisbon ${run}`, ["café", "Web Performance", "数据库", "Ελληνικά"]],
    [`A faster café menu ${run}`, ["café", "web performance"]],
  ] as const) {
    const res = await page.request.post("/api/blogs", {
      data: {
        title,
        short_description: "A post whose tags keep their spelling.",
        blog_details: "Body.",
        category: "Travel",
        date_time: "2026-01-20T10:00",
        image: cover,
        tags,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    ids.push(((await res.json()) as { insertedId: string }).insertedId);
  }
  // A draft's tag is never shown to the public.
  const draft = await page.request.post("/api/blogs", {
    data: { title: `Draft ${run}`, status: "draft", tags: [`Unpublished ${run}`] },
  });
  expect(draft.status(), await draft.text()).toBe(201);
  ids.push(((await draft.json()) as { insertedId: string }).insertedId);

  const visitor = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const reader = await visitor.newPage();
  try {
    // The post's tags lead to every tag.
    await reader.goto(`/blogs/${ids[0]}`);
    await expect(
      reader.getByRole("list", { name: "Tags" }).getByRole("link", { name: "#数据库", exact: true }),
    ).toBeVisible();
    await reader.getByRole("list", { name: "Tags" }).getByRole("link", { name: "All tags", exact: true }).click();
    await expect(reader).toHaveURL(/\/tags$/);
    await expect(reader.getByRole("heading", { level: 1, name: "All tags", exact: true })).toBeVisible();
    const tags = reader.getByRole("list", { name: "Tags" });
    // "Web Performance" and "web performance" are one tag, shown as spelled first in sort order.
    await expect(tags.getByRole("link", { name: "#café 2 posts", exact: true })).toBeVisible();
    await expect(tags.getByRole("link", { name: "#Web Performance 2 posts", exact: true })).toBeVisible();
    await expect(tags.getByRole("link", { name: "#数据库 1 post", exact: true })).toBeVisible();
    await expect(tags.getByRole("link", { name: "#Ελληνικά 1 post", exact: true })).toBeVisible();
    await expect(reader.getByText(`Unpublished ${run}`)).toHaveCount(0);
    await expectNoSeriousA11yViolations(reader);
    await screenshots(reader, "tags-index");

    await tags.getByRole("link", { name: "#café 2 posts", exact: true }).click();
    await expect(reader).toHaveURL(/\/tags\/caf%C3%A9$/);
    await expect(reader.getByRole("heading", { level: 1, name: "#café", exact: true })).toBeVisible();
    await expect(reader.getByText("2 posts")).toBeVisible();
    await expect(reader.getByRole("article")).toHaveCount(2);

    // Typed as written, the address is the page itself.
    await reader.goto("/tags/café");
    await expect(reader).toHaveURL(/\/tags\/caf%C3%A9$/);
    await expect(reader.getByRole("heading", { level: 1, name: "#café", exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(reader);
    await screenshots(reader, "tags-cafe");

    // Another spelling of a tag's address lands on its slug's.
    await reader.goto("/tags/Web%20Performance");
    await expect(reader).toHaveURL(/\/tags\/web-performance$/);
    await expect(reader.getByRole("heading", { level: 1, name: "#Web Performance", exact: true })).toBeVisible();
    await reader.getByRole("link", { name: "All tags", exact: true }).click();
    await expect(reader).toHaveURL(/\/tags$/);
  } finally {
    await visitor.close();
    for (const id of ids) await page.request.delete(`/api/blogs/${id}`);
  }
});
