-- Who a post's newsletter goes to (issue 46, docs/decisions/062): an admin's choice per post ("" follows the
-- site's default in site_settings `newsletter_audience`), and the audience each send was started with.
-- Written by hand to match drizzle/schema.ts (as 0031 to 0034).
ALTER TABLE `blogs` ADD `newsletter_audience` text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE `newsletter_sends` ADD `audience` text DEFAULT 'everyone' NOT NULL;
