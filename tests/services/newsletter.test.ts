import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MSG } from "#app/lib/messages.ts";
import { schema } from "#worker/db.ts";
import { RateLimited, ValidationError } from "#worker/services/shared/errors.ts";
import { SUBSCRIPTIONS_PER_HOUR } from "#worker/services/newsletter/model.ts";
import { createServices } from "#worker/services/index.ts";
import { db } from "../support/factories";
import { stopClock } from "../support/clock";

const newsletter = () => createServices(env).newsletter;
let n = 0;
const uniqueEmail = () => `reader-${Date.now().toString(36)}-${n++}@example.com`;

const rowsFor = async (email: string) =>
  db().select().from(schema.newsletterSubscriptions).where(eq(schema.newsletterSubscriptions.email, email));
const total = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)` })
      .from(schema.newsletterSubscriptions)
  )[0]?.n ?? 0;

describe("newsletter service", () => {
  it("stores an address once however often and in whatever case it is sent", async () => {
    const email = uniqueEmail();
    await expect(newsletter().subscribe(email)).resolves.toEqual({ subscribed: true });
    await expect(newsletter().subscribe(email.toUpperCase())).resolves.toEqual({ subscribed: true });
    await expect(newsletter().subscribe(`  ${email.replace("reader", "Reader")}  `)).resolves.toEqual({
      subscribed: true,
    });
    const rows = await rowsFor(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.email).toBe(email);
  });

  it("keeps one row when the same address arrives many times at once", async () => {
    const email = uniqueEmail();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => newsletter().subscribe(i % 2 ? email.toUpperCase() : email)),
    );
    expect(await rowsFor(email)).toHaveLength(1);
  });

  it("refuses unusable input with the spec's message and stores nothing", async () => {
    const before = await total();
    const bad: unknown[] = [
      "",
      "   ",
      "not-an-email",
      "a@b",
      "two@@example.com",
      undefined,
      null,
      42,
      {},
      ["someone@example.com"],
      `${"a".repeat(1_000_000)}@example.com`,
      `someone@${"b".repeat(300)}.com`,
    ];
    for (const input of bad) {
      const err = await newsletter()
        .subscribe(input)
        .catch((e: unknown) => e);
      expect(err, JSON.stringify(input)?.slice(0, 40)).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).fields).toEqual({ email: MSG.newsletter.empty });
    }
    expect(await total()).toBe(before);
  });

  it("limits how many addresses one client may submit in an hour, and stores nothing past it", async () => {
    stopClock();
    // Real addresses: anything else is the one shared "unknown" client (worker/services/client-address.ts).
    const octet = () => Math.floor(Math.random() * 250);
    const client = `198.51.${octet()}.${octet()}`;
    for (let i = 0; i < SUBSCRIPTIONS_PER_HOUR; i++) await newsletter().subscribe(uniqueEmail(), client);
    const refused = uniqueEmail();
    await expect(newsletter().subscribe(refused, client)).rejects.toBeInstanceOf(RateLimited);
    expect(await rowsFor(refused)).toHaveLength(0);
    // Another client is not affected.
    const other = uniqueEmail();
    await newsletter().subscribe(other, `203.0.${octet()}.${octet()}`);
    expect(await rowsFor(other)).toHaveLength(1);
  });
});
