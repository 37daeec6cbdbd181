import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "#worker/index.ts";
import { createServices } from "#worker/services/index.ts";
import { encode } from "fast-png";
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
  TOO_MANY_PIXELS,
  UPLOADS_PER_WINDOW,
} from "#worker/services/images/service.ts";
import { asUser, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";
import { stopClock } from "../support/clock";

type Uploaded = { success: true; data: { url: string } };
type Failed = { error: { code: string; message: string; fields?: Record<string, string> } };

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((ch) => ch.charCodeAt(0)) : p)));

/** The smallest headers each format is recognised by, followed by a little filler. */
const SAMPLES = {
  jpeg: {
    bytes: bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], "JFIF", [0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]),
    type: "image/jpeg",
    ext: "jpg",
  },
  png: {
    bytes: bytes(
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13],
      "IHDR",
      [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0],
    ),
    type: "image/png",
    ext: "png",
  },
  webp: {
    bytes: bytes("RIFF", [26, 0, 0, 0], "WEBPVP8L", [13, 0, 0, 0, 0x2f, 0, 0, 0, 0]),
    type: "image/webp",
    ext: "webp",
  },
  gif: {
    bytes: bytes("GIF89a", [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x3b]),
    type: "image/gif",
    ext: "gif",
  },
  avif: {
    bytes: bytes([0, 0, 0, 0x1c], "ftypavif", [0, 0, 0, 0], "avifmif1miaf", [0, 0, 0, 8], "mdat"),
    type: "image/avif",
    ext: "avif",
  },
} as const;

function form(file: Blob | string | null, extra: Record<string, string> = {}) {
  const body = new FormData();
  if (file !== null) body.append("image", file);
  for (const [name, value] of Object.entries(extra)) body.append(name, value);
  return body;
}

const upload = (body: FormData | string, headers: Record<string, string> = {}) =>
  call("/api/images", { method: "POST", headers, body });

const keyOf = (url: string) => url.slice("/images/".length);
const imageRow = (key: string) =>
  env.DB.prepare("select * from images where key = ?")
    .bind(key)
    .first<{ owner_id: string; content_type: string; size: number; expires_at: number | null }>();
const imagesOwnedBy = (userId: string) =>
  env.DB.prepare("select count(*) as n from images where owner_id = ?")
    .bind(userId)
    .first<{ n: number }>()
    .then((r) => r?.n);
const objectCount = async () => (await env.IMAGES.list()).objects.length;

async function uploadAs(
  headers: Record<string, string>,
  sample: { bytes: Uint8Array<ArrayBuffer>; type: string } = SAMPLES.png,
  extra: Record<string, string> = {},
) {
  const res = await upload(form(new File([sample.bytes], "photo", { type: sample.type }), extra), headers);
  expect(res.status).toBe(200);
  return keyOf((await json<Uploaded>(res)).data.url);
}

