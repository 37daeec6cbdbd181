CREATE TABLE `import_items` (
	`job_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`source_key` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`payload` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`claimed_at` integer,
	`blog_id` text,
	`note` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`job_id`, `seq`),
	FOREIGN KEY (`job_id`) REFERENCES `import_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `import_items_state_idx` ON `import_items` (`job_id`,`state`,`seq`);--> statement-breakpoint
CREATE TABLE `import_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text,
	`scope` text NOT NULL,
	`platform` text NOT NULL,
	`filename` text NOT NULL,
	`status` text DEFAULT 'preview' NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`imported` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`images_done` integer DEFAULT 0 NOT NULL,
	`images_failed` integer DEFAULT 0 NOT NULL,
	`category_map` text DEFAULT '{}' NOT NULL,
	`default_category` text DEFAULT 'Lifestyle' NOT NULL,
	`summary` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `import_jobs_owner_idx` ON `import_jobs` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `imported_sources` (
	`source_key` text PRIMARY KEY NOT NULL,
	`target_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
