import { beforeAll, describe, expect, it } from "vitest";
import { SITE_PAGES } from "#worker/services/site-pages.ts";
import { makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { getPage, postForm, withSession } from "../support/pages";

type Who = Awaited<ReturnType<typeof withSession>>;
let admin: Who;
let member: Who;

beforeAll(async () => {
  admin = await withSession(await makeUser({ name: "Page Admin", role: "admin" }));
  member = await withSession(await makeUser({ name: "Page Member" }));
});

describe("/privacy and /terms", () => {
  it("show sensible default text, rendered from Markdown, shared with visitors", async () => {
    for (const slug of ["privacy", "terms"] as const) {
      const res = await getPage(`/${slug}`, null);
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toContain("s-maxage");
      const html = await res.text();
      expect(html).toContain(`>${SITE_PAGES[slug].title}</h1>`);
      expect(html).toMatch(/<h2[^>]*>[A-Z]/);
      expect(html).toContain('href="/contact"');
      expect(html).not.toContain("Edit this page");
    }
  });

  it("an admin edits a page; the edit shows to visitors at once (purged), through the sanitiser", async () => {
    expect(await (await getPage("/terms", null)).text()).not.toContain("New terms apply");
    const editor = await (await getPage("/dashboard/pages/terms", admin)).text();
    expect(editor).toContain("Edit Terms of Use");
    expect(editor).toContain("By using this site you agree");
    const res = await postForm("/dashboard/pages/terms", admin, {
      body: "## New terms apply\n\nBe kind. <script>alert(1)</script>",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/terms");
    expect(flashOf(res)).toMatchObject({ title: "Page saved." });
    const html = await (await getPage("/terms", null)).text();
    expect(html).toMatch(/<h2[^>]*>New terms apply<\/h2>/);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("Last updated");
    expect(await (await getPage("/terms", admin)).text()).toContain('href="/dashboard/pages/terms"');
  });

  it("refuses an empty page with 400, non-admins with 403, unknown pages with 404", async () => {
    const empty = await postForm("/dashboard/pages/privacy", admin, { body: "   " });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Text is required.");
    expect((await postForm("/dashboard/pages/privacy", member, { body: "Mine now." })).status).toBe(403);
    expect((await getPage("/dashboard/pages/privacy", member)).status).toBe(403);
    expect((await getPage("/dashboard/pages/cookies", admin)).status).toBe(404);
    expect(await (await getPage("/privacy", null)).text()).not.toContain("Mine now.");
  });
});