describe("POST /api/images", () => {
  it("refuses anonymous uploads and stores nothing", async () => {
    const before = await objectCount();
    const res = await upload(form(new File([SAMPLES.png.bytes], "a.png", { type: "image/png" })));
    expect(res.status).toBe(401);
    expect(await objectCount()).toBe(before);
  });

  for (const [name, sample] of Object.entries(SAMPLES)) {
    it(`accepts ${name} from its bytes and answers like the host it replaces`, async () => {
      const user = await makeUser();
      // The name and declared type are deliberately wrong: only the bytes count.
      const res = await upload(
        form(new File([sample.bytes], "upload.bin", { type: "application/octet-stream" })),
        await asUser(user),
      );
      expect(res.status).toBe(200);
      const body = await json<Uploaded>(res);
      expect(body.success).toBe(true);
      expect(body.data.url).toMatch(new RegExp(`^/images/[0-9a-z]{24}\\.${sample.ext}$`));
      const key = keyOf(body.data.url);
      const stored = await env.IMAGES.get(key);
      expect(stored?.httpMetadata?.contentType).toBe(sample.type);
      expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(sample.bytes);
      expect(await imageRow(key)).toMatchObject({
        owner_id: user.id,
        content_type: sample.type,
        size: sample.bytes.byteLength,
        expires_at: null,
      });
    });
  }

  it("accepts AVIF when avif is only a compatible brand, and refuses other ISO-BMFF files (HEIC)", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    const compatible = bytes([0, 0, 0, 0x18], "ftypmif1", [0, 0, 0, 0], "mif1avif");
    expect((await upload(form(new File([compatible], "x.avif")), headers)).status).toBe(200);
    const heic = bytes([0, 0, 0, 0x18], "ftypheic", [0, 0, 0, 0], "mif1heic");
    expect((await upload(form(new File([heic], "x.avif", { type: "image/avif" })), headers)).status).toBe(415);
  });

  it("refuses a disguised file (PNG name and type, text bytes) with 415", async () => {
    const user = await makeUser();
    const res = await upload(
      form(new File(["just some text, not a picture"], "photo.png", { type: "image/png" })),
      await asUser(user),
    );
    expect(res.status).toBe(415);
    expect((await json<Failed>(res)).error.code).toBe("unsupported-media-type");
    expect(await imagesOwnedBy(user.id)).toBe(0);
  });

  it("refuses SVG with 415, even declared as an image", async () => {
    const user = await makeUser();
    const svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const res = await upload(form(new File([svg], "logo.svg", { type: "image/svg+xml" })), await asUser(user));
    expect(res.status).toBe(415);
    expect(await imagesOwnedBy(user.id)).toBe(0);
  });

  it("accepts exactly 5 MB and refuses 5 MB + 1 byte (and far larger bodies) with 413", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    const exact = new Uint8Array(MAX_IMAGE_BYTES);
    exact.set(SAMPLES.jpeg.bytes);
    const ok = await upload(form(new File([exact], "big.jpg")), headers);
    expect(ok.status).toBe(200);
    await env.IMAGES.delete(keyOf((await json<Uploaded>(ok)).data.url));

    const over = new Uint8Array(MAX_IMAGE_BYTES + 1);
    over.set(SAMPLES.jpeg.bytes);
    const res = await upload(form(new File([over], "big.jpg")), headers);
    expect(res.status).toBe(413);
    expect((await json<Failed>(res)).error.code).toBe("payload-too-large");

    const huge = new Uint8Array(MAX_IMAGE_BYTES * 2);
    huge.set(SAMPLES.jpeg.bytes);
    expect((await upload(form(new File([huge], "huge.jpg")), headers)).status).toBe(413);
    expect(await imagesOwnedBy(user.id)).toBe(1);
  });

  it("refuses bodies that are not multipart with 415", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    expect((await send("POST", "/api/images", { image: "https://example.com/a.png" }, headers)).status).toBe(415);
    expect(
      (
        await call("/api/images", {
          method: "POST",
          headers: { ...headers, "Content-Type": "image/png" },
          body: SAMPLES.png.bytes,
        })
      ).status,
    ).toBe(415);
    expect(await imagesOwnedBy(user.id)).toBe(0);
  });

  it("answers 400 when the image field is missing, empty or not a file, or the form is broken", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    const missing = await upload(form(null, { expiration: "600" }), headers);
    expect(missing.status).toBe(400);
    expect((await json<Failed>(missing)).error.fields).toEqual({ image: "Choose an image file to upload." });
    expect((await upload(form(new File([], "")), headers)).status).toBe(400);
    expect((await upload(form("not a file"), headers)).status).toBe(400);
    const wrongField = new FormData();
    wrongField.append("file", new File([SAMPLES.png.bytes], "a.png"));
    expect((await upload(wrongField, headers)).status).toBe(400);
    const broken = await call("/api/images", {
      method: "POST",
      headers: { ...headers, "Content-Type": "multipart/form-data; boundary=xyz" },
      body: "this is not a multipart body",
    });
    expect(broken.status).toBe(400);
    const noBoundary = await call("/api/images", {
      method: "POST",
      headers: { ...headers, "Content-Type": "multipart/form-data" },
      body: "--x",
    });
    expect(noBoundary.status).toBe(400);
    expect(await imagesOwnedBy(user.id)).toBe(0);
  });

  it("validates expiration: whole seconds from 60 to 15552000", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    for (const expiration of ["59", "15552001", "1.5", "-60", "soon", "1e3", "99999999999999999999"]) {
      const res = await upload(form(new File([SAMPLES.png.bytes], "a.png"), { expiration }), headers);
      expect(res.status, expiration).toBe(400);
      expect(Object.keys((await json<Failed>(res)).error.fields ?? {})).toEqual(["expiration"]);
    }
    const asFile = new FormData();
    asFile.append("image", new File([SAMPLES.png.bytes], "a.png"));
    asFile.append("expiration", new File(["600"], "e.txt"));
    expect((await upload(asFile, headers)).status).toBe(400);
    expect(await imagesOwnedBy(user.id)).toBe(0);
  });

  it("records the expiry asked for", async () => {
    const user = await makeUser();
    const before = Date.now();
    const key = await uploadAs(await asUser(user), SAMPLES.gif, { expiration: "600" });
    const row = await imageRow(key);
    expect(row?.expires_at).toBeGreaterThanOrEqual(before + 600_000);
    expect(row?.expires_at).toBeLessThanOrEqual(Date.now() + 600_000);
  });

  it(`allows ${UPLOADS_PER_WINDOW} uploads per person in ten minutes, then 429`, async () => {
    stopClock();
    const user = await makeUser();
    const headers = await asUser(user);
    for (let i = 0; i < UPLOADS_PER_WINDOW; i++) await uploadAs(headers, SAMPLES.gif);
    const limited = await upload(form(new File([SAMPLES.gif.bytes], "a.gif")), headers);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await imagesOwnedBy(user.id)).toBe(UPLOADS_PER_WINDOW);
    const other = await makeUser();
    await uploadAs(await asUser(other), SAMPLES.gif);
  });
});

