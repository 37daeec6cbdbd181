CREATE TABLE `blog_tags` (
	`tag` text NOT NULL,
	`blog_id` text NOT NULL,
	PRIMARY KEY(`tag`, `blog_id`),
	FOREIGN KEY (`blog_id`) REFERENCES `blogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `blog_tags_blog_idx` ON `blog_tags` (`blog_id`);--> statement-breakpoint
ALTER TABLE `blogs` ADD `tags` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `blogs` ADD `meta_description` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `blogs` ADD `social_image` text DEFAULT '' NOT NULL;