CREATE TABLE `blog_revisions` (
	`id` text PRIMARY KEY NOT NULL,
	`blog_id` text NOT NULL,
	`saved_by` text,
	`saved_by_name` text NOT NULL,
	`title` text NOT NULL,
	`short_description` text NOT NULL,
	`blog_details` text NOT NULL,
	`category` text NOT NULL,
	`image` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`blog_id`) REFERENCES `blogs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`saved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `blog_revisions_blog_idx` ON `blog_revisions` (`blog_id`,`created_at`);