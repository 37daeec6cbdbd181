import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ConfigError, configOf, parseConfig } from "#worker/config.ts";
import worker from "#worker/index.ts";

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

  it("takes a local Stripe stand-in only with test keys, never with a live one", () => {
    const stripe = { STRIPE_WEBHOOK_SECRET: "whsec_abc", STRIPE_API_BASE: "http://127.0.0.1:12111" };
    expect(parseConfig({ ...base, ...stripe, STRIPE_SECRET_KEY: "sk_test_abc" }).stripe?.api).toEqual({
      host: "127.0.0.1",
      port: 12111,
      protocol: "http",
    });
    for (const key of ["sk_live_abc", "rk_live_abc"])
      expect(() => parseConfig({ ...base, ...stripe, STRIPE_SECRET_KEY: key })).toThrow("STRIPE_API_BASE");
    expect(
      parseConfig({ ...base, STRIPE_SECRET_KEY: "sk_live_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc" }).stripe?.api,
    ).toBeNull();
  });

  it("a deployment with a bad value answers with what to fix, not a failure somewhere later", async () => {
    const ctx = createExecutionContext();
    const res = await worker.fetch!(
      new Request("https://blog.test/") as Parameters<NonNullable<typeof worker.fetch>>[0],
      { ...env, SITE_URL: "blog.example.com" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(500);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await res.text()).toContain("SITE_URL must be an http(s) URL");
  });
});
