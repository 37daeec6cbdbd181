ALTER TABLE `blogs` ADD `status` text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE `blogs` ADD `publish_at` integer;--> statement-breakpoint
CREATE INDEX `blogs_status_publish_idx` ON `blogs` (`status`,`publish_at`);