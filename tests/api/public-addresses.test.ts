import { describe, expect, it } from "vitest";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";
import { getPage, postForm } from "../support/pages";

/**
 * Issue 42, finding 5: a post record's `email` is its writer's sign-in address, so it goes only to the
 * writer and admins; everyone else reads the writer's public contact address ("" by default), and
 * `GET /api/blog?email=` tells others nothing about sign-in addresses (decision 048 supersedes 026).
 */

type Rec = { _id: string; email: string };
const n = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function recordsOf(path: string, headers: Record<string, string> = {}): Promise<Rec[]> {
  const body = await json<Rec[] | Rec>(await call(path, { headers }));
  return Array.isArray(body) ? body : [body];
}

describe("post records carry a sign-in address only for their writer and admins", () => {
  it("visitors and other readers never see it; the writer and an admin do; a public contact address shows in its place", async () => {
    const writer = await makeUser({ email: `signin-${n()}@private.example` });
    const reader = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const post = await makeBlog(writer);
    const paths = ["/api/blogs", `/api/blogs/${post.id}`, `/api/blog/${post.id}`, "/api/latest-blogs"];
    for (const headers of [{}, await asUser(reader)]) {
      for (const path of paths) {
        const res = await call(path, { headers });
        const text = await res.clone().text();
        expect([path, text.includes(writer.email)]).toEqual([path, false]);
        const mine = (await recordsOf(path, headers)).find((r) => r._id === post.id);
        expect([path, mine?.email]).toEqual([path, ""]);
      }
    }
    for (const who of [writer, admin]) {
      const [own] = await recordsOf(`/api/blogs/${post.id}`, await asUser(who));
      expect(own!.email).toBe(writer.email);
    }

    // The writer chooses an address to show.
    const contact = `hello-${n()}@public.example`;
    const set = await send(
      "PUT",
      "/api/auth/contact-email",
      { contactEmail: contact.toUpperCase() },
      await asUser(writer),
    );
    expect(set.status).toBe(200);
    expect(await json(set)).toEqual({ modifiedCount: 1 });
    for (const path of paths) {
      const mine = (await recordsOf(path)).find((r) => r._id === post.id);
      expect([path, mine?.email]).toEqual([path, contact]);
    }
    const bad = await send("PUT", "/api/auth/contact-email", { contactEmail: "not an address" }, await asUser(writer));
    expect(bad.status).toBe(400);
    // Empty again: none shown.
    await send("PUT", "/api/auth/contact-email", { contactEmail: "" }, await asUser(writer));
    expect((await recordsOf(`/api/blogs/${post.id}`))[0]!.email).toBe("");
  });
});

describe("GET /api/blog?email= answers others only for a public contact address", () => {
  it("a sign-in address tells a visitor nothing; the writer and an admin still find their posts by it", async () => {
    const writer = await makeUser({ email: `author-${n()}@private.example` });
    const post = await makeBlog(writer);
    const byEmail = (email: string, headers: Record<string, string> = {}) =>
      call(`/api/blog?email=${encodeURIComponent(email)}`, { headers });
    const anonymous = await byEmail(writer.email);
    expect(anonymous.status).toBe(200);
    expect(await json(anonymous)).toEqual([]);
    expect(anonymous.headers.get("X-Total-Count")).toBe("0");
    expect(await json(await byEmail(writer.email, await asUser(await makeUser())))).toEqual([]);
    for (const who of [writer, await makeUser({ role: "admin" })]) {
      const found = await json<Rec[]>(await byEmail(writer.email, await asUser(who)));
      expect(found.map((r) => r._id)).toEqual([post.id]);
    }
    const contact = `posts-${n()}@public.example`;
    await send("PUT", "/api/auth/contact-email", { contactEmail: contact }, await asUser(writer));
    const published = await json<Rec[]>(await byEmail(contact));
    expect(published.map((r) => [r._id, r.email])).toEqual([[post.id, contact]]);
  });
});

describe("Settings: the public contact address", () => {
  it("is set and cleared from the settings page, and a bad address is refused on its field", async () => {
    const writer = await makeUser();
    const page = await (await getPage("/settings", writer)).text();
    expect(page).toContain("Public contact address");
    const contact = `page-${n()}@public.example`;
    const saved = await postForm("/settings", writer, { intent: "set-contact-email", contactEmail: contact });
    expect(saved.status).toBe(302);
    expect(await (await getPage("/settings", writer)).text()).toContain(`value="${contact}"`);
    const bad = await postForm("/settings", writer, { intent: "set-contact-email", contactEmail: "nope" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a valid email");
    await postForm("/settings", writer, { intent: "set-contact-email", contactEmail: "" });
    expect(await (await getPage("/settings", writer)).text()).not.toContain(contact);
  });
});
