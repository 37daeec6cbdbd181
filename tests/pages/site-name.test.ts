import { describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { DEFAULT_BRAND, brandOf } from "#app/lib/site-name.ts";
import { DEFAULT_SITE_NAME, parseConfig } from "#worker/config.ts";
import { seo } from "#app/lib/seo.ts";
import { makeBlog, makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { call } from "../support/http";
import { getPage, withSession } from "../support/pages";

// This file runs in the vitest project "brand" (vitest.config.ts) with SITE_NAME = "Night Owl": a page,
// text or action that takes the brand from anywhere but the request shows the default name instead.
const SITE = "Night Owl";

describe("SITE_NAME drives the brand", () => {
  // First in the file, before any page renders in this isolate: an action that read a brand some
  // earlier render left behind would say the default here.
  it("the login welcome of a fresh isolate says SITE_NAME", async () => {
    const password = "Sunny-Garden-42";
    const user = await makeUser({ passwordHash: await hashPassword(password) });
    const body = new FormData();
    for (const [k, v] of Object.entries({ email: user.email, password, redirectTo: "/" })) body.append(k, v);
    const res = await call("/login", { method: "POST", body, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(flashOf(res)?.text).toBe(`Welcome to ${SITE}!`);
  });

  it("the RSS feed is titled with SITE_NAME", async () => {
    const xml = await (await call("/rss.xml")).text();
    expect(xml).toContain(`<title>${SITE}</title>`);
    expect(xml).not.toContain(DEFAULT_BRAND);
  });

  it("reads SITE_NAME, falling back to the default when unset or blank", () => {
    const secret = { SESSION_SECRET: "x".repeat(32) };
    expect(parseConfig({ ...secret, SITE_NAME: "Night Owl" }).siteName).toBe("Night Owl");
    expect(parseConfig({ ...secret, SITE_NAME: "  " }).siteName).toBe(DEFAULT_BRAND);
    expect(parseConfig(secret).siteName).toBe(DEFAULT_BRAND);
    expect(DEFAULT_SITE_NAME).toBe(DEFAULT_BRAND);
  });

  it("meta helpers read the brand from the root loader's data, never from module state", () => {
    const matches = [{ id: "root", data: { siteName: SITE } }];
    expect(brandOf(matches)).toBe(SITE);
    expect(brandOf([])).toBe(DEFAULT_BRAND);
    const tags = seo({
      brand: brandOf(matches),
      title: "About Us",
      description: "d",
      origin: "https://blog.test",
      path: "/about",
    });
    expect(tags).toContainEqual({ title: "About Us | Night Owl" });
    expect(tags).toContainEqual({ property: "og:site_name", content: "Night Owl" });
  });

  it("public pages show SITE_NAME in their title, Open Graph tags and top bar, and the owner in the footer", async () => {
    const html = await (await call("/about")).text();
    expect(html).toContain(`<title>About Us | ${SITE}</title>`);
    expect(html).toContain(`<meta property="og:site_name" content="${SITE}"/>`);
    expect(html).toMatch(/Why (<!-- -->)?Night Owl/);
    expect(html).toContain("Test Owner");
    expect(html).not.toContain(DEFAULT_BRAND);
  });

  it("/saved, a writer's page, the dashboard, /login and a 404 say SITE_NAME and never the default", async () => {
    const writer = await withSession(await makeUser({ name: "Brand Writer" }));
    await makeBlog(writer);
    const pages = {
      "/saved": await getPage("/saved", writer),
      [`/writers/${writer.id}`]: await getPage(`/writers/${writer.id}`, null),
      "/dashboard/writeBlogs": await getPage("/dashboard/writeBlogs", writer),
      "/login": await getPage("/login", null),
      "/no-such-page": await getPage("/no-such-page", null),
    };
    for (const [path, res] of Object.entries(pages)) {
      const html = await res.text();
      expect(html, path).toMatch(new RegExp(`<title>[^<]*${SITE}</title>`));
      expect(html, path).not.toContain(DEFAULT_BRAND);
    }
  });
});

describe("the newsletter box", () => {
  // The newsletter now sends: each post as it is published, after a confirmation, with a
  // one-click unsubscribe. The box promises exactly that, and no weekly digest the site does not send.
  it("promises what the newsletter does: each new post, a confirmation, a one-click unsubscribe", async () => {
    const html = await (await call("/")).text();
    expect(html).toContain("Subscribe to Our Newsletter");
    expect(html).toContain("Every new post in your inbox as it is published");
    expect(html).toMatch(/one-click unsubscribe/);
    expect(html).not.toMatch(/inbox every week/i);
  });
});
