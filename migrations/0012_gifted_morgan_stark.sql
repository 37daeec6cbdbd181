CREATE TABLE `follows` (
	`follower_id` text NOT NULL,
	`writer_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`follower_id`, `writer_id`),
	FOREIGN KEY (`follower_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`writer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `follows_writer_follower_idx` ON `follows` (`writer_id`,`follower_id`);--> statement-breakpoint
CREATE INDEX `follows_follower_created_idx` ON `follows` (`follower_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `notification_prefs` (
	`user_id` text PRIMARY KEY NOT NULL,
	`email_comment` text DEFAULT 'instant' NOT NULL,
	`email_reply` text DEFAULT 'instant' NOT NULL,
	`email_follow` text DEFAULT 'off' NOT NULL,
	`email_post` text DEFAULT 'off' NOT NULL,
	`email_like` text DEFAULT 'off' NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`actor_id` text,
	`blog_id` text,
	`comment_id` text,
	`count` integer DEFAULT 1 NOT NULL,
	`read_at` integer,
	`emailed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blog_id`) REFERENCES `blogs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_user_key_unique` ON `notifications` (`user_id`,`dedupe_key`);--> statement-breakpoint
CREATE INDEX `notifications_user_updated_idx` ON `notifications` (`user_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`) WHERE read_at is null;--> statement-breakpoint
CREATE INDEX `notifications_unmailed_idx` ON `notifications` (`user_id`,`created_at`) WHERE emailed_at is null;