CREATE TABLE `ap_following` (
	`user_id` text NOT NULL,
	`remote_id` text NOT NULL,
	`follow_id` text NOT NULL,
	`accepted` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `remote_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`remote_id`) REFERENCES `ap_remote_actors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ap_following_remote_idx` ON `ap_following` (`remote_id`);--> statement-breakpoint
CREATE INDEX `ap_following_user_idx` ON `ap_following` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `ap_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`in_reply_to` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ap_notes_reply_idx` ON `ap_notes` (`in_reply_to`,`created_at`);--> statement-breakpoint
CREATE TABLE `ap_remote_posts` (
	`id` text PRIMARY KEY NOT NULL,
	`remote_id` text NOT NULL,
	`type` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`text` text NOT NULL,
	`url` text,
	`published_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`remote_id`) REFERENCES `ap_remote_actors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ap_remote_posts_actor_idx` ON `ap_remote_posts` (`remote_id`,`published_at`);--> statement-breakpoint
ALTER TABLE `ap_actors` ADD `deleted_at` integer;