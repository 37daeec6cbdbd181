import { describe, expect, it } from "vitest";
import { MEMBERS_ONLY_MARKER } from "#worker/services/blogs/gate.ts";
import { parseGhost } from "#worker/services/import/ghost.ts";
import { guardPost } from "#worker/services/import/isolate.ts";
import { parseSubstack } from "#worker/services/import/substack.ts";
import { emptyParsed } from "#worker/services/import/types.ts";
import { lexicalPost, lexicalText } from "../fixtures/imports/ghost/lexical";

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

  it("Ghost without html: Lexical's and mobiledoc's paywall card ends the preview; no gated text is a description", () => {
    const paragraph = (words: string) => ({ type: "paragraph", version: 1, children: [lexicalText(words)] });
    const lexical = lexicalPost([
      paragraph("Free in Lexical."),
      { type: "paywall", version: 1 },
      paragraph("Paid in Lexical."),
    ]);
    const mobiledoc = JSON.stringify({
      version: "0.3.1",
      atoms: [],
      markups: [],
      cards: [["paywall", {}]],
      sections: [
        [1, "p", [[0, [], 0, "Free in mobiledoc."]]],
        [10, 0],
        [1, "p", [[0, [], 0, "Paid in mobiledoc."]]],
      ],
    });
    const post = (id: string, visibility: string, body: Record<string, unknown>) => ({
      id,
      title: `Post ${id}`,
      status: "published",
      published_at: "2024-01-02T03:04:05.000Z",
      visibility,
      html: null,
      ...body,
    });
    const parsed = parseGhost({
      db: [
        {
          data: {
            posts: [
              post("lexical", "paid", { lexical }),
              post("mobiledoc", "members", { mobiledoc }),
              post("public", "public", { lexical }),
              post("whole", "paid", { lexical: lexicalPost([paragraph("All of it is paid.")]) }),
              post("html", "tiers", { html: "<p>No marker, all paid.</p>" }),
            ],
          },
        },
      ],
    }).posts;
    expect(parsed.map((p) => [p.markdown, p.description])).toEqual([
      [`Free in Lexical.\n\n${MEMBERS_ONLY_MARKER}\n\nPaid in Lexical.`, "Free in Lexical."],
      [`Free in mobiledoc.\n\n${MEMBERS_ONLY_MARKER}\n\nPaid in mobiledoc.`, "Free in mobiledoc."],
      // A public post has no preview: the card is dropped, as Ghost ignores it there.
      ["Free in Lexical.\n\nPaid in Lexical.", "Free in Lexical. Paid in Lexical."],
      // No marker: all of it is for members, and none of it becomes the description a visitor reads (the
      // title stands in when the post is written: worker/services/import/post.ts).
      ["All of it is paid.", ""],
      ["No marker, all paid.", ""],
    ]);
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

  it("Substack: a paid post without a paywall or a subtitle gives a visitor no paid words as its description", () => {
    const csv =
      "post_id,post_date,is_published,email_sent_at,type,audience,title,subtitle,podcast_url\n" +
      "4.paid,2023-01-04T10:00:00.000Z,true,,newsletter,only_paid,All paid,,\n" +
      "5.free,2023-01-05T10:00:00.000Z,true,,newsletter,everyone,All free,,\n";
    const parsed = parseSubstack(
      new Map([
        ["posts.csv", enc(csv)],
        ["posts/4.paid.html", enc("<p>Every word is paid.</p>")],
        ["posts/5.free.html", enc("<p>Every word is free.</p>")],
      ]),
    ).posts;
    expect(parsed.map((p) => [p.title, p.visibility ?? "public", p.markdown, p.description])).toEqual([
      ["All paid", "paid", "Every word is paid.", ""],
      ["All free", "public", "Every word is free.", "Every word is free."],
    ]);
  });

  it("a members' post whose body could not be converted keeps its text out of its description", () => {
    const out = emptyParsed("ghost", "ghost");
    const meta = (visibility: "public" | "paid") => ({
      sourceKey: `k-${visibility}`,
      title: `A ${visibility} post`,
      status: "published" as const,
      visibility,
      date: "2024-01-02T03:04:05.000Z",
      categories: [],
      tags: [],
      author: null,
      cover: null,
      comments: [],
    });
    const failing = () => {
      throw new Error("the converter gave up");
    };
    guardPost(out, meta("paid"), "<p>Paid words.</p>", failing);
    guardPost(out, meta("public"), "<p>Free words.</p>", failing);
    expect(out.posts.map((p) => [p.markdown, p.description])).toEqual([
      ["Paid words.", ""],
      ["Free words.", "Free words."],
    ]);
  });
});
