CREATE TABLE `ap_inbox` (
	`author_id` text NOT NULL,
	`activity_id` text NOT NULL,
	`sender_id` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`handled_at` integer,
	`result` text,
	PRIMARY KEY(`author_id`, `activity_id`)
);
--> statement-breakpoint
CREATE INDEX `ap_inbox_received_idx` ON `ap_inbox` (`created_at`);--> statement-breakpoint
CREATE TABLE `ap_remote_keys` (
	`key_id` text PRIMARY KEY NOT NULL,
	`actor_id` text NOT NULL,
	`public_key_pem` text NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `ap_remote_actors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ap_remote_keys_actor_idx` ON `ap_remote_keys` (`actor_id`);--> statement-breakpoint
ALTER TABLE `ap_peers` ADD `last_failure_at` integer;--> statement-breakpoint
ALTER TABLE `ap_remote_actors` ADD `followers_url` text;