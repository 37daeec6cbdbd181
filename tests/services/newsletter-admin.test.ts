import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Forbidden, Unauthorized } from "#worker/services/shared/errors.ts";
import { createServices } from "#worker/services/index.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { makeUser } from "../support/factories";

const services = () => createServices(env);
const actorOf = (row: Awaited<ReturnType<typeof makeUser>>): Actor => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role,
  photoURL: null,
});

describe("newsletter service: the admin's subscriber list", () => {
  it("lists every subscriber to an admin, newest first, with the address as stored", async () => {
    const stamp = Date.now().toString(36);
    const older = `Older-${stamp}@Example.com`;
    const newer = `newer-${stamp}@example.com`;
    await services().newsletter.subscribe(older);
    // created_at has millisecond resolution: make sure the second one is later.
    await new Promise((r) => setTimeout(r, 5));
    await services().newsletter.subscribe(newer);

    const admin = actorOf(await makeUser({ role: "admin" }));
    const list = await services().newsletter.list(admin);
    const mine = list.filter((s) => s.email.endsWith(`${stamp}@example.com`));
    expect(mine.map((s) => s.email)).toEqual([newer, older.toLowerCase()]);
    expect(mine[0]?._id).toMatch(/^[0-9a-z]{20}$/);
    expect(Date.parse(mine[0]!.created_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("refuses visitors and signed-in non-admins", async () => {
    const member = actorOf(await makeUser());
    await expect(services().newsletter.list(null)).rejects.toBeInstanceOf(Unauthorized);
    await expect(services().newsletter.list(member)).rejects.toBeInstanceOf(Forbidden);
  });
});
