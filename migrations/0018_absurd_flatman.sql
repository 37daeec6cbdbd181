CREATE TABLE `site_pages` (
	`slug` text PRIMARY KEY NOT NULL,
	`body` text NOT NULL,
	`updated_by` text,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
ALTER TABLE `blogs` ADD `featured_at` integer;--> statement-breakpoint
CREATE INDEX `blogs_featured_idx` ON `blogs` (`date_time`,`created_at`,`id`,`status`,`publish_at`) WHERE featured_at is not null;--> statement-breakpoint
ALTER TABLE `reviews` ADD `status` text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
CREATE INDEX `reviews_status_created_idx` ON `reviews` (`status`,`created_at`);--> statement-breakpoint
-- Reviews written before approval existed stay on the home page (issue 22): they become approved.
UPDATE `reviews` SET `status` = 'approved';
