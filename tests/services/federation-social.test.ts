import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { createServices } from "#worker/services/index.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { makeUser } from "../support/factories";
import { recordingFederationQueue, remoteAccount, stubFediverse } from "../support/fediverse";

const AS = "https://www.w3.org/ns/activitystreams";
let stub: ReturnType<typeof stubFediverse> | null = null;
afterEach(() => {
  stub?.restore();
  stub = null;
});

let n = 0;
const tag = () => `${Date.now().toString(36)}${(n++).toString(36)}`;

function world() {
  const queue = recordingFederationQueue();
  const services = createServices({ ...env, FEDERATION_QUEUE: queue.binding } as never, undefined, "https://blog.test");
  const drain = () => queue.drain((job) => services.federation.runJob(job));
  return { queue, services, drain };
}

async function writer(name = `Ada ${tag()}`) {
  const u = await makeUser({ name });
  const actor: Actor = { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
  return { user: u, actor };
}

const post = (extra: Record<string, unknown> = {}) => ({
  title: `Federated ${tag()}`,
  short_description: "What happened this week.",
  blog_details: "The **whole** story.",
  category: "Technology",
  date_time: "2026-11-20T10:00:00.000Z",
  image: "/images/cover-0001.png",
  ...extra,
});

describe("a reply from the fediverse", () => {
  it("becomes a comment and its writer is notified, as of any comment", async () => {
    const w = world();
    const { user, actor } = await writer();
    const bob = await remoteAccount(`r${tag()}.example`, "bob");
    stub = stubFediverse([bob]);
    const { insertedId: blogId } = await w.services.blogs.create(actor, post());
    await w.drain();
    const noteId = `${bob.id}/statuses/${tag()}`;
    const create = {
      "@context": AS,
      id: `${noteId}/activity`,
      type: "Create",
      actor: bob.id,
      object: {
        id: noteId,
        type: "Note",
        attributedTo: bob.id,
        inReplyTo: `https://blog.test/ap/posts/${blogId}`,
        content: "<p>Nice one</p>",
      },
    };
    expect(await w.services.federation.inbox.receive(await bob.deliver("/ap/inbox", create))).toBe("commented");
    const mine = await w.services.notifications.list(actor);
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0]).toMatchObject({ kind: "comment", blog: { _id: blogId } });
    expect(mine.items[0]!.text).toContain("commented on");
    expect(await w.services.notifications.unread(actor)).toBe(1);
    // The same note delivered again is neither a second comment nor a second notification.
    await w.services.federation.inbox.receive(await bob.deliver("/ap/inbox", create));
    expect((await w.services.notifications.list(actor)).items).toHaveLength(1);
    expect(user.id).toBeTruthy();
  });
});
