import { eq } from "drizzle-orm";
import { z } from "zod";
import { MARKDOWN_MAX_CHARS, renderMarkdown } from "#worker/content/markdown.ts";
import { schema } from "#worker/db.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";
import { parse, requiredText } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** The pages of text an admin edits, with their titles and default Markdown. */
export const SITE_PAGES = {
  privacy: {
    title: "Privacy Policy",
    body: `We keep what we collect to what the site needs to work.

## What we collect

- **Your account**: your name, email address, password (stored only as a salted hash) and, if you add them, your photo, designation and bio.
- **What you write**: posts, comments, reviews and contact messages, with the time they were sent.
- **Newsletter**: the email address you subscribe with, and whether you confirmed it.
- **Usage**: page views are counted per post and day, without tying them to you. Sign-in attempts and forms are rate limited by network address, kept for a short while.
- **Analytics**: for each page view, without cookies, we record the page, the day, where the visit came from (the referring site, such as a search engine or a social site, or a campaign tag in the link), your country (from the network, not your exact location), the kind of device and the browser. To count visitors once a day without knowing who they are, we keep a hash of your network address and browser made with a salt that changes every day and is then thrown away, so the hash cannot be tied to you or to another day. Neither the address nor the browser string is stored. Readers whose browser asks not to be tracked (Do Not Track, Global Privacy Control) are not counted.

## How we use it

To run your account, show what you publish, send the mail you asked for (address confirmations, password resets, newsletters, notifications) and keep the site safe from abuse. We do not sell your data or show advertising.

## The fediverse

This site takes part in the fediverse (Mastodon and other servers that speak ActivityPub). A published post, its writer's name and photo, and comments on it are sent to the servers of people who follow its writer there, and those servers keep their own copies. Deleting a post or your account asks them to delete their copies too, but we cannot force another server to do so.

## Cookies

One cookie keeps you signed in, and a short-lived one carries a message from one page to the next. Your theme choice and reading preferences stay in your browser.

## Your choices

You can edit your profile, export your data, unsubscribe from any mail, and delete your account in your settings. Deleting it removes your posts, comments, likes and saves.

## Contact

Questions about your data? Write to us through the [Contact](/contact) page.`,
  },
  terms: {
    title: "Terms of Use",
    body: `By using this site you agree to these terms.

## Your account

Keep your password to yourself and your details accurate. You are responsible for what is posted from your account.

## What you publish

You keep the rights to what you write. By publishing it here you let us show it on this site, in its feeds and newsletters, and send it to fediverse servers (such as Mastodon) whose people follow you there. Do not post anything unlawful, hateful, misleading or that is not yours to share.

## Moderation

Admins may edit, hide or remove posts, comments and reviews that break these terms, and may close accounts that keep doing so.

## No warranty

The site is offered as it is. We do our best to keep it running and your data safe, but cannot promise it will always be available.

## Changes

We may update these terms; the latest version is always on this page.

Questions? Use the [Contact](/contact) page.`,
  },
} as const;

export type SitePageSlug = keyof typeof SITE_PAGES;

export interface SitePage {
  slug: SitePageSlug;
  title: string;
  /** The Markdown an admin edits (the default text until they do). */
  body: string;
  /** The body rendered by the one Markdown renderer (sanitised, worker/content/markdown.ts). */
  html: string;
  /** When an admin last saved it (ISO 8601), or null for the default text. */
  updatedAt: string | null;
}

const isSlug = (slug: string): slug is SitePageSlug => Object.hasOwn(SITE_PAGES, slug);

const pageInput = z.object({ body: requiredText("Text", MARKDOWN_MAX_CHARS) });

/** /privacy and /terms: default text until an admin edits it in the dashboard; stored in D1 (site_pages). */
export function createSitePageService(k: Kernel) {
  const { db, purge } = k;
  function slugOf(slug: string): SitePageSlug {
    if (!isSlug(slug)) throw new NotFound("Page not found.");
    return slug;
  }

  return {
    async get(rawSlug: string): Promise<SitePage> {
      const slug = slugOf(rawSlug);
      const row = await db.query.sitePages.findFirst({ where: eq(schema.sitePages.slug, slug) });
      const body = row?.body ?? SITE_PAGES[slug].body;
      return {
        slug,
        title: SITE_PAGES[slug].title,
        body,
        html: renderMarkdown(body),
        updatedAt: row ? new Date(row.updatedAt).toISOString() : null,
      };
    },

    /** An admin saves the page's Markdown; the page's shared copy is purged. */
    async update(actor: Actor | null, rawSlug: string, input: unknown): Promise<{ modifiedCount: number }> {
      const admin = requireAdmin(actor);
      const slug = slugOf(rawSlug);
      const { body } = parse(pageInput, input);
      const now = Date.now();
      await db
        .insert(schema.sitePages)
        .values({ slug, body, updatedBy: admin.id, updatedAt: now })
        .onConflictDoUpdate({ target: schema.sitePages.slug, set: { body, updatedBy: admin.id, updatedAt: now } });
      await purge({ kind: "page.changed", slug });
      return { modifiedCount: 1 };
    },
  };
}

export type SitePageService = ReturnType<typeof createSitePageService>;
