import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderedHtmlKey, storedCard, storedPostHtml, cardKey } from "#worker/content/stored.ts";
import { assetFonts } from "#worker/og/fonts.ts";
import { renderCard } from "#worker/og/card.ts";

/**
 * A share card and a post's rendered Markdown are made once per version and kept
 * in R2, so a cache miss (or a flood of them) reads the stored bytes instead of rendering again.
 */
describe("renders stored once per version", () => {
  it("draws a share card once; the second request reads it back; a new title is a new version", async () => {
    let draws = 0;
    const inputs = { title: "Stored card", category: "Travel", writer: "Ada", site: "Edge Blog" };
    const draw = () => {
      draws++;
      return renderCard(inputs, assetFonts(env.ASSETS));
    };
    const first = await storedCard(env.IMAGES, "storedcard000000001", inputs, draw);
    const second = await storedCard(env.IMAGES, "storedcard000000001", inputs, draw);
    expect(draws).toBe(1);
    expect(second).toEqual(first);
    expect(await env.IMAGES.head(await cardKey("storedcard000000001", inputs))).not.toBeNull();
    await storedCard(env.IMAGES, "storedcard000000001", { ...inputs, title: "Edited title" }, draw);
    expect(draws).toBe(2);
  });

  it("renders a post's Markdown once per version of its text, and serves the stored HTML after", async () => {
    const id = "storedhtml000000001";
    const source = "Some **bold** text.";
    expect(await storedPostHtml(env.IMAGES, id, source)).toContain("<strong>bold</strong>");
    const key = await renderedHtmlKey(id, source);
    expect(await env.IMAGES.head(key)).not.toBeNull();
    // Proof the renderer does not run again: the stored object is what comes back.
    await env.IMAGES.put(key, "<p>from storage</p>");
    expect(await storedPostHtml(env.IMAGES, id, source)).toBe("<p>from storage</p>");
    // Another version of the text is rendered afresh.
    expect(await storedPostHtml(env.IMAGES, id, "Other *text*.")).toContain("<em>text</em>");
  });
});
