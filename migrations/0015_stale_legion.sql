CREATE TABLE `ap_actors` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`handle` text NOT NULL,
	`public_key_pem` text NOT NULL,
	`private_key_pem` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ap_actors_handle_unique` ON `ap_actors` (`handle`);--> statement-breakpoint
CREATE UNIQUE INDEX `ap_actors_user_unique` ON `ap_actors` (`user_id`);--> statement-breakpoint
CREATE TABLE `ap_blocks` (
	`target` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ap_comments` (
	`note_id` text PRIMARY KEY NOT NULL,
	`comment_id` text NOT NULL,
	`remote_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ap_comments_comment_unique` ON `ap_comments` (`comment_id`);--> statement-breakpoint
CREATE INDEX `ap_comments_remote_idx` ON `ap_comments` (`remote_id`);--> statement-breakpoint
CREATE TABLE `ap_deliveries` (
	`key` text PRIMARY KEY NOT NULL,
	`delivered_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ap_followers` (
	`local_id` text NOT NULL,
	`remote_id` text NOT NULL,
	`inbox` text NOT NULL,
	`follow_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`local_id`, `remote_id`),
	FOREIGN KEY (`local_id`) REFERENCES `ap_actors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`remote_id`) REFERENCES `ap_remote_actors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ap_followers_local_idx` ON `ap_followers` (`local_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `ap_posts` (
	`blog_id` text PRIMARY KEY NOT NULL,
	`author_id` text NOT NULL,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	`activity` text NOT NULL,
	`published_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ap_posts_author_idx` ON `ap_posts` (`author_id`,`deleted`,`published_at`);--> statement-breakpoint
CREATE TABLE `ap_reactions` (
	`activity_id` text NOT NULL,
	`blog_id` text NOT NULL,
	`kind` text NOT NULL,
	`remote_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`blog_id`, `kind`, `remote_id`),
	FOREIGN KEY (`blog_id`) REFERENCES `blogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ap_reactions_activity_unique` ON `ap_reactions` (`activity_id`);--> statement-breakpoint
CREATE TABLE `ap_remote_actors` (
	`id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`handle` text DEFAULT '' NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`icon_url` text,
	`profile_url` text,
	`inbox` text NOT NULL,
	`shared_inbox` text,
	`key_id` text NOT NULL,
	`public_key_pem` text NOT NULL,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ap_remote_actors_key_unique` ON `ap_remote_actors` (`key_id`);--> statement-breakpoint
CREATE INDEX `ap_remote_actors_host_idx` ON `ap_remote_actors` (`host`);