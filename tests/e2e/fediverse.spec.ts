import { createHash, createSign, generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";
import { ACCOUNTS, VIEWPORTS, screenshots, signIn } from "./support";

/** A post by ACCOUNTS.writer in the seed data (the one tests/e2e/comments.spec.ts comments on). */
const POST_ID = "dtsmsv96ei1r4bjkcypt";
const POST_PATH = `/blogs/${POST_ID}/cut-your-web-apps-load-time-in-half-a-practical-checklist`;

test.describe("the fediverse handle", () => {
  test("a writer page and About show the handle, a copy button and how to follow from Mastodon", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto("/allBlogs");
    const writerLink = page.locator('a[href^="/writers/"]').first();
    await writerLink.click();
    await expect(page).toHaveURL(/\/writers\/[0-9a-z]+/);
    const box = page.getByTestId("fediverse-handle");
    await expect(box.getByRole("heading", { name: "Follow from Mastodon" })).toBeVisible();
    await expect(box.locator("code")).toHaveText(/^@[a-z0-9_-]+@[^@\s]+$/);
    await expect(box).toContainText("paste this handle into your server's search box");
    await box.getByRole("button", { name: "Copy handle" }).click();
    await expect(box.getByRole("status")).toHaveText("Copied.");
    await screenshots(page, "fediverse-writer");

    // The handle is also the writer's actor, for any ActivityPub server.
    const handle = (await box.locator("code").textContent())!;
    const finger = await page.request.get(`/.well-known/webfinger?resource=acct:${handle.slice(1)}`);
    expect(finger.ok()).toBe(true);

    await page.goto("/about");
    await expect(page.getByTestId("fediverse-handle").locator("code")).toHaveText(/^@site@/);
  });
});

test.describe("the fediverse on the pages", () => {
  test("an admin blocks and unblocks a server on the dashboard's Fediverse page", async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto("/dashboard/fediverse");
    await expect(page.getByRole("heading", { level: 1, name: "Fediverse" })).toBeVisible();
    const host = `spam${Date.now().toString(36)}.example`;
    await page.getByLabel("Account URL, handle or server name").fill(host);
    await page.getByRole("button", { name: "Block", exact: true }).click();
    // A whole server is asked first, saying what it removes.
    await expect(page.getByRole("alertdialog")).toContainText(`Blocking ${host} blocks every account on it`);
    await page.getByRole("button", { name: "Block the whole server" }).click();
    const list = page.getByRole("list", { name: "Blocked accounts and servers" });
    await expect(list).toContainText(host);
    await expect(list).toContainText("Whole server");
    await screenshots(page, "fediverse-blocks");
    await page.getByRole("button", { name: `Unblock ${host}` }).click();
    await expect(page.getByText(host, { exact: true })).toHaveCount(0);
  });

  test("replies from a remote server: a public one shows with its author, one behind a content warning shows collapsed, a direct one reaches the writer alone", async ({
    page,
    baseURL,
  }) => {
    // The inbox queue acts on the replies; a batch that fails once is retried after the queue's 30 s delay.
    test.setTimeout(180_000);
    // The remote account: its actor document served from this machine (FEDERATION_ALLOW_PRIVATE in e2e).
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const server = createServer((req, res) => {
      res.setHeader("Content-Type", "application/activity+json");
      res.end(JSON.stringify(actorDoc));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const actorId = `${origin}/users/remi`;
    const actorDoc = {
      "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
      id: actorId,
      type: "Person",
      preferredUsername: "remi",
      name: "Remi Remote",
      url: `${origin}/@remi`,
      inbox: `${actorId}/inbox`,
      publicKey: {
        id: `${actorId}#main-key`,
        owner: actorId,
        publicKeyPem: publicKey.export({ type: "spki", format: "pem" }),
      },
    };
    // Signs a delivery as the remote account (draft-cavage, as Mastodon sends it) and POSTs it to the shared inbox.
    const deliver = async (activity: Record<string, unknown>) => {
      const body = JSON.stringify(activity);
      const inbox = new URL("/ap/inbox", baseURL);
      const date = new Date().toUTCString();
      const digest = `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
      const type = "application/activity+json";
      const signed = `(request-target): post /ap/inbox\nhost: ${inbox.host}\ndate: ${date}\ndigest: ${digest}\ncontent-type: ${type}`;
      const signature = createSign("RSA-SHA256").update(signed).sign(privateKey, "base64");
      const res = await page.request.post(inbox.href, {
        data: body,
        headers: {
          Date: date,
          Digest: digest,
          "Content-Type": type,
          Signature: `keyId="${actorId}#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest content-type",signature="${signature}"`,
        },
      });
      expect(res.status()).toBe(202);
      return ((await res.json()) as { result: string }).result;
    };
    const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
    const reply = (content: string, extra: Record<string, unknown> = {}) => {
      const noteId = `${origin}/notes/${Date.now()}${Math.random().toString(36).slice(2, 6)}`;
      return {
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${noteId}/activity`,
        type: "Create",
        actor: actorId,
        object: {
          id: noteId,
          type: "Note",
          attributedTo: actorId,
          inReplyTo: `${baseURL}/ap/posts/${POST_ID}`,
          content: `<p>${content}</p>`,
          ...extra,
        },
      };
    };
    try {
      // The inbox verifies a delivery, records it and answers 202 "queued"; the inbox queue then acts on it.
      const text = `Hello from the fediverse ${Date.now()}`;
      expect(await deliver(reply(text, { to: [PUBLIC] }))).toBe("queued");
      // Behind a content warning, as Mastodon's "CW" sends it.
      const hidden = `The butler did it ${Date.now()}`;
      expect(await deliver(reply(hidden, { to: [PUBLIC], summary: "Spoilers for the ending", sensitive: true }))).toBe(
        "queued",
      );
      // Addressed to the writer alone (the post's author on the fediverse, its attributedTo): never a comment.
      const article = await page.request.get(`/ap/posts/${POST_ID}`, {
        headers: { Accept: "application/activity+json" },
      });
      const { attributedTo: writerActor } = (await article.json()) as { attributedTo: string };
      const secret = `Just between us ${Date.now()}`;
      expect(await deliver(reply(secret, { to: [writerActor] }))).toBe("queued");

      const comments = page.locator("#comments");
      await expect(async () => {
        await page.goto(POST_PATH);
        await expect(comments.getByText(text)).toBeVisible({ timeout: 1000 });
        await expect(comments.locator("summary", { hasText: "Content warning: Spoilers" })).toBeVisible({
          timeout: 1000,
        });
      }).toPass({ timeout: 90_000 });
      await expect(comments).toContainText("Remi Remote");
      await expect(comments.locator(`a[href="${origin}/@remi"]`).first()).toBeVisible();
      const warning = comments.locator("summary", { hasText: "Content warning: Spoilers for the ending" });
      await expect(warning).toBeVisible();
      await expect(comments.getByText(hidden)).toBeHidden();
      await expect(page.getByText(secret)).toHaveCount(0);
      await warning.first().click();
      await expect(comments.getByText(hidden)).toBeVisible();
      await warning.first().scrollIntoViewIfNeeded();
      await screenshots(page, "fediverse-reply-content-warning");

      // The writer reads the private reply in their notifications (and nobody else anywhere).
      await signIn(page, ACCOUNTS.writer);
      await page.goto("/notifications");
      const item = page.locator("li", { hasText: secret });
      await expect(item).toContainText("Remi Remote replied privately to");
      await screenshots(page, "fediverse-private-reply");
    } finally {
      server.close();
    }
  });
});
