CREATE TABLE `post_autosaves` (
	`user_id` text PRIMARY KEY NOT NULL,
	`fields` text DEFAULT '{}' NOT NULL,
	`cover` text DEFAULT '' NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `post_autosaves_cover_idx` ON `post_autosaves` (`cover`);--> statement-breakpoint
ALTER TABLE `blog_revisions` ADD `tags` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `blog_revisions` ADD `meta_description` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `blog_revisions` ADD `social_image` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `blog_revisions` ADD `seo_title` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `blog_revisions` ADD `slug` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `blogs` ADD `seo_title` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `blogs` ADD `slug` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `blogs_social_image_idx` ON `blogs` (`social_image`);--> statement-breakpoint
CREATE UNIQUE INDEX `blogs_slug_unique` ON `blogs` (`slug`) WHERE slug <> '';