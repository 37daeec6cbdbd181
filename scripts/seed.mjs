#!/usr/bin/env node
// Fills the LOCAL D1 and R2 with the demo content of seed/. Never touches a remote database:
// the bindings come from wrangler's local emulation only.
//
//   node scripts/seed.mjs [--if-empty] [--persist-to DIR]
//
// Running it twice changes nothing: every row has a fixed id and is inserted only if absent,
// and each image is uploaded only if its key is missing.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { defaultStateDir, importWorkerModule, root, withLocalBindings } from "./lib/local.mjs";

/** The demo accounts' local passwords (named in the README). */
export const DEMO_PASSWORDS = { ADMIN_PASSWORD: "Admin#Demo2026", WRITER_PASSWORD: "Writer#Demo2026" };

const args = process.argv.slice(2);
if (args.includes("--remote")) {
  console.error("The seed is for the local database only.");
  process.exit(2);
}
const ifEmpty = args.includes("--if-empty");
const persistAt = args.indexOf("--persist-to");
const stateDir = persistAt >= 0 ? path.resolve(args[persistAt + 1]) : defaultStateDir;

const content = JSON.parse(await readFile(path.join(root, "seed", "content.json"), "utf8"));
const { hashPassword } = await importWorkerModule("worker/auth/passwords.ts");
const userId = (key) =>
  `seeduser${key}`
    .replace(/[^0-9a-z]/g, "")
    .padEnd(20, "0")
    .slice(0, 20);
const imageUrl = (file) => `/images/${file}`;

await withLocalBindings(stateDir, async (env) => {
  const { n } = await env.DB.prepare("select count(*) as n from blogs").first();
  if (ifEmpty && n > 0) {
    console.log(`Local database already has ${n} blogs: seed skipped.`);
    return;
  }

  let uploaded = 0;
  const files = new Set([
    ...content.users.map((u) => u.photo),
    ...content.blogs.map((b) => b.image),
    ...content.authors.map((a) => a.img),
    ...content.reviews.map((r) => r.image),
  ]);
  for (const file of files) {
    if (await env.IMAGES.head(file)) continue;
    const bytes = await readFile(path.join(root, "seed", "images", file));
    await env.IMAGES.put(file, bytes, { httpMetadata: { contentType: "image/jpeg" } });
    uploaded++;
  }

  const users = new Map(content.users.map((u) => [u.key, u]));
  const statements = [];
  for (const u of content.users) {
    const password = DEMO_PASSWORDS[u.password] ?? u.password;
    statements.push(
      env.DB.prepare(
        // Demo accounts count as verified (their addresses are ours), so no confirmation banner shows.
        "insert or ignore into users (id, name, email, password_hash, photo_url, role, email_verified_at) values (?, ?, ?, ?, ?, ?, ?)",
      ).bind(
        userId(u.key),
        u.name,
        u.email.toLowerCase(),
        await hashPassword(password),
        imageUrl(u.photo),
        u.role,
        Date.now(),
      ),
    );
    if (u.bio || u.designation) {
      statements.push(
        env.DB.prepare(
          "insert or ignore into profiles (id, user_id, name, email, bio, designation) values (?, ?, ?, ?, ?, ?)",
        ).bind(
          `${userId(u.key).slice(0, 16)}prof`,
          userId(u.key),
          u.name,
          u.email.toLowerCase(),
          u.bio ?? "",
          u.designation ?? "",
        ),
      );
    }
  }
  for (const b of content.blogs) {
    const author = users.get(b.author);
    if (!author) throw new Error(`Blog ${b.id} names an unknown author ${b.author}`);
    statements.push(
      env.DB.prepare(
        `insert or ignore into blogs (id, author_id, title, short_description, blog_details, category, author_name, email, author_image, date_time, image, likes)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      ).bind(
        b.id,
        userId(b.author),
        b.title,
        b.short_description,
        b.blog_details,
        b.category,
        author.name,
        author.email.toLowerCase(),
        imageUrl(author.photo),
        b.date_time,
        imageUrl(b.image),
      ),
    );
  }
  for (const a of content.authors) {
    statements.push(
      env.DB.prepare(
        "insert or ignore into authors (id, name, bio, img, twitter, linkedin, github) values (?, ?, ?, ?, ?, ?, ?)",
      ).bind(a.id, a.name, a.bio, imageUrl(a.img), a.twitter ?? null, a.linkedin ?? null, a.github ?? null),
    );
  }
  for (const r of content.reviews) {
    statements.push(
      env.DB.prepare(
        "insert or ignore into reviews (id, name, designation, rating, review, image, status) values (?, ?, ?, ?, ?, ?, 'approved')",
      ).bind(r.id, r.name, r.designation, r.rating, r.review, imageUrl(r.image)),
    );
  }
  // One batch is one transaction: the seed lands whole or not at all.
  const results = await env.DB.batch(statements);
  const written = results.reduce((sum, r) => sum + (r.meta?.changes ?? 0), 0);
  console.log(
    `Seed: ${written} rows written, ${uploaded} images uploaded (local state: ${path.relative(root, stateDir) || "."}).`,
  );
});
