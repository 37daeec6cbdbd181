import type { MetaDescriptor } from "@remix-run/cloudflare";

/**
 * A page's <title>, description, canonical link, Open Graph and Twitter card tags.
 * `origin` comes from the request (loaders return it), so canonical URLs are absolute; `brand` from the
 * root loader (`brandOf(matches)`).
 */
export function seo(options: {
  title: string;
  brand: string;
  description: string;
  origin: string;
  path: string;
  image?: string | null;
  /** The image's size in pixels, when known (share cards: 1200x630). */
  imageSize?: { width: number; height: number };
  type?: "website" | "article";
}): MetaDescriptor[] {
  const title = options.title.includes(options.brand) ? options.title : `${options.title} | ${options.brand}`;
  const url = new URL(options.path, options.origin).toString();
  const image = options.image ? new URL(options.image, options.origin).toString() : undefined;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: options.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: options.brand },
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
