CREATE TABLE `import_images` (
	`job_id` text NOT NULL,
	`url` text NOT NULL,
	`path` text,
	`reason` text,
	PRIMARY KEY(`job_id`, `url`),
	FOREIGN KEY (`job_id`) REFERENCES `import_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_imported_sources` (
	`importer` text DEFAULT 'site' NOT NULL,
	`source_key` text NOT NULL,
	`target_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`importer`, `source_key`)
);
--> statement-breakpoint
INSERT INTO `__new_imported_sources`("importer", "source_key", "target_id", "created_at") SELECT coalesce((SELECT CASE WHEN j.scope = 'own' THEN 'user:' || j.owner_id END FROM import_items i JOIN import_jobs j ON j.id = i.job_id WHERE i.blog_id = s.target_id LIMIT 1), 'site'), s.source_key, s.target_id, s.created_at FROM `imported_sources` s;--> statement-breakpoint
DROP TABLE `imported_sources`;--> statement-breakpoint
ALTER TABLE `__new_imported_sources` RENAME TO `imported_sources`;--> statement-breakpoint
PRAGMA foreign_keys=ON;