describe("GET /images/{key}", () => {
  it("streams the bytes with the stored type, an ETag and immutable caching; If-None-Match answers 304", async () => {
    const user = await makeUser();
    const key = await uploadAs(await asUser(user), SAMPLES.webp);
    const res = await call(`/images/${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/webp");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const etag = res.headers.get("ETag");
    expect(etag).toMatch(/^".+"$/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(SAMPLES.webp.bytes);
    const again = await call(`/images/${key}`, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("serves objects that have no row (put there by the seed script) as lasting images", async () => {
    const key = `seed${crypto.randomUUID().replaceAll("-", "")}.png`;
    await env.IMAGES.put(key, SAMPLES.png.bytes, { httpMetadata: { contentType: "image/png" } });
    const res = await call(`/images/${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    await res.arrayBuffer();
  });

  it("answers 404 for a malformed key without reaching R2, even when such an object exists", async () => {
    // Objects under keys we would never hand out: only the key check stands between them and the URL.
    for (const key of ["NotOurs.png", "shortkey.svg", "abcdefgh12345678.html"]) {
      await env.IMAGES.put(key, SAMPLES.png.bytes, { httpMetadata: { contentType: "text/html" } });
      const res = await call(`/images/${key}`);
      expect(res.status, key).toBe(404);
      expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    }
    expect((await call("/images/..%2F..%2Fsecret.png")).status).toBe(404);
    expect((await call(`/images/${"a".repeat(300)}.png`)).status).toBe(404);
    expect((await call("/images/abcdefgh12345678.png")).status).toBe(404);
  });
});

describe("image expiry", () => {
  it("caches an expiring image no longer than it lives, answers 404 once expired, and the sweep removes it", async () => {
    const user = await makeUser();
    const key = await uploadAs(await asUser(user), SAMPLES.png, { expiration: "600" });
    const fresh = await call(`/images/${key}`);
    expect(fresh.status).toBe(200);
    const maxAge = Number(/max-age=(\d+)/.exec(fresh.headers.get("Cache-Control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(590);
    expect(maxAge).toBeLessThanOrEqual(600);
    expect(fresh.headers.get("Cache-Control")).not.toContain("immutable");
    await fresh.arrayBuffer();

    const lasting = await uploadAs(await asUser(user), SAMPLES.png);
    await env.DB.prepare("update images set expires_at = ? where key = ?")
      .bind(Date.now() - 1_000, key)
      .run();
    expect((await call(`/images/${key}`)).status).toBe(404);
    expect(await env.IMAGES.head(key)).not.toBeNull();

    const swept = await createServices(env).images.sweepExpired(Date.now());
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await env.IMAGES.head(key)).toBeNull();
    expect(await imageRow(key)).toBeNull();
    expect(await env.IMAGES.head(lasting)).not.toBeNull();
    expect(await imageRow(lasting)).not.toBeNull();
  });

  it("keeps images whose expiry is still ahead when sweeping", async () => {
    const user = await makeUser();
    const key = await uploadAs(await asUser(user), SAMPLES.jpeg, { expiration: "60" });
    await createServices(env).images.sweepExpired(Date.now());
    expect(await env.IMAGES.head(key)).not.toBeNull();
    expect((await call(`/images/${key}`)).status).toBe(200);
  });

  it("runs the sweep from the Worker's scheduled handler", async () => {
    const user = await makeUser();
    const key = await uploadAs(await asUser(user), SAMPLES.gif, { expiration: "600" });
    await env.DB.prepare("update images set expires_at = ? where key = ?")
      .bind(Date.now() - 1, key)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "17 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await env.IMAGES.head(key)).toBeNull();
    expect(await imageRow(key)).toBeNull();
  });

  it("sweeps more than one D1 slice of expired images in a run", async () => {
    const owner = await makeUser();
    const past = Date.now() - 1_000;
    const keys = Array.from(
      { length: 130 },
      (_, i) => `sweep${i.toString().padStart(4, "0")}${crypto.randomUUID().slice(0, 8)}.png`,
    );
    for (const key of keys) await env.IMAGES.put(key, SAMPLES.png.bytes);
    await env.DB.batch(
      keys.map((key) =>
        env.DB.prepare(
          "insert into images (key, owner_id, content_type, size, expires_at) values (?, ?, 'image/png', 8, ?)",
        ).bind(key, owner.id, past),
      ),
    );
    await createServices(env).images.sweepExpired(Date.now());
    expect(await imagesOwnedBy(owner.id)).toBe(0);
    expect(await env.IMAGES.head(keys[0]!)).toBeNull();
    expect(await env.IMAGES.head(keys[129]!)).toBeNull();
  });
});

describe("feedback images (docs/decisions/003-feedback-image-expiry.md)", () => {
  const review = (image: string) => ({ name: "Ada", designation: "Engineer", rating: 5, review: "Great.", image });

  it("creating a review clears the expiry of the sender's own uploaded image", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    const key = await uploadAs(headers, SAMPLES.png, { expiration: "600" });
    expect((await imageRow(key))?.expires_at).not.toBeNull();
    expect((await send("POST", "/api/review", review(`/images/${key}`), headers)).status).toBe(201);
    expect((await imageRow(key))?.expires_at).toBeNull();
    await createServices(env).images.sweepExpired(Date.now() + 3_600_000);
    expect(await env.IMAGES.head(key)).not.toBeNull();
  });

  it("does not clear the expiry of someone else's image, nor revive an expired one", async () => {
    const owner = await makeUser();
    const stranger = await makeUser();
    const theirs = await uploadAs(await asUser(owner), SAMPLES.png, { expiration: "600" });
    expect((await send("POST", "/api/review", review(`/images/${theirs}`), await asUser(stranger))).status).toBe(201);
    expect((await imageRow(theirs))?.expires_at).not.toBeNull();

    const expired = await uploadAs(await asUser(owner), SAMPLES.png, { expiration: "600" });
    await env.DB.prepare("update images set expires_at = ? where key = ?")
      .bind(Date.now() - 1_000, expired)
      .run();
    expect((await send("POST", "/api/review", review(`/images/${expired}`), await asUser(owner))).status).toBe(201);
    expect((await imageRow(expired))?.expires_at).not.toBeNull();
  });
});

describe("pixel cap", () => {
  it("reads the size past the first 256 KB: a JPEG whose frame header follows 320 KB of profile is refused too", async () => {
    const headers = await asUser(await makeUser());
    // Five 64 KB APP2 segments (as a large ICC profile is stored), then a frame header of 1 x 13,000 pixels.
    const segment = new Uint8Array(2 + 65535);
    segment.set([0xff, 0xe2, 0xff, 0xff]);
    const frame = [0xff, 0xc0, 0x00, 0x11, 0x08, 0x32, 0xc8, 0x00, 0x01, 0x03, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0];
    const parts = [
      new Uint8Array([0xff, 0xd8]),
      ...Array(5).fill(segment),
      new Uint8Array(frame),
      new Uint8Array([0xff, 0xd9]),
    ];
    const jpeg = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (jpeg.set(p, at), at + p.length), 0);
    const before = await objectCount();
    const res = await upload(form(new File([jpeg], "profiled.jpg", { type: "image/jpeg" })), headers);
    expect(res.status).toBe(413);
    expect(await json(res)).toMatchObject({ error: { message: TOO_MANY_PIXELS } });
    expect(await objectCount()).toBe(before);
  });

  it(`refuses an image wider than ${MAX_IMAGE_SIDE} pixels (413) and stores nothing; a normal one passes`, async () => {
    const headers = await asUser(await makeUser());
    const wide = encode({
      width: MAX_IMAGE_SIDE + 1,
      height: 1,
      data: new Uint8Array((MAX_IMAGE_SIDE + 1) * 3),
      channels: 3,
    });
    const before = await objectCount();
    const res = await upload(
      form(new File([wide as Uint8Array<ArrayBuffer>], "wide.png", { type: "image/png" })),
      headers,
    );
    expect(res.status).toBe(413);
    expect(await json(res)).toMatchObject({ error: { message: TOO_MANY_PIXELS } });
    expect(await objectCount()).toBe(before);
    const fine = encode({ width: 64, height: 64, data: new Uint8Array(64 * 64 * 3), channels: 3 });
    expect(
      (await upload(form(new File([fine as Uint8Array<ArrayBuffer>], "ok.png", { type: "image/png" })), headers))
        .status,
    ).toBe(200);
  });
});
