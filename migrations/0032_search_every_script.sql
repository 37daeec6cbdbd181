-- Search in every script (issue 43), beside the word index of 0005 (which stays for Latin and ranking).
-- A trigram index finds any run of three or more characters, so a word inside Chinese or Japanese text
-- (no spaces between words) is found; two-character words are matched with LIKE on the same table.
-- unicode61's remove_diacritics folds Latin only: Greek tonos and dialytika and the Cyrillic breve and
-- diaeresis (ё й ї ў) are folded here, by the nested replace() below, the same letters the query side
-- folds (worker/services/search-scripts.ts, foldForSearch: NFD, marks dropped). Kept by triggers, like 0005.
CREATE VIRTUAL TABLE `blog_search_chars` USING fts5(
	`text`,
	tokenize = 'trigram'
);
--> statement-breakpoint
INSERT INTO `blog_search_chars` (`rowid`, `text`)
	SELECT `rowid`, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`title` || ' ' || `short_description` || ' ' || `blog_details` || ' ' || `author_name`, 'Ά', 'Α'), 'Έ', 'Ε'), 'Ή', 'Η'), 'Ί', 'Ι'), 'Ό', 'Ο'), 'Ύ', 'Υ'), 'Ώ', 'Ω'), 'ά', 'α'), 'έ', 'ε'), 'ή', 'η'), 'ί', 'ι'), 'ό', 'ο'), 'ύ', 'υ'), 'ώ', 'ω'), 'ϊ', 'ι'), 'ϋ', 'υ'), 'ΐ', 'ι'), 'ΰ', 'υ'), 'Ϊ', 'Ι'), 'Ϋ', 'Υ'), 'ё', 'е'), 'Ё', 'Е'), 'й', 'и'), 'Й', 'И'), 'ї', 'і'), 'Ї', 'І'), 'ў', 'у'), 'Ў', 'У') FROM `blogs`;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_chars_insert` AFTER INSERT ON `blogs` BEGIN
	INSERT INTO `blog_search_chars` (`rowid`, `text`) VALUES (new.`rowid`, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.`title` || ' ' || new.`short_description` || ' ' || new.`blog_details` || ' ' || new.`author_name`, 'Ά', 'Α'), 'Έ', 'Ε'), 'Ή', 'Η'), 'Ί', 'Ι'), 'Ό', 'Ο'), 'Ύ', 'Υ'), 'Ώ', 'Ω'), 'ά', 'α'), 'έ', 'ε'), 'ή', 'η'), 'ί', 'ι'), 'ό', 'ο'), 'ύ', 'υ'), 'ώ', 'ω'), 'ϊ', 'ι'), 'ϋ', 'υ'), 'ΐ', 'ι'), 'ΰ', 'υ'), 'Ϊ', 'Ι'), 'Ϋ', 'Υ'), 'ё', 'е'), 'Ё', 'Е'), 'й', 'и'), 'Й', 'И'), 'ї', 'і'), 'Ї', 'І'), 'ў', 'у'), 'Ў', 'У'));
END;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_chars_delete` AFTER DELETE ON `blogs` BEGIN
	DELETE FROM `blog_search_chars` WHERE `rowid` = old.`rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_chars_update` AFTER UPDATE OF `title`, `short_description`, `blog_details`, `author_name` ON `blogs` BEGIN
	DELETE FROM `blog_search_chars` WHERE `rowid` = old.`rowid`;
	INSERT INTO `blog_search_chars` (`rowid`, `text`) VALUES (new.`rowid`, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.`title` || ' ' || new.`short_description` || ' ' || new.`blog_details` || ' ' || new.`author_name`, 'Ά', 'Α'), 'Έ', 'Ε'), 'Ή', 'Η'), 'Ί', 'Ι'), 'Ό', 'Ο'), 'Ύ', 'Υ'), 'Ώ', 'Ω'), 'ά', 'α'), 'έ', 'ε'), 'ή', 'η'), 'ί', 'ι'), 'ό', 'ο'), 'ύ', 'υ'), 'ώ', 'ω'), 'ϊ', 'ι'), 'ϋ', 'υ'), 'ΐ', 'ι'), 'ΰ', 'υ'), 'Ϊ', 'Ι'), 'Ϋ', 'Υ'), 'ё', 'е'), 'Ё', 'Е'), 'й', 'и'), 'Й', 'И'), 'ї', 'і'), 'Ї', 'І'), 'ў', 'у'), 'Ў', 'У'));
END;
