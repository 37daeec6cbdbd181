-- Paid memberships (docs/decisions/052): tiers, each reader's membership, the ledger of Stripe events, and who
-- may read a post in full. Written by hand to match drizzle/schema.ts (0031 and 0032 belong to other work).
ALTER TABLE `blogs` ADD `visibility` text DEFAULT 'public' NOT NULL;
--> statement-breakpoint
CREATE TABLE `member_tiers` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`benefits` text DEFAULT '' NOT NULL,
	`monthly_price` integer NOT NULL,
	`yearly_price` integer NOT NULL,
	`currency` text NOT NULL,
	`trial_days` integer DEFAULT 0 NOT NULL,
	`archived` integer DEFAULT false NOT NULL,
	`stripe_product_id` text,
	`stripe_monthly_price_id` text,
	`stripe_yearly_price_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `members` (
	`user_id` text PRIMARY KEY NOT NULL,
	`stripe_customer_id` text,
	`stripe_subscription_id` text,
	`subscription_status` text,
	`status` text DEFAULT 'free' NOT NULL,
	`tier_id` text,
	`cadence` text,
	`current_period_end` integer,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`amount` integer,
	`currency` text,
	`comp_tier_id` text,
	`comp_until` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tier_id`) REFERENCES `member_tiers`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`comp_tier_id`) REFERENCES `member_tiers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_customer_unique` ON `members` (`stripe_customer_id`);
--> statement-breakpoint
CREATE INDEX `members_status_idx` ON `members` (`status`,`created_at`);
--> statement-breakpoint
CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`received_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`handled_at` integer
);
