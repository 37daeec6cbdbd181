import type { FeedItem, SitemapPost } from "#worker/services/feeds.ts";
import { postPath, tagPath } from "#worker/services/blogs/slug.ts";

/** Public pages listed in the sitemap (dashboards, profiles and the API are private: see /robots.txt). */
export const SITEMAP_PAGES = [
  "/",
  "/about",
  "/allBlogs",
  "/tags",
  "/contact",
  "/login",
  "/register",
  "/privacy",
  "/terms",
] as const;
export const ROBOTS_DISALLOW = ["/dashboard", "/api", "/Profile", "/editProfile", "/confirm"] as const;

// Characters XML 1.0 cannot carry at all, even escaped (control characters other than tab and newlines, lone surrogates).
// eslint-disable-next-line no-control-regex -- the allowed control characters are the point
const INVALID_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text for an XML element or attribute value. */
export function xmlEscape(value: string): string {
  return value
    .replace(INVALID_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** A post's readable link (/blogs/{id}/{slug}): the one canonical URL feeds and sitemaps carry. */
const postUrl = (origin: string, post: { id: string; title: string; slug?: string }) => `${origin}${postPath(post)}`;

/** RFC 822 dates, as RSS 2.0 requires; a date D1 holds that does not parse is left out rather than invented. */
function rfc822(iso: string): string | null {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : new Date(time).toUTCString();
}

/** Where a feed lives: the whole site's, one category's, or one tag's (/tags/{slug}/rss.xml). */
export function rssPath(category?: string, tag?: string): string {
  if (tag) return `${tagPath(tag)}/rss.xml`;
  return category ? `/rss.xml?category=${encodeURIComponent(category)}` : "/rss.xml";
}

/**
 * `brand` is the request's SITE_NAME (`configOf(context.env).siteName`). A tag's feed links to its slug's
 * URLs and is titled with `tagName`, its usual spelling ("#Web Performance"), when the tag has one.
 */
export function renderRss(
  brand: string,
  origin: string,
  items: FeedItem[],
  category?: string,
  tag?: string,
  tagName = tag,
): string {
  const scope = tag ? `#${tagName}` : category;
  const title = scope ? `${brand}: ${scope}` : brand;
  const home = tag
    ? `${origin}${tagPath(tag)}`
    : category
      ? `${origin}/allBlogs?category=${encodeURIComponent(category)}`
      : `${origin}/`;
  const about = tag
    ? `The latest posts tagged ${tagName} on ${brand}.`
    : category
      ? `The latest ${category} posts on ${brand}.`
      : `The latest posts on ${brand}: share ideas, express innovation, learn more earn more.`;
  const newest = items[0] ? rfc822(items[0].published) : null;
  const entries = items.map((item) => {
    const url = postUrl(origin, item);
    const date = rfc822(item.published);
    return [
      "    <item>",
      `      <title>${xmlEscape(item.title)}</title>`,
      `      <link>${xmlEscape(url)}</link>`,
      `      <guid isPermaLink="true">${xmlEscape(url)}</guid>`,
      `      <description>${xmlEscape(item.description)}</description>`,
      // The same words as HTML that takes its direction from its own text (issue 43: a right-to-left post).
      `      <content:encoded>${xmlEscape(`<p dir="auto">${xmlEscape(item.description)}</p>`)}</content:encoded>`,
      `      <category>${xmlEscape(item.category)}</category>`,
      `      <dc:creator>${xmlEscape(item.author)}</dc:creator>`,
      date ? `      <pubDate>${date}</pubDate>` : null,
      "    </item>",
    ]
      .filter((line) => line !== null)
      .join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    "  <channel>",
    `    <title>${xmlEscape(title)}</title>`,
    `    <link>${xmlEscape(home)}</link>`,
    `    <description>${xmlEscape(about)}</description>`,
    "    <language>en</language>",
    `    <atom:link href="${xmlEscape(`${origin}${rssPath(category, tag)}`)}" rel="self" type="application/rss+xml"/>`,
    newest ? `    <lastBuildDate>${newest}</lastBuildDate>` : null,
    ...entries,
    "  </channel>",
    "</rss>",
    "",
  ]
    .filter((line) => line !== null)
    .join("\n");
}

/** A sitemap file: the public pages (pages.xml), or one file's posts with their last change (posts-{n}.xml). */
export function renderSitemap(origin: string, posts: SitemapPost[], withPages = false): string {
  const urls = [
    ...(withPages ? SITEMAP_PAGES.map((path) => `  <url><loc>${xmlEscape(origin + path)}</loc></url>`) : []),
    ...posts.map(
      (p) => `  <url><loc>${xmlEscape(postUrl(origin, p))}</loc><lastmod>${xmlEscape(p.lastmod)}</lastmod></url>`,
    ),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

/** /sitemap.xml: the index of the sitemap files, the pages first, then every posts file. */
export function renderSitemapIndex(origin: string, postFiles: number): string {
  const files = ["pages", ...Array.from({ length: postFiles }, (_, i) => `posts-${i + 1}`)];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...files.map((f) => `  <sitemap><loc>${xmlEscape(`${origin}/sitemaps/${f}.xml`)}</loc></sitemap>`),
    "</sitemapindex>",
    "",
  ].join("\n");
}

export function renderRobots(origin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...ROBOTS_DISALLOW.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}

/** Feeds change when posts do; an hour of caching keeps crawlers from hitting D1 on every fetch. */
export const FEED_CACHE = "public, max-age=3600";
