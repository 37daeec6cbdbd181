import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#worker/index.ts";
import { countingD1 } from "../support/d1-counter";
import { makeUser, sessionFor } from "../support/factories";

async function fetchCounted(path: string, token: string) {
  const counted = countingD1(env.DB);
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`https://blog.test${path}`, { headers: { Authorization: `Bearer ${token}` } }) as Request<
      unknown,
      IncomingRequestCfProperties
    >,
    { ...env, DB: counted.db },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { res, trips: counted.trips() };
}

describe("serving images", () => {
  it("never looks the session up: one D1 query (the expiry) even for a signed-in reader", async () => {
    const key = "servingtest0001.png";
    await env.IMAGES.put(key, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), {
      httpMetadata: { contentType: "image/png" },
    });
    const token = await sessionFor(await makeUser());

    const image = await fetchCounted(`/images/${key}`, token);
    expect(image.res.status).toBe(200);
    expect(image.res.headers.get("content-type")).toBe("image/png");
    await image.res.arrayBuffer();
    expect(image.trips).toBe(1);

    // The same token on an API call is looked up (and works), so the saving is the image route's alone.
    const me = await fetchCounted("/api/auth/me", token);
    expect(me.res.status).toBe(200);
    expect(me.trips).toBeGreaterThanOrEqual(1);
  });
});
