-- Full-text index of accounts (issue 20): the admin's Manage Users search by name or email stays on an
-- index at any number of accounts (worker/services/users.ts userFilter). Kept by hand like blog_search
-- (0005): drizzle-kit knows no virtual tables. Each entry has its account's rowid; triggers keep it in
-- sync with every write to users. unicode61 splits an email at "@" and "." ("ann@example.com" is found
-- by "ann" or "example"); prefix='2 3' keeps the word being typed on the index.
CREATE VIRTUAL TABLE `user_search` USING fts5(
	`name`,
	`email`,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
--> statement-breakpoint
INSERT INTO `user_search` (`rowid`, `name`, `email`) SELECT `rowid`, `name`, `email` FROM `users`;
--> statement-breakpoint
CREATE TRIGGER `users_search_insert` AFTER INSERT ON `users` BEGIN
	INSERT INTO `user_search` (`rowid`, `name`, `email`) VALUES (new.`rowid`, new.`name`, new.`email`);
END;
--> statement-breakpoint
CREATE TRIGGER `users_search_delete` AFTER DELETE ON `users` BEGIN
	DELETE FROM `user_search` WHERE `rowid` = old.`rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `users_search_update` AFTER UPDATE OF `name`, `email` ON `users` BEGIN
	DELETE FROM `user_search` WHERE `rowid` = old.`rowid`;
	INSERT INTO `user_search` (`rowid`, `name`, `email`) VALUES (new.`rowid`, new.`name`, new.`email`);
END;
