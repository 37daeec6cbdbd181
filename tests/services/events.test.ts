import { describe, expect, it } from "vitest";
import { createEvents } from "#worker/events/index.ts";
import { federationSubscriptions } from "#worker/services/federation/events.ts";
import { newsletterSubscriptions } from "#worker/services/newsletter/events.ts";

describe("domain events", () => {
  it("runs every subscriber of an event with its payload, and none of another event", async () => {
    const events = createEvents();
    const seen: string[] = [];
    events.subscribe({ "post.published": ({ blogId }) => void seen.push(`a:${blogId}`) });
    events.subscribe({
      "post.published": async ({ blogId }) => void seen.push(`b:${blogId}`),
      "post.changed": ({ blogId }) => void seen.push(`changed:${blogId}`),
    });
    await events.emit("post.published", { blogId: "p1" });
    expect(seen.sort()).toEqual(["a:p1", "b:p1"]);
  });

  it("a publication reaches the newsletter; a failing federation sync never fails the write that emitted it", async () => {
    const events = createEvents();
    const announced: string[] = [];
    events.subscribe(
      newsletterSubscriptions({
        announce: async (blogId) => {
          announced.push(blogId);
          return true;
        },
      }),
    );
    events.subscribe(
      federationSubscriptions({
        publishing: { sync: async () => Promise.reject(new Error("peer down")) } as never,
      }),
    );
    await events.emit("post.published", { blogId: "p2" });
    await expect(events.emit("post.changed", { blogId: "p2" })).resolves.toBeUndefined();
    expect(announced).toEqual(["p2"]);
  });

  it("an emit with no subscriber is a no-op", async () => {
    await expect(
      createEvents().emit("user.followed", { actor: null as never, writerId: "w" }),
    ).resolves.toBeUndefined();
  });
});
