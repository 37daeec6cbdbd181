import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FORM_BYTES, FORM_TOO_LARGE } from "#app/lib/forms.server.ts";
import { makeUser } from "../support/factories";
import { callWith } from "../support/mail";
import { cookieFor, pngFile, postForm, withSession } from "../support/pages";

/**
 * Page forms read their bodies under a cap, as the API does: a text form takes FORM_BYTES.text, a
 * form with a file its own size, and the import page checks the role before it reads an upload.
 */

/** A body that counts how many chunks were read from it, and never offers one before it is asked. */
function countedBody(chunks: number, chunkBytes = 64 * 1024) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= chunks) return controller.close();
        pulled++;
        controller.enqueue(new TextEncoder().encode("a".repeat(chunkBytes)));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

// Straight into the Worker's fetch (not through a service binding), so the body is read only as it asks.
const htmlPost = (path: string, init: RequestInit) =>
  callWith(env, path, {
    method: "POST",
    redirect: "manual",
    ...init,
    headers: { Accept: "text/html", ...init.headers },
  });

describe("page form bodies are capped", () => {
  it("a text form past its cap is a 413 page in words, whether or not Content-Length says so", async () => {
    const big = `email=a%40example.com&password=${"x".repeat(FORM_BYTES.text)}`;
    const declared = await htmlPost("/login", {
      body: big,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(declared.status).toBe(413);
    const html = await declared.text();
    expect(html).toContain("Too much to send");
    expect(html).toContain(FORM_TOO_LARGE);

    // Streamed without a length: counted as it arrives, and no more is read once past the cap.
    const body = countedBody(64);
    const streamed = await htmlPost("/contact", {
      body: body.stream,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(FORM_BYTES.text / (64 * 1024) + 1);
    expect(body.pulled()).toBeLessThan(64);
  });

  it("a form with an image takes a body larger than a text form's", async () => {
    const writer = await makeUser();
    const res = await postForm(
      "/dashboard/writeBlogs",
      writer,
      {
        title: "A long one",
        category: "Travel",
        date_time: "2026-11-21T10:30",
        tz: "+02:00",
        short_description: "A weekend with one small bag.",
        blog_details: "Packing light changes how you travel.",
        padding: "p".repeat(FORM_BYTES.text + 1024),
      },
      { image: pngFile() },
    );
    expect(res.status).toBe(302);
  });

  it("the import page refuses a writer's site import (403) before reading the upload", async () => {
    const writer = await withSession(await makeUser());
    const body = countedBody(200);
    const res = await htmlPost("/dashboard/import?upload=site", {
      body: body.stream,
      headers: { "Content-Type": "multipart/form-data; boundary=x", ...(await cookieFor(writer)) },
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(403);
    expect(body.pulled()).toBeLessThanOrEqual(1);
  });

  it("an upload past the import's cap is refused from its Content-Length without reading it", async () => {
    const admin = await withSession(await makeUser({ role: "admin" }));
    const body = countedBody(10);
    const res = await htmlPost("/dashboard/import?upload=site", {
      body: body.stream,
      headers: {
        "Content-Type": "multipart/form-data; boundary=x",
        "Content-Length": String(FORM_BYTES.import + 1),
        ...(await cookieFor(admin)),
      },
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(1);
  });
});
