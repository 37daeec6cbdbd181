-- Full-text search over the blogs (issue 13), kept by hand because drizzle-kit knows no virtual tables.
-- The index keeps its own copy of the text (not an external-content table): blogs has a text primary
-- key, so its rowid may change on VACUUM, and an external-content index tied to rowids would drift.
-- blog_id is stored but not indexed; it joins back to blogs. Triggers keep it in sync with every write
-- to blogs, including rows removed by a user's deletion (ON DELETE CASCADE fires delete triggers).
-- unicode61 remove_diacritics 2 folds case and accents ("cafe" finds "Café"); prefix='2 3' keeps
-- prefix queries (what a reader is still typing) on an index instead of a scan.
CREATE VIRTUAL TABLE `blog_search` USING fts5(
	`blog_id` UNINDEXED,
	`title`,
	`short_description`,
	`blog_details`,
	`category`,
	`author_name`,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
--> statement-breakpoint
INSERT INTO `blog_search` (`blog_id`, `title`, `short_description`, `blog_details`, `category`, `author_name`)
	SELECT `id`, `title`, `short_description`, `blog_details`, `category`, `author_name` FROM `blogs`;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_insert` AFTER INSERT ON `blogs` BEGIN
	INSERT INTO `blog_search` (`blog_id`, `title`, `short_description`, `blog_details`, `category`, `author_name`)
	VALUES (new.`id`, new.`title`, new.`short_description`, new.`blog_details`, new.`category`, new.`author_name`);
END;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_delete` AFTER DELETE ON `blogs` BEGIN
	DELETE FROM `blog_search` WHERE `blog_id` = old.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_update` AFTER UPDATE OF `id`, `title`, `short_description`, `blog_details`, `category`, `author_name` ON `blogs` BEGIN
	DELETE FROM `blog_search` WHERE `blog_id` = old.`id`;
	INSERT INTO `blog_search` (`blog_id`, `title`, `short_description`, `blog_details`, `category`, `author_name`)
	VALUES (new.`id`, new.`title`, new.`short_description`, new.`blog_details`, new.`category`, new.`author_name`);
END;
