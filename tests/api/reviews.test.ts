import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { Review } from "#worker/services/reviews.ts";
import { asUser, db, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";

const valid = () => ({
  name: "Ada Lovelace",
  designation: "Engineer",
  rating: 4.5,
  review: "A lovely place to write.",
  image: "https://example.com/ada.png",
});

async function makeReview(overrides: Partial<typeof schema.reviews.$inferInsert> = {}) {
  const row = {
    id: newId(),
    name: "Reviewer",
    designation: "Reader",
    rating: 3,
    review: "Fine.",
    image: "https://example.com/r.png",
    status: "approved" as const,
    ...overrides,
  };
  await db().insert(schema.reviews).values(row);
  return row;
}

const reviewRow = (id: string) => env.DB.prepare("select * from reviews where id = ?").bind(id).first();
const reviewsBy = (userId: string) =>
  env.DB.prepare("select count(*) as n from reviews where user_id = ?")
    .bind(userId)
    .first<{ n: number }>()
    .then((r) => r?.n);

/** The four callers of the authorization matrix: anonymous, a user, another user (the review's writer), an admin. */
async function cast() {
  const writer = await makeUser();
  const user = await makeUser();
  const admin = await makeUser({ role: "admin" });
  return {
    writer,
    anonymous: {} as Record<string, string>,
    asWriter: await asUser(writer),
    asUser: await asUser(user),
    asAdmin: await asUser(admin),
  };
}

describe("GET /api/review", () => {
  it("is public and lists reviews newest first with exactly the contract's fields", async () => {
    const older = await makeReview({ name: "Older", createdAt: Date.now() - 60_000 });
    const newer = await makeReview({ name: "Newer", createdAt: Date.now() });
    const res = await call("/api/review");
    expect(res.status).toBe(200);
    const list = await json<Review[]>(res);
    const ids = list.map((r) => r._id);
    expect(ids.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(list.find((r) => r._id === older.id)).toEqual({
      _id: older.id,
      name: "Older",
      designation: "Reader",
      rating: 3,
      review: "Fine.",
      image: "https://example.com/r.png",
      status: "approved",
    });
  });

  it("lists approved reviews only; other statuses are for admins", async () => {
    const pending = await makeReview({ name: "Waiting", status: "pending" });
    const hidden = await makeReview({ name: "Hidden", status: "hidden" });
    const shown = await makeReview({ name: "Shown" });
    const ids = (await json<Review[]>(await call("/api/review?limit=50"))).map((r) => r._id);
    expect(ids).toContain(shown.id);
    expect(ids).not.toContain(pending.id);
    expect(ids).not.toContain(hidden.id);
    const { anonymous, asUser: other, asAdmin } = await cast();
    // Anonymous answers are the shared copy, keyed without `status` (worker/cache/policy.ts): approved only.
    const anon = await call("/api/review?status=pending&limit=50", { headers: anonymous });
    expect(anon.status).toBe(200);
    expect((await json<Review[]>(anon)).map((r) => r._id)).not.toContain(pending.id);
    expect((await call("/api/review?status=all", { headers: other })).status).toBe(403);
    const queue = await json<Review[]>(await call("/api/review?status=pending&limit=50", { headers: asAdmin }));
    expect(queue.map((r) => r._id)).toContain(pending.id);
    expect(queue.every((r) => r.status === "pending")).toBe(true);
  });
});

describe("PUT /api/review/{id}/status (admin approval)", () => {
  it("a new review waits as pending until an admin approves it; hidden takes it off again", async () => {
    const { asWriter, asUser: other, asAdmin } = await cast();
    const res = await send("POST", "/api/review", { ...valid(), name: `Approve me ${newId()}` }, asWriter);
    const { insertedId } = await json<{ insertedId: string }>(res);
    expect((await reviewRow(insertedId))?.status).toBe("pending");
    const listed = async () =>
      (await json<Review[]>(await call("/api/review?limit=50"))).some((r) => r._id === insertedId);
    expect(await listed()).toBe(false);

    expect((await send("PUT", `/api/review/${insertedId}/status`, { status: "approved" }, other)).status).toBe(403);
    expect((await send("PUT", `/api/review/${insertedId}/status`, { status: "approved" })).status).toBe(401);
    expect(await listed()).toBe(false);

    const approved = await send("PUT", `/api/review/${insertedId}/status`, { status: "approved" }, asAdmin);
    expect(approved.status).toBe(200);
    expect(await json(approved)).toEqual({ modifiedCount: 1 });
    expect(await listed()).toBe(true);
    const again = await send("PUT", `/api/review/${insertedId}/status`, { status: "approved" }, asAdmin);
    expect(await json(again)).toEqual({ modifiedCount: 0 });

    await send("PUT", `/api/review/${insertedId}/status`, { status: "hidden" }, asAdmin);
    expect(await listed()).toBe(false);
    expect((await reviewRow(insertedId))?.status).toBe("hidden");
  });

  it("refuses an unknown status with 400 and unknown ids with 404", async () => {
    const { asAdmin } = await cast();
    const review = await makeReview({ status: "pending" });
    const bad = await send("PUT", `/api/review/${review.id}/status`, { status: "published" }, asAdmin);
    expect(bad.status).toBe(400);
    expect((await json<{ error: { fields: Record<string, string> } }>(bad)).error.fields.status).toBe(
      "Status must be pending, approved or hidden.",
    );
    expect((await reviewRow(review.id))?.status).toBe("pending");
    expect((await send("PUT", `/api/review/${newId()}/status`, { status: "approved" }, asAdmin)).status).toBe(404);
  });
});

describe("GET /api/review/{id} (admin preload)", () => {
  it("answers the review to an admin only", async () => {
    const { anonymous, asWriter, asUser: other, asAdmin } = await cast();
    const review = await makeReview();
    expect((await call(`/api/review/${review.id}`, { headers: anonymous })).status).toBe(401);
    expect((await call(`/api/review/${review.id}`, { headers: asWriter })).status).toBe(403);
    expect((await call(`/api/review/${review.id}`, { headers: other })).status).toBe(403);
    const res = await call(`/api/review/${review.id}`, { headers: asAdmin });
    expect(res.status).toBe(200);
    expect((await json<Review>(res))._id).toBe(review.id);
  });

  it("answers 404 for unknown and malformed ids", async () => {
    const { asAdmin } = await cast();
    expect((await call(`/api/review/${newId()}`, { headers: asAdmin })).status).toBe(404);
    expect((await call("/api/review/..%2F..%2Fetc", { headers: asAdmin })).status).toBe(404);
    expect((await call(`/api/review/${"x".repeat(500)}`, { headers: asAdmin })).status).toBe(404);
  });
});

describe("POST /api/review", () => {
  it("refuses anonymous callers and stores nothing", async () => {
    const marker = `Anon ${newId()}`;
    const res = await send("POST", "/api/review", { ...valid(), name: marker });
    expect(res.status).toBe(401);
    const n = await env.DB.prepare("select count(*) as n from reviews where name = ?")
      .bind(marker)
      .first<{ n: number }>();
    expect(n?.n).toBe(0);
  });

  it("lets a signed-in user send feedback, recording who sent it", async () => {
    const user = await makeUser();
    const res = await send("POST", "/api/review", valid(), await asUser(user));
    expect(res.status).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(res);
    const row = await reviewRow(insertedId);
    expect(row).toMatchObject({
      user_id: user.id,
      name: "Ada Lovelace",
      designation: "Engineer",
      rating: 4.5,
      review: "A lovely place to write.",
      status: "pending",
    });
  });

  it("lets an admin send feedback too", async () => {
    const admin = await makeUser({ role: "admin" });
    expect((await send("POST", "/api/review", valid(), await asUser(admin))).status).toBe(201);
  });

  it("defaults the rating to 0 when it is missing, null or empty", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    for (const rating of [undefined, null, ""]) {
      const res = await send("POST", "/api/review", { ...valid(), rating }, headers);
      expect(res.status).toBe(201);
      const row = await reviewRow((await json<{ insertedId: string }>(res)).insertedId);
      expect(row?.rating).toBe(0);
    }
  });

  it("accepts an uploaded /images/ path as the image", async () => {
    const user = await makeUser();
    const res = await send(
      "POST",
      "/api/review",
      { ...valid(), image: "/images/abcdefgh12345678.png" },
      await asUser(user),
    );
    expect(res.status).toBe(201);
  });

  it("requires name, designation, review and image, with a message for each", async () => {
    const user = await makeUser();
    const res = await send("POST", "/api/review", { rating: 3 }, await asUser(user));
    expect(res.status).toBe(400);
    const body = await json<{ error: { code: string; fields: Record<string, string> } }>(res);
    expect(body.error.code).toBe("validation-failed");
    expect(body.error.fields).toEqual({
      name: "Name is required.",
      designation: "Designation is required.",
      review: "Review is required.",
      image: "Image is required.",
    });
    expect(await reviewsBy(user.id)).toBe(0);
  });

  it("treats blank text as missing", async () => {
    const user = await makeUser();
    const res = await send("POST", "/api/review", { ...valid(), name: "   ", review: "" }, await asUser(user));
    expect(res.status).toBe(400);
    expect((await json<{ error: { fields: Record<string, string> } }>(res)).error.fields).toEqual({
      name: "Name is required.",
      review: "Review is required.",
    });
  });

  it("keeps ratings between 0 and 5 in half steps", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    const cases: [unknown, string][] = [
      [5.5, "Rating must be between 0 and 5."],
      [-0.5, "Rating must be between 0 and 5."],
      [2.3, "Rating must be in half steps."],
      ["lots", "Rating must be a number."],
      [{ value: 3 }, "Rating must be a number."],
    ];
    for (const [rating, message] of cases) {
      const res = await send("POST", "/api/review", { ...valid(), rating }, headers);
      expect(res.status).toBe(400);
      expect((await json<{ error: { fields: Record<string, string> } }>(res)).error.fields.rating).toBe(message);
    }
    expect(await reviewsBy(user.id)).toBe(0);
  });

  it("refuses image links that are not http(s) or our own uploads", async () => {
    const user = await makeUser();
    for (const image of [
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "/images/../secret.png",
      "ftp://example.com/a.png",
    ]) {
      const res = await send("POST", "/api/review", { ...valid(), image }, await asUser(user));
      expect(res.status).toBe(400);
      expect((await json<{ error: { fields: Record<string, string> } }>(res)).error.fields.image).toBe(
        "Image must be an http(s) link or an uploaded image.",
      );
    }
    expect(await reviewsBy(user.id)).toBe(0);
  });

  it("never answers 500 for malformed input", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    const bodies: unknown[] = [
      "{not json",
      "[]",
      "null",
      "42",
      { name: 42, designation: ["x"], review: { a: 1 }, image: true, rating: 3 },
      { ...valid(), name: "n".repeat(100_000) },
      { ...valid(), review: "r".repeat(1_001) },
    ];
    for (const body of bodies) {
      const res = await send("POST", "/api/review", body, headers);
      expect(res.status).toBe(400);
    }
    const text = await call("/api/review", {
      method: "POST",
      headers: { ...headers, "Content-Type": "text/plain" },
      body: "hi",
    });
    expect(text.status).toBe(415);
    expect(await reviewsBy(user.id)).toBe(0);
  });
});

