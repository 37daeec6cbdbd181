CREATE TABLE `ap_peers` (
	`host` text PRIMARY KEY NOT NULL,
	`signing` text,
	`failing_since` integer,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ap_private_replies` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`blog_id` text NOT NULL,
	`remote_id` text NOT NULL,
	`note_id` text NOT NULL,
	`body` text NOT NULL,
	`summary` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blog_id`) REFERENCES `blogs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`remote_id`) REFERENCES `ap_remote_actors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ap_private_replies_note_unique` ON `ap_private_replies` (`note_id`);--> statement-breakpoint
CREATE INDEX `ap_private_replies_user_idx` ON `ap_private_replies` (`user_id`);--> statement-breakpoint
ALTER TABLE `ap_actors` ADD `ed_public_multibase` text;--> statement-breakpoint
ALTER TABLE `ap_actors` ADD `ed_private_key_pem` text;--> statement-breakpoint
ALTER TABLE `ap_comments` ADD `content_warning` text;--> statement-breakpoint
ALTER TABLE `ap_remote_actors` ADD `assertion_key_id` text;--> statement-breakpoint
ALTER TABLE `ap_remote_actors` ADD `assertion_multibase` text;--> statement-breakpoint
ALTER TABLE `ap_remote_actors` ADD `also_known_as` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `private_reply_id` text REFERENCES ap_private_replies(id) ON DELETE cascade;