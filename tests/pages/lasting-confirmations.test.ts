import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { schema } from "#worker/db.ts";
import { db, makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { getPage, pngFile, postForm, withSession } from "../support/pages";

const PASSWORD = "correct horse";
let passwordHash: string;

const postFields = (title: string, extra: Record<string, string> = {}) => ({
  title,
  category: "Travel",
  date_time: "2026-11-21T10:30",
  tz: "+00:00",
  short_description: "A short one.",
  blog_details: "Some details.",
  ...extra,
});

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD, 1000);
});

beforeEach(async () => {
  await env.DB.prepare("delete from rate_limits where key like 'email-change:%' or key like 'reauth:%'").run();
});

describe("confirmations that stay", () => {
  it("Post Blog's message offers to view and to share the new post; a draft's offers neither", async () => {
    const writer = await makeUser({ name: "Poppy Poster" });
    const res = await postForm("/dashboard/writeBlogs", writer, postFields("Fresh and live"), { image: pngFile() });
    expect(res.status, await res.clone().text()).toBe(302);
    const row = await db().query.blogs.findFirst({ where: eq(schema.blogs.authorId, writer.id) });
    expect(flashOf(res)).toMatchObject({
      title: "Blog Posted Successfully!",
      links: [
        { label: "View it", href: `/blogs/${row!.id}/fresh-and-live` },
        { label: "Share it", href: `/blogs/${row!.id}/fresh-and-live#share` },
      ],
    });

    const draft = await postForm("/dashboard/writeBlogs", writer, postFields("Quiet", { status: "draft" }));
    expect(flashOf(draft)).not.toHaveProperty("links");
  });

  it("the email section shows a change waiting for its link, and nothing once none waits", async () => {
    const person = await withSession(await makeUser({ name: "Mo Mover", passwordHash }));
    expect(await (await getPage("/settings", person)).text()).not.toContain("Waiting for confirmation");

    const target = `moved-${Date.now().toString(36)}@example.com`;
    const asked = await postForm("/settings", person, { intent: "change-email", newEmail: target, password: PASSWORD });
    expect(asked.status).toBe(302);
    const html = await (await getPage("/settings", person)).text();
    expect(html).toContain("Waiting for confirmation");
    expect(html).toContain(target);
    expect(html).toContain("stays your address.");

    // An expired link is no longer waiting.
    await env.DB.prepare("update account_tokens set expires_at = 1 where user_id = ?").bind(person.id).run();
    expect(await (await getPage("/settings", person)).text()).not.toContain("Waiting for confirmation");
  });
});
