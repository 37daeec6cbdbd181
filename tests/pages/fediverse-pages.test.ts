import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { createServices } from "#worker/services/index.ts";
import { makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { getPage, postForm } from "../support/pages";
import { receiveNow, recordingFederationQueue, remoteAccount, stubFediverse } from "../support/fediverse";
import { tag } from "../support/kernel";

describe("the admin's Fediverse page (blocks)", () => {
  it("lists blocks, adds an account or a server, refuses a bad target, and lifts a block; admins only", async () => {
    const admin = await makeUser({ role: "admin" });
    const user = await makeUser();
    expect((await getPage("/dashboard/fediverse", user)).status).toBe(403);
    const page = await (await getPage("/dashboard/fediverse", admin)).text();
    expect(page).toContain("Account URL, handle or server name");
    expect(page).toContain('href="/dashboard/fediverse"');

    const host = `spam${tag()}.example`;
    // A whole server is asked first, saying what it removes; the second button confirms.
    const asked = await postForm("/dashboard/fediverse", admin, { intent: "block", target: host });
    expect(asked.status).toBe(400);
    const question = await asked.text();
    expect(question).toContain(`Blocking ${host} blocks every account on it`);
    expect(question).toContain("their replies are removed");
    expect(question).toContain("Block the whole server");
    const added = await postForm("/dashboard/fediverse", admin, { intent: "block", target: host, confirm: "yes" });
    expect(added.status).toBe(302);
    expect(flashOf(added)?.title).toBe(`Blocked ${host}`);
    const account = `https://other${tag()}.example/users/troll`;
    await postForm("/dashboard/fediverse", admin, { intent: "block", target: account });
    const listed = await (await getPage("/dashboard/fediverse", admin)).text();
    expect(listed).toContain(host);
    expect(listed).toContain(account);
    expect(listed).toContain("Whole server");

    const bad = await postForm("/dashboard/fediverse", admin, { intent: "block", target: "not a server" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter an account URL");

    const lifted = await postForm("/dashboard/fediverse", admin, { intent: "unblock", target: host });
    expect(flashOf(lifted)?.title).toBe(`Unblocked ${host}`);
    expect(await (await getPage("/dashboard/fediverse", admin)).text()).not.toContain(`>${host}<`);
  });
});

describe("/fediverse: following remote accounts", () => {
  it("follows by URL, shows the account and its posts, and sends a reply", async () => {
    const reader = await makeUser();
    const alice = await remoteAccount(`a${tag()}.example`, "alice");
    stubFediverse([alice]);
    expect((await getPage("/fediverse", null)).status).toBe(302);
    const followed = await postForm("/fediverse", reader, { intent: "follow", target: alice.id });
    expect(followed.status).toBe(302);
    expect(flashOf(followed)?.title).toContain("Follow sent to @alice@");
    const queue = recordingFederationQueue();
    const services = createServices(
      { ...env, FEDERATION_QUEUE: queue.binding } as never,
      undefined,
      "https://blog.test",
    );
    const articleId = `${alice.id}/articles/${tag()}`;
    const create = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${articleId}/activity`,
      type: "Create",
      actor: alice.id,
      to: ["https://www.w3.org/ns/activitystreams#Public"],
      object: { id: articleId, type: "Article", name: "Remote headline", content: "<p>Remote body text</p>" },
    };
    expect(await receiveNow(services, queue, await alice.deliver("/ap/inbox", create))).toBe("stored");
    const page = await (await getPage("/fediverse", reader)).text();
    expect(page).toContain("Alice Remote");
    expect(page).toContain("Remote headline");
    expect(page).toContain("Remote body text");
    const replied = await postForm("/fediverse", reader, { intent: "reply", in_reply_to: articleId, body: "Hi Alice" });
    expect(flashOf(replied)?.title).toBe("Reply sent");
    expect(await (await getPage("/fediverse", reader)).text()).toContain("Hi Alice");
    const bad = await postForm("/fediverse", reader, { intent: "follow", target: "nonsense" });
    expect(bad.status).toBe(400);
  });
});
