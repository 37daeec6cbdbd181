import { configOf } from "#worker/config.ts";
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { storedCard } from "#worker/content/stored.ts";
import { assetFonts } from "#worker/og/fonts.ts";

/**
 * /blogs/{id}/og.png: the post's share card (1200x630 PNG) drawn from its title, category and writer.
 * Read as a visitor would (never the asker's own draft), so a draft or an unknown id is a 404; the
 * cache policy shares it under the post's `blog:{id}` tag, so an edit purges it with the page.
 */
export async function loader({ context, params }: LoaderFunctionArgs) {
  const { blog } = await loadOr404(() => context.services.reading.post(null, params.id ?? ""));
  const card = {
    title: blog.title,
    category: blog.category,
    writer: blog.author_name,
    site: configOf(context.env).siteName,
  };
  // Drawn once per version of its inputs and kept in R2 (worker/content/stored.ts): a miss reads it back.
  // The renderer (resvg's wasm and the layout) is imported only here, so no other answer pays for loading it.
  const png = await storedCard(context.env.IMAGES, blog._id, card, async () => {
    const { renderCard } = await import("#worker/og/card.ts");
    return renderCard(card, assetFonts(context.env.ASSETS));
  });
  return new Response(png as Uint8Array<ArrayBuffer>, {
    headers: { "Content-Type": "image/png", "Content-Length": String(png.byteLength) },
  });
}
