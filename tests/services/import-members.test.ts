import { describe, expect, it } from "vitest";
import { MEMBERS_ONLY_MARKER } from "#worker/services/blogs/gate.ts";
import { parseGhost } from "#worker/services/import/ghost.ts";
import { parseSubstack } from "#worker/services/import/substack.ts";

const enc = (s: string) => new TextEncoder().encode(s);

/** Issue 46: members' and paid posts from Ghost and Substack keep who reads them and where the preview ends. */
describe("imports of members' posts", () => {
  it("Ghost: visibility members, paid and tiers map to members and paid; its marker comment ends the preview", () => {
    const post = (id: string, visibility: string, html: string) => ({
      id,
      uuid: `u-${id}`,
      title: `Post ${id}`,
      status: "published",
      published_at: "2024-01-02T03:04:05.000Z",
      visibility,
      html,
    });
    const gated = "<p>The free opening.</p><!--members-only--><p>The paid part.</p>";
    const parsed = parseGhost({
      db: [
        {
          meta: { version: "5.80.0" },
          data: {
            posts: [
              post("a", "public", "<p>For everyone.</p>"),
              post("b", "members", gated),
              post("c", "paid", gated),
              post("d", "tiers", "<p>No marker at all.</p>"),
            ],
          },
        },
      ],
    }).posts;
    expect(parsed.map((p) => p.visibility ?? "public")).toEqual(["public", "members", "paid", "paid"]);
    expect(parsed[2]!.markdown).toBe(`The free opening.\n\n${MEMBERS_ONLY_MARKER}\n\nThe paid part.`);
    // The short description is taken from the free part only.
    expect(parsed[2]!.description).toBe("The free opening.");
    expect(parsed[3]!.markdown).toBe("No marker at all.");
    expect(parsed[0]!.markdown).toBe("For everyone.");
  });

  it("Substack: a paid post is published for paying members, its preview what stands above the paywall", () => {
    const csv =
      "post_id,post_date,is_published,email_sent_at,type,audience,title,subtitle,podcast_url\n" +
      "1.free,2023-01-01T10:00:00.000Z,true,,newsletter,everyone,Free post,,\n" +
      "2.paid,2023-01-02T10:00:00.000Z,true,,newsletter,only_paid,Paid post,,\n" +
      "3.founding,2023-01-03T10:00:00.000Z,true,,newsletter,founding,Founding post,A subtitle,\n";
    const parsed = parseSubstack(
      new Map([
        ["posts.csv", enc(csv)],
        ["posts/1.free.html", enc("<p>Free words.</p>")],
        [
          "posts/2.paid.html",
          enc(
            '<p>Paid intro.</p><div class="paywall-jump" data-component-name="PaywallToDOM"></div><p>Paid words.</p>',
          ),
        ],
        ["posts/3.founding.html", enc("<p>Founders only.</p>")],
      ]),
    ).posts;
    expect(parsed.map((p) => [p.title, p.status, p.visibility ?? "public", p.warnings ?? []])).toEqual([
      ["Free post", "published", "public", []],
      ["Paid post", "published", "paid", []],
      ["Founding post", "published", "paid", []],
    ]);
    expect(parsed[1]!.markdown).toBe(`Paid intro.\n\n${MEMBERS_ONLY_MARKER}\n\nPaid words.`);
    expect(parsed[1]!.description).toBe("Paid intro.");
    // No paywall: the preview is the description (here Substack's subtitle).
    expect(parsed[2]!.markdown).toBe("Founders only.");
    expect(parsed[2]!.description).toBe("A subtitle");
  });
});
