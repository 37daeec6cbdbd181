ALTER TABLE `blog_tags` ADD `name` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Hand-written (tags that keep the writer's spelling, decision 033): the tags written before had only
-- their slug ("edge-cache"), which is then also their spelling.
UPDATE `blog_tags` SET `name` = `tag` WHERE `name` = '';
--> statement-breakpoint
-- Each tag's posts per status (scope 'tag', key = its slug), kept by triggers like the other scopes
-- (migration 0016), so /tags lists and counts tags without walking blog_tags. Backfilled first.
INSERT INTO `blog_counts` (`scope`, `key`, `status`, `n`)
	SELECT 'tag', bt.`tag`, b.`status`, count(*) FROM `blog_tags` bt JOIN `blogs` b ON b.`id` = bt.`blog_id`
	GROUP BY bt.`tag`, b.`status`;
--> statement-breakpoint
CREATE TRIGGER `blog_counts_tag_insert` AFTER INSERT ON `blog_tags` BEGIN
	INSERT INTO `blog_counts` (`scope`, `key`, `status`, `n`)
		SELECT 'tag', new.`tag`, `status`, 1 FROM `blogs` WHERE `id` = new.`blog_id`
	ON CONFLICT (`scope`, `key`, `status`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- A row deleted by the cascade of its post's delete finds no post here and does nothing: the post's own
-- BEFORE DELETE trigger below already took its tags back.
CREATE TRIGGER `blog_counts_tag_delete` AFTER DELETE ON `blog_tags` BEGIN
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'tag' AND `key` = old.`tag`
		AND `status` = (SELECT `status` FROM `blogs` WHERE `id` = old.`blog_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `blog_counts_tag_update` AFTER UPDATE OF `tag`, `blog_id` ON `blog_tags` BEGIN
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'tag' AND `key` = old.`tag`
		AND `status` = (SELECT `status` FROM `blogs` WHERE `id` = old.`blog_id`);
	INSERT INTO `blog_counts` (`scope`, `key`, `status`, `n`)
		SELECT 'tag', new.`tag`, `status`, 1 FROM `blogs` WHERE `id` = new.`blog_id`
	ON CONFLICT (`scope`, `key`, `status`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- Published, unpublished, scheduled, flipped by the publisher: each of the post's tags moves with it.
CREATE TRIGGER `blog_counts_tag_status` AFTER UPDATE OF `status` ON `blogs` WHEN old.`status` IS NOT new.`status` BEGIN
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'tag' AND `status` = old.`status`
		AND `key` IN (SELECT `tag` FROM `blog_tags` WHERE `blog_id` = new.`id`);
	INSERT INTO `blog_counts` (`scope`, `key`, `status`, `n`)
		SELECT 'tag', `tag`, new.`status`, 1 FROM `blog_tags` WHERE `blog_id` = new.`id`
	ON CONFLICT (`scope`, `key`, `status`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- BEFORE the delete: the post's tags are still there to take back (their cascaded deletes come after).
CREATE TRIGGER `blog_counts_tag_blog_delete` BEFORE DELETE ON `blogs` BEGIN
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'tag' AND `status` = old.`status`
		AND `key` IN (SELECT `tag` FROM `blog_tags` WHERE `blog_id` = old.`id`);
END;
