-- Comment replies (parent_id; drizzle-kit leaves the ON DELETE cascade off an added column, so it is written here) and comment reports (issue 21).
CREATE TABLE `comment_reports` (
	`comment_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`comment_id`, `user_id`),
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comment_reports_created_idx` ON `comment_reports` (`created_at`);--> statement-breakpoint
CREATE INDEX `comment_reports_user_idx` ON `comment_reports` (`user_id`);--> statement-breakpoint
ALTER TABLE `comments` ADD `parent_id` text REFERENCES comments(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `comments_parent_created_idx` ON `comments` (`parent_id`,`created_at`);