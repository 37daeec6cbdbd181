CREATE TABLE `analytics_daily` (
	`scope` text NOT NULL,
	`dim` text NOT NULL,
	`day` text NOT NULL,
	`key` text DEFAULT '' NOT NULL,
	`pageviews` integer DEFAULT 0 NOT NULL,
	`visitors` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`scope`, `dim`, `day`, `key`)
);
--> statement-breakpoint
CREATE INDEX `analytics_daily_day_idx` ON `analytics_daily` (`day`);--> statement-breakpoint
CREATE TABLE `analytics_inbox` (
	`hit_id` text PRIMARY KEY NOT NULL,
	`day` text NOT NULL,
	`minute` integer NOT NULL,
	`blog_id` text,
	`owner` text,
	`source` text NOT NULL,
	`ref_host` text,
	`country` text NOT NULL,
	`device` text NOT NULL,
	`browser` text NOT NULL,
	`visitor` text NOT NULL,
	`new_site` integer DEFAULT 0 NOT NULL,
	`new_writer` integer DEFAULT 0 NOT NULL,
	`new_post` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_recent` (
	`scope` text NOT NULL,
	`minute` integer NOT NULL,
	`pageviews` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`scope`, `minute`)
);
--> statement-breakpoint
CREATE INDEX `analytics_recent_minute_idx` ON `analytics_recent` (`minute`);--> statement-breakpoint
CREATE TABLE `analytics_salts` (
	`day` text PRIMARY KEY NOT NULL,
	`salt` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_seen` (
	`hit_id` text PRIMARY KEY NOT NULL,
	`day` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `analytics_seen_day_idx` ON `analytics_seen` (`day`);--> statement-breakpoint
CREATE TABLE `analytics_visitors` (
	`day` text NOT NULL,
	`scope` text NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`day`, `scope`, `hash`)
);
--> statement-breakpoint
ALTER TABLE `newsletter_subscriptions` ADD `source_blog_id` text REFERENCES blogs(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `newsletter_source_blog_idx` ON `newsletter_subscriptions` (`source_blog_id`,`state`);