import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { createServices } from "#worker/services/index.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { mailbox, sendWith } from "../support/mail";

const PASSWORD = "correct horse";
let passwordHash: string;

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD, 1000);
});

const outboxFor = (address: string) =>
  env.DB.prepare("select kind, sent_at, last_error, attempts from mail_outbox where to_address = ?")
    .bind(address)
    .all<{ kind: string; sent_at: number | null; last_error: string | null; attempts: number }>();
const userCount = (id: string) => env.DB.prepare("select count(*) as n from users where id = ?").bind(id).first("n");

async function deleteOwnAccount(
  box: ReturnType<typeof mailbox>,
  user: { id: string; email: string },
  password = PASSWORD,
) {
  return sendWith(box.env(), "DELETE", "/api/auth/account", { password }, await asUser(user));
}

describe("the goodbye mail after deleting one's account", () => {
  it("tells a verified address which account went and what went with it, and that nothing more follows", async () => {
    const user = await makeUser({
      name: "Gus Goodbye",
      email: `gus-${newId(8).toLowerCase()}@example.com`,
      passwordHash,
    });
    const post = await makeBlog(user);
    await makeBlog(user, { status: "draft" });
    await env.DB.prepare("insert into comments (id, blog_id, user_id, body) values (?, ?, ?, ?)")
      .bind(newId(), post.id, user.id, "My own comment")
      .run();
    const box = mailbox();
    const res = await deleteOwnAccount(box, user);
    expect(res.status).toBe(200);

    const told = box.to(user.email);
    expect(told).toHaveLength(1);
    const mail = told[0]!;
    expect(mail.subject).toBe("Your Edge Blog account was deleted");
    for (const part of [mail.text!, mail.html!]) {
      expect(part).toContain(`your Edge Blog account for ${user.email} was deleted`);
      expect(part).toContain("your 2 posts (drafts and scheduled ones too)");
      expect(part).toContain("your 1 comment");
      expect(part).toContain("nothing more will be sent to you about it");
    }
    expect(mail.text).not.toContain("newsletter");
    // The account is gone; its goodbye stays in the outbox, sent.
    expect(await userCount(user.id)).toBe(0);
    expect((await outboxFor(user.email)).results).toEqual([
      expect.objectContaining({ kind: "account-deleted", sent_at: expect.any(Number) }),
    ]);
  });

  it("outlives the account while the mail service is down, and the retry sends it", async () => {
    const user = await makeUser({ email: `retry-${newId(8).toLowerCase()}@example.com`, passwordHash });
    const box = mailbox();
    box.fail();
    expect((await deleteOwnAccount(box, user)).status).toBe(200);
    expect(await userCount(user.id)).toBe(0);
    const [row] = (await outboxFor(user.email)).results;
    expect(row).toMatchObject({ kind: "account-deleted", sent_at: null, last_error: "Email Service unavailable" });

    box.recover();
    const sent = await createServices(box.env()).mailer.retryDue(Date.now() + 24 * 60 * 60 * 1000);
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(box.to(user.email)).toHaveLength(1);
    expect((await outboxFor(user.email)).results[0]!.sent_at).toEqual(expect.any(Number));
  });

  it("names the newsletter, which is separate from the account, when the address gets it", async () => {
    const user = await makeUser({ email: `reader-${newId(8).toLowerCase()}@example.com`, passwordHash });
    await env.DB.prepare(
      "insert into newsletter_subscriptions (id, email, state, confirmed_at) values (?, ?, 'confirmed', ?)",
    )
      .bind(newId(), user.email, Date.now())
      .run();
    const box = mailbox();
    expect((await deleteOwnAccount(box, user)).status).toBe(200);
    expect(box.to(user.email)[0]!.text).toContain(
      "newsletter you subscribed to at this address is separate from the account",
    );
  });

  it("sends nothing to an address its owner never proved", async () => {
    const user = await makeUser({
      email: `unproven-${newId(8).toLowerCase()}@example.com`,
      passwordHash,
      emailVerifiedAt: null,
    });
    const box = mailbox();
    expect((await deleteOwnAccount(box, user)).status).toBe(200);
    expect(await userCount(user.id)).toBe(0);
    expect(box.sent).toHaveLength(0);
    expect((await outboxFor(user.email)).results).toEqual([]);
  });

  it("sends nothing when the delete is refused", async () => {
    const user = await makeUser({ email: `kept-${newId(8).toLowerCase()}@example.com`, passwordHash });
    const box = mailbox();
    expect((await deleteOwnAccount(box, user, "not the password")).status).toBe(400);
    expect(box.sent).toHaveLength(0);
    expect((await outboxFor(user.email)).results).toEqual([]);
  });
});
