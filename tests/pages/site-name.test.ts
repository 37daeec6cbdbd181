import { afterEach, describe, expect, it } from "vitest";
import { MSG } from "#app/lib/messages.ts";
import { seo } from "#app/lib/seo.ts";
import { brand, DEFAULT_BRAND, setBrand, siteName } from "#app/lib/site-name.ts";
import { call } from "../support/http";

describe("SITE_NAME drives the brand", () => {
  afterEach(() => setBrand(DEFAULT_BRAND));

  it("reads SITE_NAME, falling back to the default when unset or blank", () => {
    expect(siteName({ SITE_NAME: "Night Owl" })).toBe("Night Owl");
    expect(siteName({ SITE_NAME: "  " })).toBe(DEFAULT_BRAND);
    expect(siteName({})).toBe(DEFAULT_BRAND);
  });

  it("titles, Open Graph site name and texts follow the brand the root sets", () => {
    setBrand("Night Owl");
    expect(brand()).toBe("Night Owl");
    const tags = seo({ title: "About Us", description: "d", origin: "https://blog.test", path: "/about" });
    expect(tags).toContainEqual({ title: "About Us | Night Owl" });
    expect(tags).toContainEqual({ property: "og:site_name", content: "Night Owl" });
    expect(MSG.login.successText).toBe("Welcome to Night Owl!");
  });

  it("pages show the configured SITE_NAME in their title and top bar, and the owner in the footer", async () => {
    const html = await (await call("/about")).text();
    expect(html).toContain("<title>About Us | Edge Blog</title>");
    expect(html).toContain("Test Owner");
  });
});

describe("the newsletter box", () => {
  // The newsletter now sends (issue 21): each post as it is published, after a confirmation, with a
  // one-click unsubscribe. The box promises exactly that, and no weekly digest the site does not send.
  it("promises what the newsletter does: each new post, a confirmation, a one-click unsubscribe", async () => {
    const html = await (await call("/")).text();
    expect(html).toContain("Subscribe to Our Newsletter");
    expect(html).toContain("Every new post in your inbox as it is published");
    expect(html).toMatch(/one-click unsubscribe/);
    expect(html).not.toMatch(/inbox every week/i);
  });
});
