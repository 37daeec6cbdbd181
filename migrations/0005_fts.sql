-- Full-text search over the blogs (issue 13), kept by hand because drizzle-kit knows no virtual tables.
-- Each post's entry has the post's own rowid, so a search joins back to blogs by rowid: a direct
-- lookup, twice as fast as reading a stored id and searching blogs' text key (docs/decisions/016).
-- The index keeps its own copy of the text (simple to keep right: no 'delete' command that needs the
-- old values). Triggers keep it in sync with every write to blogs, including rows removed by a user's
-- deletion (ON DELETE CASCADE fires delete triggers). `npm run search:rebuild` rebuilds it (after an
-- import, or anything that renumbered blogs' rowids).
-- unicode61 remove_diacritics 2 folds case and accents ("cafe" finds "Café"); prefix='2 3' keeps
-- prefix queries (the word a reader is still typing) on an index instead of a scan.
CREATE VIRTUAL TABLE `blog_search` USING fts5(
	`title`,
	`short_description`,
	`blog_details`,
	`category`,
	`author_name`,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
--> statement-breakpoint
INSERT INTO `blog_search` (`rowid`, `title`, `short_description`, `blog_details`, `category`, `author_name`)
	SELECT `rowid`, `title`, `short_description`, `blog_details`, `category`, `author_name` FROM `blogs`;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_insert` AFTER INSERT ON `blogs` BEGIN
	INSERT INTO `blog_search` (`rowid`, `title`, `short_description`, `blog_details`, `category`, `author_name`)
	VALUES (new.`rowid`, new.`title`, new.`short_description`, new.`blog_details`, new.`category`, new.`author_name`);
END;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_delete` AFTER DELETE ON `blogs` BEGIN
	DELETE FROM `blog_search` WHERE `rowid` = old.`rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_update` AFTER UPDATE OF `title`, `short_description`, `blog_details`, `category`, `author_name` ON `blogs` BEGIN
	DELETE FROM `blog_search` WHERE `rowid` = old.`rowid`;
	INSERT INTO `blog_search` (`rowid`, `title`, `short_description`, `blog_details`, `category`, `author_name`)
	VALUES (new.`rowid`, new.`title`, new.`short_description`, new.`blog_details`, new.`category`, new.`author_name`);
END;
