import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { db, makeBlog, makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { call, json } from "../support/http";
import { getPage, postForm } from "../support/pages";
import { remoteAccount, stubFediverse } from "../support/fediverse";
import { tag } from "../support/kernel";

describe("the fediverse on the pages", () => {
  it("the writer page shows the handle with a copy button and the follow instructions; About shows the site's", async () => {
    const user = await makeUser({ name: `Grace Page ${tag()}` });
    const page = await (await getPage(`/writers/${user.id}`, null)).text();
    const handle = `@grace-page-${user.name.split(" ").pop()}@blog.test`;
    expect(page).toContain(handle);
    expect(page).toContain("Follow from Mastodon");
    expect(page).toContain("Copy handle");
    const about = await (await getPage("/about", null)).text();
    expect(about).toContain("@site@blog.test");
    expect(about).toContain("Follow from Mastodon");
  });

  it("/settings changes the handle (a taken one is refused) and the writer page shows the new one", async () => {
    const user = await makeUser({ name: `Settings Writer ${tag()}` });
    const other = await makeUser({ name: `Other Writer ${tag()}` });
    const theirs = await createServices(env).federation.handleOf(other.id);
    const settings = await (await getPage("/settings", user)).text();
    expect(settings).toContain("Fediverse handle");
    const wanted = `gw-${tag()}`;
    const ok = await postForm("/settings", user, { intent: "set-handle", handle: wanted });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/settings#fediverse");
    expect(flashOf(ok)?.title).toBe("Handle saved");
    expect(await (await getPage(`/writers/${user.id}`, null)).text()).toContain(`@${wanted}@blog.test`);
    const taken = await postForm("/settings", user, {
      intent: "set-handle",
      handle: theirs!.split("@")[1]!,
    });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("That handle is taken.");
  });

  it("a federated reply shows under the post with its remote author's name, handle and profile link", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer);
    const bob = await remoteAccount(`page${tag()}.example`, "bob");
    stubFediverse([bob]);
    // The post went out (so likes count); a reply arrives at the shared inbox.
    await createServices(env, undefined, "https://blog.test").federation.publishing.sync(blog.id);
    const noteId = `${bob.id}/statuses/${tag()}`;
    const create = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${noteId}/activity`,
      type: "Create",
      actor: bob.id,
      // A public reply (only those become comments; a direct one reaches the writer alone).
      to: ["https://www.w3.org/ns/activitystreams#Public"],
      object: {
        id: noteId,
        type: "Note",
        attributedTo: bob.id,
        inReplyTo: `https://blog.test/blogs/${blog.id}`,
        to: ["https://www.w3.org/ns/activitystreams#Public"],
        content: "<p>Hello from Mastodon</p>",
      },
    };
    const delivery = await bob.deliver("/ap/inbox", create);
    const res = await call(delivery.url, { method: "POST", headers: delivery.headers, body: JSON.stringify(create) });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ result: "queued" });
    // The queue's consumer acts on it (run here at once; the local queue may run it too: it acts once).
    const ran = await createServices(env, undefined, "https://blog.test").federation.runJob({
      kind: "inbox",
      authorId: bob.id,
      activityId: create.id,
    });
    expect(["commented", "duplicate"]).toContain(ran);
    for (let i = 0; i < 50; i++) {
      const [row] = await db().select().from(schema.apInbox).where(eq(schema.apInbox.activityId, create.id));
      if (row?.result) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const page = await (await call(`/blogs/${blog.id}`, { headers: { Accept: "text/html" } })).text();
    expect(page).toContain("Hello from Mastodon");
    expect(page).toContain("Bob Remote");
    expect(page).toContain(`@bob@${new URL(bob.id).host} · via the fediverse`);
    expect(page).toContain(`href="${bob.doc.url as string}"`);
    const api = await json<{ author: { name: string; remote?: { url: string } } }[]>(
      await call(`/api/blogs/${blog.id}/comments`),
    );
    expect(api[0]!.author).toMatchObject({ name: "Bob Remote", remote: { url: bob.doc.url } });

    // An admin deletes it like any comment.
    const comment = await db().select().from(schema.apComments).where(eq(schema.apComments.noteId, noteId));
    const admin = await makeUser({ role: "admin" });
    const removed = await createServices(env).comments.remove(
      { id: admin.id, name: admin.name, email: admin.email, role: "admin", photoURL: null },
      comment[0]!.commentId,
    );
    expect(removed).toEqual({ deletedCount: 1 });
  });
});
