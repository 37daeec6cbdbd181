import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { db, makeUser } from "../support/factories";
import { call } from "../support/http";
import { getPage } from "../support/pages";

describe("what admins and readers read about the site", () => {
  it("the default privacy and terms say what the product does: no sign-in links, posts reach fediverse servers", async () => {
    await db().delete(schema.sitePages);
    const privacy = await (await call("/privacy")).text();
    expect(privacy).not.toContain("sign-in links");
    expect(privacy).toContain("fediverse");
    expect(await (await call("/terms")).text()).toContain("fediverse servers");
  });

  it("the admin menu leads to both page editors, and Manage Review shows whole reviews", async () => {
    const admin = await makeUser({ role: "admin" });
    const dashboard = await (await getPage("/dashboard", admin)).text();
    expect(dashboard).toContain('href="/dashboard/pages/privacy"');
    expect(dashboard).toContain('href="/dashboard/pages/terms"');
    expect((await getPage("/dashboard/pages/privacy", admin)).status).toBe(200);

    const long = `A long review. ${"Every word of it matters to the admin who approves it. ".repeat(8)}The end.`;
    await db()
      .insert(schema.reviews)
      .values({ id: newId(), name: "Long Writer", designation: "Reader", rating: 5, review: long, image: "" });
    const review = await (await getPage("/dashboard/manageReview?status=pending", admin)).text();
    expect(review).toContain("The end.");
    expect(review).not.toMatch(/line-clamp-2[^"]*">A long review/);
  });
});
