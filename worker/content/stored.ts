import { renderMarkdown, withAutoDirection } from "#worker/content/markdown.ts";

/**
 * Renders stored once per version: a post's Markdown as HTML, and its share card,
 * are kept in R2 under a key made of the post's id and a hash of exactly what the render reads (and of
 * the renderer's version), so an edge-cache miss, or a flood of `?x=N` misses, reads the stored bytes
 * instead of running marked or the card renderer again. A new version of the post is a new key; what
 * is served is still read through the visible rule first, so a stored render never outlives its post's
 * visibility. If R2 fails, the render runs and the page answers anyway.
 */
// 2: every block carries dir="auto" (issue 43).
export const RENDER_VERSION = "2";
/** The card renderer's own version: a new drawing (decision 039's fonts) makes every card anew, leaving stored HTML alone. */
// 3: Thai, Devanagari and emoji faces; mixed lines set run by run (issue 43).
export const CARD_VERSION = "3";

async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(bytes.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Where a post's rendered details are kept. */
export async function renderedHtmlKey(postId: string, source: string): Promise<string> {
  return `rendered/${postId}/${await digest(`${RENDER_VERSION}\n${source}`)}.html`;
}

/** Where a post's share card is kept: the hash of every input of the card. */
export async function cardKey(postId: string, inputs: Record<string, string>): Promise<string> {
  return `og/${postId}/${await digest(`${RENDER_VERSION}\ncard ${CARD_VERSION}\n${JSON.stringify(inputs)}`)}.png`;
}

type Made = Uint8Array | string;

async function storedOnce(bucket: R2Bucket, key: string, make: () => Made | Promise<Made>, type: string) {
  try {
    const hit = await bucket.get(key);
    if (hit) return new Uint8Array(await hit.arrayBuffer());
  } catch {
    // R2 unavailable: render below.
  }
  const made = await make();
  const bytes = typeof made === "string" ? new TextEncoder().encode(made) : made;
  try {
    await bucket.put(key, bytes, { httpMetadata: { contentType: type } });
  } catch {
    // Stored next time.
  }
  return bytes;
}

/** A post's details as safe HTML, rendered at most once per version of the text. */
export async function storedPostHtml(bucket: R2Bucket, postId: string, source: string): Promise<string> {
  const key = await renderedHtmlKey(postId, source);
  const bytes = await storedOnce(
    bucket,
    key,
    () => withAutoDirection(renderMarkdown(source)),
    "text/html; charset=utf-8",
  );
  return new TextDecoder().decode(bytes);
}

/** A post's share card (PNG), drawn at most once per version of its inputs. */
export async function storedCard(
  bucket: R2Bucket,
  postId: string,
  inputs: Record<string, string>,
  draw: () => Promise<Uint8Array>,
): Promise<Uint8Array> {
  return storedOnce(bucket, await cardKey(postId, inputs), draw, "image/png");
}
