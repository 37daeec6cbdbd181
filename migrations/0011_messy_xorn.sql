CREATE TABLE `newsletter_deliveries` (
	`blog_id` text NOT NULL,
	`subscription_id` text NOT NULL,
	`outbox_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`blog_id`, `subscription_id`),
	FOREIGN KEY (`blog_id`) REFERENCES `blogs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subscription_id`) REFERENCES `newsletter_subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `newsletter_deliveries_outbox_idx` ON `newsletter_deliveries` (`outbox_id`);--> statement-breakpoint
CREATE TABLE `newsletter_sends` (
	`blog_id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`completed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`blog_id`) REFERENCES `blogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `blogs` ADD `email_subscribers` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `headers` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `newsletter_subscriptions` ADD `state` text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE `newsletter_subscriptions` ADD `confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `newsletter_subscriptions` ADD `unsubscribed_at` integer;--> statement-breakpoint
CREATE INDEX `newsletter_state_id_idx` ON `newsletter_subscriptions` (`state`,`id`);--> statement-breakpoint
CREATE INDEX `newsletter_created_idx` ON `newsletter_subscriptions` (`created_at`);