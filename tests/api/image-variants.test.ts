import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createServices } from "#worker/services/index.ts";
import { VARIANT_WIDTHS, variantObjectKey, variantSrcSet } from "#worker/services/images/variants.ts";
import { asUser, makeUser } from "../support/factories";
import { call, json } from "../support/http";
import { GRADIENT_JPEG_480x300 } from "../support/sample-image";

type Uploaded = { success: true; data: { url: string } };

async function uploadJpeg(extra: Record<string, string> = {}) {
  const body = new FormData();
  body.append("image", new File([GRADIENT_JPEG_480x300], "photo.jpg", { type: "image/jpeg" }));
  for (const [name, value] of Object.entries(extra)) body.append(name, value);
  const res = await call("/api/images", { method: "POST", headers: await asUser(await makeUser()), body });
  expect(res.status).toBe(200);
  return (await json<Uploaded>(res)).data.url.slice("/images/".length);
}

/** The width and height the bytes really have, as Cloudflare Images reads them. */
async function dimensions(bytes: ArrayBuffer) {
  const info = await env.IMAGE_TRANSFORMS.info(new Blob([bytes]).stream());
  return "width" in info ? { width: info.width, height: info.height, format: info.format } : null;
}

async function expectWebpVariant(key: string, width: number, expected: { width: number; height: number }) {
  const res = await call(`/images/w${width}/${key}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("image/webp");
  expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
  const bytes = await res.arrayBuffer();
  expect(new TextDecoder().decode(new Uint8Array(bytes).subarray(8, 12))).toBe("WEBP");
  expect(await dimensions(bytes)).toMatchObject(expected);
  return res;
}

describe("image variants", () => {
  it("makes a WebP of an uploaded image at each width on first request, keeps it in R2, never upscales", async () => {
    const key = await uploadJpeg();
    expect(await env.IMAGES.head(variantObjectKey(key, 320))).toBeNull();

    await expectWebpVariant(key, 320, { width: 320, height: 200 });
    const stored = await env.IMAGES.head(variantObjectKey(key, 320));
    expect(stored?.httpMetadata?.contentType).toBe("image/webp");
    // Wider than the original: the original's own size, still as WebP.
    await expectWebpVariant(key, 640, { width: 480, height: 300 });

    // The second request is served from R2, with the same ETag and a 304 for a revalidation.
    const again = await call(`/images/w320/${key}`);
    const etag = again.headers.get("ETag") ?? "";
    expect(etag).toBe(stored?.httpEtag);
    await again.arrayBuffer();
    const revalidated = await call(`/images/w320/${key}`, { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    // The original is untouched.
    const original = await call(`/images/${key}`);
    expect(original.headers.get("Content-Type")).toBe("image/jpeg");
    expect(new Uint8Array(await original.arrayBuffer())).toEqual(GRADIENT_JPEG_480x300);
  });

  it("makes variants of a profile photo given at registration (the service upload path)", async () => {
    const photo = new File([GRADIENT_JPEG_480x300], "me.jpg", { type: "image/jpeg" });
    const { user } = await createServices(env).users.register(
      { name: "Variant Tester", email: `variant-${crypto.randomUUID()}@example.com`, password: "Sup3r$ecret!" },
      photo,
    );
    const key = (user.photoURL ?? "").slice("/images/".length);
    expect(key).not.toBe("");
    await expectWebpVariant(key, 320, { width: 320, height: 200 });
  });

  it("makes variants of a seeded image (an R2 object without a row, as scripts/seed.mjs puts them)", async () => {
    const key = "seed-variant-test-cover.jpg";
    await env.IMAGES.put(key, GRADIENT_JPEG_480x300, { httpMetadata: { contentType: "image/jpeg" } });
    await expectWebpVariant(key, 320, { width: 320, height: 200 });
  });

  it("answers 404 for widths it does not offer, unknown keys and malformed keys, and stores nothing", async () => {
    const key = await uploadJpeg();
    const before = (await env.IMAGES.list({ prefix: `variants/${key}/` })).objects.length;
    for (const path of [`/images/w500/${key}`, `/images/w320/nosuchimage0001.jpg`, `/images/w320/BAD.jpg`]) {
      const res = await call(path);
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
    expect((await env.IMAGES.list({ prefix: `variants/${key}/` })).objects.length).toBe(before);
  });

  it("a failed resize answers an error, never the original at that width", async () => {
    const key = "seed-variant-broken-one.jpg";
    const fake = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6, 7, 8]);
    await env.IMAGES.put(key, fake, { httpMetadata: { contentType: "image/jpeg" } });
    const res = await call(`/images/w640/${key}`);
    expect(res.status).toBe(503);
    expect(res.headers.get("Content-Type")).not.toBe("image/jpeg");
    expect(new Uint8Array(await res.arrayBuffer())).not.toEqual(fake);
    expect(await env.IMAGES.head(variantObjectKey(key, 640))).toBeNull();
  });

  it("a variant whose original is gone answers 404, and deleting an original deletes its widths", async () => {
    const key = "seed-variant-orphaned-1.jpg";
    await env.IMAGES.put(key, GRADIENT_JPEG_480x300, { httpMetadata: { contentType: "image/jpeg" } });
    const made = await call(`/images/w320/${key}`);
    expect(made.status).toBe(200);
    expect(made.headers.get("Cache-Tag")).toBe(`image:${key}`);
    await made.arrayBuffer();
    expect(await env.IMAGES.head(variantObjectKey(key, 320))).not.toBeNull();
    const original = await call(`/images/${key}`);
    expect(original.headers.get("Cache-Tag")).toBe(`image:${key}`);
    await original.arrayBuffer();
    // The original goes the way a post delete lets it go (image cleanup): every width goes with it.
    await createServices(env).imageCleanup.release([`/images/${key}`]);
    expect(await env.IMAGES.head(key)).toBeNull();
    expect(await env.IMAGES.head(variantObjectKey(key, 320))).toBeNull();
    for (const path of [`/images/${key}`, `/images/w320/${key}`]) {
      const res = await call(path);
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
    // A stray variant left in R2 without its original is still a 404 (and is removed).
    const stray = "seed-variant-orphaned-2.jpg";
    await env.IMAGES.put(variantObjectKey(stray, 640), new Uint8Array([1, 2, 3]));
    expect((await call(`/images/w640/${stray}`)).status).toBe(404);
    expect(await env.IMAGES.head(variantObjectKey(stray, 640))).toBeNull();
  });

  it("caches a variant of an expiring upload no longer than the original lives, and the sweep removes them all", async () => {
    const key = await uploadJpeg({ expiration: "600" });
    const res = await call(`/images/w320/${key}`);
    expect(res.headers.get("Cache-Control")).toMatch(/^public, max-age=(59\d|600)$/);
    await res.arrayBuffer();
    await (await call(`/images/w960/${key}`)).arrayBuffer();
    expect((await env.IMAGES.list({ prefix: `variants/${key}/` })).objects).toHaveLength(2);

    await env.DB.prepare("update images set expires_at = ? where key = ?")
      .bind(Date.now() - 1_000, key)
      .run();
    const expired = await call(`/images/w320/${key}`);
    expect(expired.status).toBe(404);
    await expired.arrayBuffer();

    await createServices(env).images.sweepExpired(Date.now());
    expect(await env.IMAGES.head(key)).toBeNull();
    expect((await env.IMAGES.list({ prefix: `variants/${key}/` })).objects).toHaveLength(0);
  });

  it("builds srcset only for our own still images", () => {
    expect(variantSrcSet("/images/abcdefgh1234.jpg", 640)).toBe(
      "/images/w320/abcdefgh1234.jpg 320w, /images/w640/abcdefgh1234.jpg 640w",
    );
    expect(variantSrcSet("/images/abcdefgh1234.jpg")?.split(", ")).toHaveLength(VARIANT_WIDTHS.length);
    expect(variantSrcSet("/images/abcdefgh1234.gif")).toBeUndefined();
    expect(variantSrcSet("https://lh3.googleusercontent.com/a/photo")).toBeUndefined();
  });
});