describe("PUT /api/review/{id}", () => {
  const changes = { name: "Edited Name", designation: "Edited Role", review: "Edited text." };

  it("refuses everyone but an admin and changes nothing", async () => {
    const { writer, anonymous, asWriter, asUser: other } = await cast();
    const review = await makeReview({ userId: writer.id });
    const before = await reviewRow(review.id);
    expect((await send("PUT", `/api/review/${review.id}`, changes, anonymous)).status).toBe(401);
    expect((await send("PUT", `/api/review/${review.id}`, changes, asWriter)).status).toBe(403);
    expect((await send("PUT", `/api/review/${review.id}`, changes, other)).status).toBe(403);
    expect(await reviewRow(review.id)).toEqual(before);
  });

  it("lets an admin edit name, designation and review, and answers 0 when nothing changed", async () => {
    const { asAdmin } = await cast();
    const review = await makeReview({ rating: 2.5, image: "https://example.com/keep.png" });
    const res = await send("PUT", `/api/review/${review.id}`, changes, asAdmin);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ modifiedCount: 1 });
    expect(await reviewRow(review.id)).toMatchObject({
      name: "Edited Name",
      designation: "Edited Role",
      review: "Edited text.",
      rating: 2.5,
      image: "https://example.com/keep.png",
    });
    const again = await send("PUT", `/api/review/${review.id}`, { ...changes, name: "  Edited Name  " }, asAdmin);
    expect(await json(again)).toEqual({ modifiedCount: 0 });
  });

  it("ignores rating and image in the edit (they are not part of the edit form)", async () => {
    const { asAdmin } = await cast();
    const review = await makeReview({ name: "Same", designation: "Same", review: "Same", rating: 1 });
    const res = await send(
      "PUT",
      `/api/review/${review.id}`,
      { name: "Same", designation: "Same", review: "Same", rating: 5, image: "https://evil.example/x.png" },
      asAdmin,
    );
    expect(await json(res)).toEqual({ modifiedCount: 0 });
    expect(await reviewRow(review.id)).toMatchObject({ rating: 1, image: review.image });
  });

  it("requires name, designation and review", async () => {
    const { asAdmin } = await cast();
    const review = await makeReview();
    const before = await reviewRow(review.id);
    const res = await send("PUT", `/api/review/${review.id}`, { name: "", designation: "Only this" }, asAdmin);
    expect(res.status).toBe(400);
    expect((await json<{ error: { fields: Record<string, string> } }>(res)).error.fields).toEqual({
      name: "Name is required.",
      review: "Review is required.",
    });
    expect(await reviewRow(review.id)).toEqual(before);
  });

  it("answers 404 for unknown or malformed ids and 400 for malformed bodies", async () => {
    const { asAdmin } = await cast();
    expect((await send("PUT", `/api/review/${newId()}`, changes, asAdmin)).status).toBe(404);
    expect((await send("PUT", "/api/review/NOT-AN-ID!", changes, asAdmin)).status).toBe(404);
    const review = await makeReview();
    expect((await send("PUT", `/api/review/${review.id}`, "{oops", asAdmin)).status).toBe(400);
    expect(
      (await send("PUT", `/api/review/${review.id}`, { name: ["a"], designation: 1, review: null }, asAdmin)).status,
    ).toBe(400);
  });
});

describe("DELETE /api/review/{id}", () => {
  it("refuses everyone but an admin and keeps the review", async () => {
    const { writer, anonymous, asWriter, asUser: other } = await cast();
    const review = await makeReview({ userId: writer.id });
    const refusals: [Record<string, string>, number][] = [
      [anonymous, 401],
      [asWriter, 403],
      [other, 403],
    ];
    for (const [headers, status] of refusals) {
      expect((await call(`/api/review/${review.id}`, { method: "DELETE", headers })).status).toBe(status);
    }
    expect(await reviewRow(review.id)).not.toBeNull();
  });

  it("lets an admin delete a review; a second delete is 404", async () => {
    const { asAdmin } = await cast();
    const review = await makeReview();
    const res = await call(`/api/review/${review.id}`, { method: "DELETE", headers: asAdmin });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ deletedCount: 1 });
    expect(await reviewRow(review.id)).toBeNull();
    expect((await call(`/api/review/${review.id}`, { method: "DELETE", headers: asAdmin })).status).toBe(404);
    expect((await call("/api/review/bad id", { method: "DELETE", headers: asAdmin })).status).toBe(404);
  });
});
