#!/usr/bin/env node
// WebP width variants of the static pictures under public/featured/, next to their originals
// (<name>-w320.webp ...), for the srcset the pages build (worker/services/images/variants.ts).
// Stored images get theirs from Cloudflare Images on first request; these are plain files, so they
// are made once here, with sharp (the library miniflare itself uses for its Images emulation).
//
//   node scripts/make-static-variants.mjs
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "public", "featured");
const WIDTHS = [320, 640, 768, 960];

for (const file of await readdir(dir)) {
  if (!file.endsWith(".jpg")) continue;
  for (const width of WIDTHS) {
    const out = path.join(dir, file.replace(/\.jpg$/, `-w${width}.webp`));
    await sharp(path.join(dir, file)).resize({ width, withoutEnlargement: true }).webp({ quality: 78 }).toFile(out);
  }
}
console.log(`WebP variants written for public/featured/*.jpg (${WIDTHS.join(", ")} px).`);
