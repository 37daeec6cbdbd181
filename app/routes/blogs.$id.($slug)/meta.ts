import type { MetaFunction } from "@remix-run/cloudflare";
import { brandOf } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import { CARD_HEIGHT, CARD_WIDTH } from "#worker/og/size.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import type { loader } from "./route";

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) => {
  if (!d) return [{ title: `Page not found | ${brandOf(matches)}` }];
  const { blog, origin } = d;
  const path = postPath(blog);
  const url = `${origin}${path}`;
  // The SEO fields: the writer's meta description and share image, else the short description,
  // and the share card drawn from the post (decision 017); JSON-LD names the social image, else the cover.
  const description = blog.meta_description || blog.short_description;
  // The writer's SEO title names the page for search engines and shares (<title>, og:title, JSON-LD); the page's heading keeps the title.
  const title = blog.seo_title || blog.title;
  // A post with neither a social image nor a cover (an import without pictures) names its share card.
  const card = `/blogs/${blog._id}/og.png`;
  const image = new URL(blog.social_image || blog.image || card, origin).toString();
  return [
    ...seo({
      brand: brandOf(matches),
      title,
      description,
      origin,
      path,
      // The share card drawn from the title, category and writer (app/routes/blogs.$id_.og[.]png.ts).
      ...(blog.social_image
        ? { image: blog.social_image }
        : { image: card, imageSize: { width: CARD_WIDTH, height: CARD_HEIGHT } }),
      type: "article",
    }),
    { property: "article:published_time", content: blog.date_time },
    { property: "article:section", content: blog.category },
    {
      // Remix escapes <, > and & in this JSON, so no text of the post can close the script element.
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        headline: title,
        description,
        image: [image],
        datePublished: blog.date_time,
        author: { "@type": "Person", name: blog.author_name },
        publisher: { "@type": "Organization", name: brandOf(matches) },
        articleSection: blog.category,
        wordCount: d.wordCount,
        mainEntityOfPage: { "@type": "WebPage", "@id": url },
        url,
        // A gated post (Google's paywalled-content markup): the part past the preview is not free.
        ...(blog.visibility === "public"
          ? {}
          : {
              isAccessibleForFree: false,
              hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: ".members-only" },
            }),
      },
    },
  ];
};
