-- Search never matches text a reader may not read (issue 46, docs/decisions/060): both search indexes
-- (the word index of 0005 and the every-script index of 0032) hold a members' or paid post's public part only:
-- its title, short description, writer and the text above its `<!--members-only-->` line (none without one),
-- the same cut as previewOf in worker/services/blogs/gate.ts. So no search, by anyone, finds or quotes the
-- gated part. The triggers now also follow `visibility`; scripts/search-rebuild.sql writes the same text.
-- The image sweep (worker/services/images/cleanup.ts) finds an image in a gated part on blogs_gated_idx.
CREATE INDEX `blogs_gated_idx` ON `blogs` (`visibility`) WHERE visibility <> 'public';
--> statement-breakpoint
DROP TRIGGER `blogs_search_insert`;
--> statement-breakpoint
DROP TRIGGER `blogs_search_update`;
--> statement-breakpoint
DROP TRIGGER `blogs_search_chars_insert`;
--> statement-breakpoint
DROP TRIGGER `blogs_search_chars_update`;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_insert` AFTER INSERT ON `blogs` BEGIN
	INSERT INTO `blog_search` (`rowid`, `title`, `short_description`, `blog_details`, `category`, `author_name`)
	VALUES (new.`rowid`, new.`title`, new.`short_description`, CASE WHEN new.`visibility` = 'public' THEN new.`blog_details` WHEN instr(new.`blog_details`, '<!--members-only-->') > 0 THEN substr(new.`blog_details`, 1, instr(new.`blog_details`, '<!--members-only-->') - 1) ELSE '' END, new.`category`, new.`author_name`);
END;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_update` AFTER UPDATE OF `title`, `short_description`, `blog_details`, `category`, `author_name`, `visibility` ON `blogs` BEGIN
	DELETE FROM `blog_search` WHERE `rowid` = old.`rowid`;
	INSERT INTO `blog_search` (`rowid`, `title`, `short_description`, `blog_details`, `category`, `author_name`)
	VALUES (new.`rowid`, new.`title`, new.`short_description`, CASE WHEN new.`visibility` = 'public' THEN new.`blog_details` WHEN instr(new.`blog_details`, '<!--members-only-->') > 0 THEN substr(new.`blog_details`, 1, instr(new.`blog_details`, '<!--members-only-->') - 1) ELSE '' END, new.`category`, new.`author_name`);
END;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_chars_insert` AFTER INSERT ON `blogs` BEGIN
	INSERT INTO `blog_search_chars` (`rowid`, `text`) VALUES (new.`rowid`, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.`title` || ' ' || new.`short_description` || ' ' || (CASE WHEN new.`visibility` = 'public' THEN new.`blog_details` WHEN instr(new.`blog_details`, '<!--members-only-->') > 0 THEN substr(new.`blog_details`, 1, instr(new.`blog_details`, '<!--members-only-->') - 1) ELSE '' END) || ' ' || new.`author_name`, 'Ά', 'Α'), 'Έ', 'Ε'), 'Ή', 'Η'), 'Ί', 'Ι'), 'Ό', 'Ο'), 'Ύ', 'Υ'), 'Ώ', 'Ω'), 'ά', 'α'), 'έ', 'ε'), 'ή', 'η'), 'ί', 'ι'), 'ό', 'ο'), 'ύ', 'υ'), 'ώ', 'ω'), 'ϊ', 'ι'), 'ϋ', 'υ'), 'ΐ', 'ι'), 'ΰ', 'υ'), 'Ϊ', 'Ι'), 'Ϋ', 'Υ'), 'ё', 'е'), 'Ё', 'Е'), 'й', 'и'), 'Й', 'И'), 'ї', 'і'), 'Ї', 'І'), 'ў', 'у'), 'Ў', 'У'));
END;
--> statement-breakpoint
CREATE TRIGGER `blogs_search_chars_update` AFTER UPDATE OF `title`, `short_description`, `blog_details`, `author_name`, `visibility` ON `blogs` BEGIN
	DELETE FROM `blog_search_chars` WHERE `rowid` = old.`rowid`;
	INSERT INTO `blog_search_chars` (`rowid`, `text`) VALUES (new.`rowid`, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.`title` || ' ' || new.`short_description` || ' ' || (CASE WHEN new.`visibility` = 'public' THEN new.`blog_details` WHEN instr(new.`blog_details`, '<!--members-only-->') > 0 THEN substr(new.`blog_details`, 1, instr(new.`blog_details`, '<!--members-only-->') - 1) ELSE '' END) || ' ' || new.`author_name`, 'Ά', 'Α'), 'Έ', 'Ε'), 'Ή', 'Η'), 'Ί', 'Ι'), 'Ό', 'Ο'), 'Ύ', 'Υ'), 'Ώ', 'Ω'), 'ά', 'α'), 'έ', 'ε'), 'ή', 'η'), 'ί', 'ι'), 'ό', 'ο'), 'ύ', 'υ'), 'ώ', 'ω'), 'ϊ', 'ι'), 'ϋ', 'υ'), 'ΐ', 'ι'), 'ΰ', 'υ'), 'Ϊ', 'Ι'), 'Ϋ', 'Υ'), 'ё', 'е'), 'Ё', 'Е'), 'й', 'и'), 'Й', 'И'), 'ї', 'і'), 'Ї', 'І'), 'ў', 'у'), 'Ў', 'У'));
END;
--> statement-breakpoint
DELETE FROM `blog_search` WHERE `rowid` IN (SELECT `rowid` FROM `blogs` WHERE `visibility` <> 'public');
--> statement-breakpoint
INSERT INTO `blog_search` (`rowid`, `title`, `short_description`, `blog_details`, `category`, `author_name`)
	SELECT `rowid`, `title`, `short_description`, CASE WHEN `visibility` = 'public' THEN `blog_details` WHEN instr(`blog_details`, '<!--members-only-->') > 0 THEN substr(`blog_details`, 1, instr(`blog_details`, '<!--members-only-->') - 1) ELSE '' END, `category`, `author_name` FROM `blogs` WHERE `visibility` <> 'public';
--> statement-breakpoint
DELETE FROM `blog_search_chars` WHERE `rowid` IN (SELECT `rowid` FROM `blogs` WHERE `visibility` <> 'public');
--> statement-breakpoint
INSERT INTO `blog_search_chars` (`rowid`, `text`)
	SELECT `rowid`, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`title` || ' ' || `short_description` || ' ' || (CASE WHEN `visibility` = 'public' THEN `blog_details` WHEN instr(`blog_details`, '<!--members-only-->') > 0 THEN substr(`blog_details`, 1, instr(`blog_details`, '<!--members-only-->') - 1) ELSE '' END) || ' ' || `author_name`, 'Ά', 'Α'), 'Έ', 'Ε'), 'Ή', 'Η'), 'Ί', 'Ι'), 'Ό', 'Ο'), 'Ύ', 'Υ'), 'Ώ', 'Ω'), 'ά', 'α'), 'έ', 'ε'), 'ή', 'η'), 'ί', 'ι'), 'ό', 'ο'), 'ύ', 'υ'), 'ώ', 'ω'), 'ϊ', 'ι'), 'ϋ', 'υ'), 'ΐ', 'ι'), 'ΰ', 'υ'), 'Ϊ', 'Ι'), 'Ϋ', 'Υ'), 'ё', 'е'), 'Ё', 'Е'), 'й', 'и'), 'Й', 'И'), 'ї', 'і'), 'Ї', 'І'), 'ў', 'у'), 'Ў', 'У') FROM `blogs` WHERE `visibility` <> 'public';
