import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ConfigError, configOf, parseConfig } from "#worker/config.ts";

const base = { SESSION_SECRET: "s".repeat(40) };

describe("the configuration, parsed once", () => {
  it("reads the pool's environment", () => {
    const config = configOf(env);
    expect(config.siteUrl).toBe("https://blog.test");
    expect(config.siteName).toBe("Edge Blog");
    expect(config.adminEmails).toEqual(["admin@example.com"]);
    expect(configOf(env)).toBe(config);
  });

  it("gives one fallback for each unset or blank value", () => {
    const config = parseConfig({ ...base, SITE_NAME: "  ", SITE_URL: "" });
    expect(config).toMatchObject({
      siteName: "Edge Blog",
      ownerName: "Your Name",
      siteUrl: null,
      mailFrom: null,
      google: null,
      adminEmails: [],
      federation: { siteHandle: "site", allowPrivate: false },
      imports: { allowPrivateHosts: false },
    });
  });

  it("keeps only the origin of SITE_URL and lowercases admin addresses", () => {
    const config = parseConfig({
      ...base,
      SITE_URL: " https://Blog.Example.com/some/path ",
      ADMIN_EMAILS: "A@x.com, b@y.org ,",
    });
    expect(config.siteUrl).toBe("https://blog.example.com");
    expect(config.adminEmails).toEqual(["a@x.com", "b@y.org"]);
  });

  it.each([
    [{ SESSION_SECRET: "" }, "SESSION_SECRET"],
    [{ SESSION_SECRET: "short" }, "SESSION_SECRET"],
    [{ ...base, SITE_URL: "blog.example.com" }, "SITE_URL"],
    [{ ...base, SITE_URL: "javascript:alert(1)" }, "SITE_URL"],
    [{ ...base, MAIL_FROM: "not an address" }, "MAIL_FROM"],
    [{ ...base, FEDERATION_ALLOW_PRIVATE: "yes" }, "FEDERATION_ALLOW_PRIVATE"],
  ])("refuses %o, naming the variable", (values, name) => {
    expect(() => parseConfig(values)).toThrow(ConfigError);
    expect(() => parseConfig(values)).toThrow(name);
  });

  it("needs both halves of Google sign-in", () => {
    expect(parseConfig({ ...base, GOOGLE_CLIENT_ID: "id" }).google).toBeNull();
    expect(parseConfig({ ...base, GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" }).google).toEqual({
      clientId: "id",
      clientSecret: "s",
    });
  });
});
