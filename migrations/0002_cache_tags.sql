CREATE TABLE `cache_tags` (
	`tag` text NOT NULL,
	`url` text NOT NULL,
	PRIMARY KEY(`tag`, `url`)
);
--> statement-breakpoint
CREATE INDEX `cache_tags_url_idx` ON `cache_tags` (`url`);