import type { MetaDescriptor } from "@remix-run/cloudflare";
import { brand } from "#app/lib/site-name.ts";

/**
 * A page's <title>, description, canonical link, Open Graph and Twitter card tags.
 * `origin` comes from the request (loaders return it), so canonical URLs are absolute.
 */
export function seo(options: {
  title: string;
  description: string;
  origin: string;
  path: string;
  image?: string | null;
  /** The image's size in pixels, when known (share cards: 1200x630). */
  imageSize?: { width: number; height: number };
  type?: "website" | "article";
}): MetaDescriptor[] {
  const title = options.title.includes(brand()) ? options.title : `${options.title} | ${brand()}`;
  const url = new URL(options.path, options.origin).toString();
  const image = options.image ? new URL(options.image, options.origin).toString() : undefined;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: options.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: brand() },
    { property: "og:type", content: options.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: options.description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: options.description },
  ];
  if (image) tags.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
  if (image && options.imageSize) {
    tags.push(
      { property: "og:image:width", content: String(options.imageSize.width) },
      { property: "og:image:height", content: String(options.imageSize.height) },
    );
  }
  return tags;
}
