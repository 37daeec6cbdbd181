import { parseCsv } from "#worker/content/csv.ts";
import { textOf } from "#worker/services/import/archive.ts";
import { htmlToGatedMarkdown, parseHtml, plainText } from "#worker/services/import/html.ts";
import { guardPost, type PostMeta } from "#worker/services/import/isolate.ts";
import { decodeEntities, titleText } from "#worker/services/import/text.ts";
import { emptyParsed, type ParsedImport, PAGE_SKIPPED } from "#worker/services/import/types.ts";
import { archiveRef, takeArchiveImages } from "#worker/services/import/zip-images.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Substack writes titles and subtitles in posts.csv with HTML character references ("&#x2019;"): text here. */
const csvText = (value: string | undefined) => titleText(value ?? "");

/** Substack's paywall in a post's HTML (`<div class="paywall-jump" …></div>`): where the free preview ends. */
const SUBSTACK_PAYWALL = /<div\b[^>]*\bclass="[^"]*\bpaywall-jump\b[^"]*"[^>]*>\s*<\/div>/i;

/**
 * A Substack export: posts.csv (post_id, post_date, is_published, title, subtitle...) beside
 * posts/<post_id>.html, and the subscriber list (email_list*.csv). Subscribers there confirmed with
 * Substack; those whose mail Substack had disabled are left out.
 */
export function parseSubstack(files: Map<string, Uint8Array>): ParsedImport {
  const out = emptyParsed("substack", "substack");
  const postsCsv = [...files.keys()].find((n) => /(^|\/)posts\.csv$/.test(n));
  const prefix = postsCsv ? postsCsv.slice(0, -"posts.csv".length) : "";
  for (const row of postsCsv ? parseCsv(textOf(files.get(postsCsv)!)).rows : []) {
    const id = (row.post_id ?? "").trim();
    const title = csvText(row.title) || "(untitled)";
    const path = `${prefix}posts/${id}.html`;
    const bytes = files.get(path);
    if ((row.type ?? "").trim() === "page") {
      out.skipped.push({ title, reason: PAGE_SKIPPED, sourceKey: `substack:page:${id}` });
      continue;
    }
    if (!id || !bytes) {
      out.skipped.push({ title, reason: "its HTML file is not in the archive" });
      continue;
    }
    const raw = textOf(bytes);
    const published = (row.is_published ?? "").toLowerCase() === "true";
    // Paid subscribers' posts ("only_paid", "founding") are for paying members here (visibility "paid"),
    // their preview what stands above Substack's paywall. Nobody's paid status is imported: Stripe decides.
    const audience = (row.audience ?? "").trim().toLowerCase();
    const paid = audience === "only_paid" || audience === "founding";
    const figure = /<img\b[^>]*?\ssrc="([^"]*)"/i.exec(raw)?.[1];
    const cover = figure ? decodeEntities(figure) : null;
    const subtitle = csvText(row.subtitle);
    const meta: PostMeta = {
      sourceKey: `substack:${id}`,
      title,
      ...(subtitle ? { description: subtitle } : {}),
      status: published ? "published" : "draft",
      ...(paid ? { visibility: "paid" as const } : {}),
      date: new Date(Date.parse(row.post_date ?? "") || Date.now()).toISOString(),
      categories: [],
      tags: [],
      author: null,
      cover: cover ? (archiveRef(cover, path, files, out) ?? cover) : null,
      comments: [],
    };
    guardPost(out, meta, raw, () => {
      const doc = parseHtml(`<body>${raw}</body>`);
      takeArchiveImages(doc, path, files, out);
      const html = doc.body.innerHTML;
      const { markdown, free } = htmlToGatedMarkdown(html, SUBSTACK_PAYWALL);
      // A paid post's short description (a visitor's preview when it has no paywall) is never the paid text.
      const description = subtitle || (paid ? plainText(free ?? "", 300) : plainText(free ?? html, 300));
      return { markdown, description };
    });
  }
  const seen = new Set<string>();
  for (const name of files.keys()) {
    // The subscriber list only: a real export also holds each post's delivery and open lists
    // (posts/<id>.delivers.csv, .opens.csv), whose addresses are recipients, not consent.
    if (!/(^|\/)email_list[^/]*\.csv$/i.test(name)) continue;
    for (const row of parseCsv(textOf(files.get(name)!)).rows) {
      const email = (row.email ?? "").trim().toLowerCase();
      if (!EMAIL.test(email) || seen.has(email)) continue;
      if ((row.email_disabled ?? "").toLowerCase() === "true") {
        out.skipped.push({ title: email, reason: "a subscriber whose email Substack had disabled" });
        continue;
      }
      seen.add(email);
      out.subscribers.push(email);
    }
  }
  return out;
}
