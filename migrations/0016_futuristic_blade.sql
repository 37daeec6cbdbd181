CREATE TABLE `blog_counts` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`status` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`scope`, `key`, `status`)
);
--> statement-breakpoint
CREATE TABLE `writer_totals` (
	`owner` text PRIMARY KEY NOT NULL,
	`posts` integer DEFAULT 0 NOT NULL,
	`likes` integer DEFAULT 0 NOT NULL,
	`comments` integer DEFAULT 0 NOT NULL,
	`saves` integer DEFAULT 0 NOT NULL,
	`views` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `writer_views_daily` (
	`owner` text NOT NULL,
	`day` text NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`owner`, `day`)
);
--> statement-breakpoint
-- Hand-written (issue 20): the totals above are kept by triggers, so every write path (services, the
-- seed, a cascade from a deleted account, an admin's SQL) keeps them exact. Backfilled first.
INSERT INTO `blog_counts` (`scope`, `key`, `status`, `n`)
	SELECT 'all', '', `status`, count(*) FROM `blogs` GROUP BY `status`
	UNION ALL SELECT 'author', `author_id`, `status`, count(*) FROM `blogs` GROUP BY `author_id`, `status`
	UNION ALL SELECT 'email', `email`, `status`, count(*) FROM `blogs` GROUP BY `email`, `status`
	UNION ALL SELECT 'category', `category`, `status`, count(*) FROM `blogs` GROUP BY `category`, `status`;
--> statement-breakpoint
CREATE TRIGGER `blog_counts_insert` AFTER INSERT ON `blogs` BEGIN
	INSERT INTO `blog_counts` (`scope`, `key`, `status`, `n`) VALUES
		('all', '', new.`status`, 1), ('author', new.`author_id`, new.`status`, 1),
		('email', new.`email`, new.`status`, 1), ('category', new.`category`, new.`status`, 1)
	ON CONFLICT (`scope`, `key`, `status`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `blog_counts_delete` AFTER DELETE ON `blogs` BEGIN
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'all' AND `key` = '' AND `status` = old.`status`;
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'author' AND `key` = old.`author_id` AND `status` = old.`status`;
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'email' AND `key` = old.`email` AND `status` = old.`status`;
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'category' AND `key` = old.`category` AND `status` = old.`status`;
END;
--> statement-breakpoint
CREATE TRIGGER `blog_counts_update` AFTER UPDATE OF `status`, `author_id`, `email`, `category` ON `blogs` BEGIN
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'all' AND `key` = '' AND `status` = old.`status`;
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'author' AND `key` = old.`author_id` AND `status` = old.`status`;
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'email' AND `key` = old.`email` AND `status` = old.`status`;
	UPDATE `blog_counts` SET `n` = `n` - 1 WHERE `scope` = 'category' AND `key` = old.`category` AND `status` = old.`status`;
	INSERT INTO `blog_counts` (`scope`, `key`, `status`, `n`) VALUES
		('all', '', new.`status`, 1), ('author', new.`author_id`, new.`status`, 1),
		('email', new.`email`, new.`status`, 1), ('category', new.`category`, new.`status`, 1)
	ON CONFLICT (`scope`, `key`, `status`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
INSERT INTO `writer_totals` (`owner`, `posts`, `likes`, `comments`, `saves`, `views`)
	SELECT '*', (SELECT count(*) FROM `blogs`), (SELECT coalesce(sum(`likes`), 0) FROM `blogs`),
		(SELECT count(*) FROM `comments`), (SELECT count(*) FROM `saved_blogs`),
		(SELECT coalesce(sum(`views`), 0) FROM `blog_views_daily`)
	UNION ALL SELECT `author_id`, count(*), coalesce(sum(`likes`), 0),
		coalesce(sum((SELECT count(*) FROM `comments` c WHERE c.`blog_id` = `blogs`.`id`)), 0),
		coalesce(sum((SELECT count(*) FROM `saved_blogs` s WHERE s.`blog_id` = `blogs`.`id`)), 0),
		coalesce(sum((SELECT sum(v.`views`) FROM `blog_views_daily` v WHERE v.`blog_id` = `blogs`.`id`)), 0)
	FROM `blogs` GROUP BY `author_id`;
--> statement-breakpoint
INSERT INTO `writer_views_daily` (`owner`, `day`, `views`)
	SELECT '*', `day`, sum(`views`) FROM `blog_views_daily` GROUP BY `day`
	UNION ALL SELECT b.`author_id`, v.`day`, sum(v.`views`) FROM `blog_views_daily` v JOIN `blogs` b ON b.`id` = v.`blog_id`
	GROUP BY b.`author_id`, v.`day`;
--> statement-breakpoint
CREATE TRIGGER `writer_totals_blog_insert` AFTER INSERT ON `blogs` BEGIN
	INSERT INTO `writer_totals` (`owner`, `posts`, `likes`) VALUES ('*', 1, new.`likes`), (new.`author_id`, 1, new.`likes`)
	ON CONFLICT (`owner`) DO UPDATE SET `posts` = `posts` + 1, `likes` = `likes` + excluded.`likes`;
END;
--> statement-breakpoint
CREATE TRIGGER `writer_totals_blog_likes` AFTER UPDATE OF `likes` ON `blogs` BEGIN
	UPDATE `writer_totals` SET `likes` = `likes` + new.`likes` - old.`likes` WHERE `owner` IN ('*', new.`author_id`);
END;
--> statement-breakpoint
-- BEFORE the delete: the post's comments, saves and views are still there to subtract. Their own
-- cascaded deletes come after the post is gone, so their triggers (which need the post) do nothing.
CREATE TRIGGER `writer_totals_blog_delete` BEFORE DELETE ON `blogs` BEGIN
	UPDATE `writer_totals` SET `posts` = `posts` - 1, `likes` = `likes` - old.`likes`,
		`comments` = `comments` - (SELECT count(*) FROM `comments` WHERE `blog_id` = old.`id`),
		`saves` = `saves` - (SELECT count(*) FROM `saved_blogs` WHERE `blog_id` = old.`id`),
		`views` = `views` - (SELECT coalesce(sum(`views`), 0) FROM `blog_views_daily` WHERE `blog_id` = old.`id`)
	WHERE `owner` IN ('*', old.`author_id`);
	UPDATE `writer_views_daily` SET `views` = `views` - coalesce((SELECT v.`views` FROM `blog_views_daily` v
		WHERE v.`blog_id` = old.`id` AND v.`day` = `writer_views_daily`.`day`), 0)
	WHERE `owner` IN ('*', old.`author_id`) AND `day` IN (SELECT `day` FROM `blog_views_daily` WHERE `blog_id` = old.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `writer_totals_comment_insert` AFTER INSERT ON `comments` BEGIN
	UPDATE `writer_totals` SET `comments` = `comments` + 1
	WHERE `owner` IN ('*', (SELECT `author_id` FROM `blogs` WHERE `id` = new.`blog_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `writer_totals_comment_delete` AFTER DELETE ON `comments` BEGIN
	UPDATE `writer_totals` SET `comments` = `comments` - 1
	WHERE `owner` IN ('*', (SELECT `author_id` FROM `blogs` WHERE `id` = old.`blog_id`))
		AND EXISTS (SELECT 1 FROM `blogs` WHERE `id` = old.`blog_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `writer_totals_save_insert` AFTER INSERT ON `saved_blogs` BEGIN
	UPDATE `writer_totals` SET `saves` = `saves` + 1
	WHERE `owner` IN ('*', (SELECT `author_id` FROM `blogs` WHERE `id` = new.`blog_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `writer_totals_save_delete` AFTER DELETE ON `saved_blogs` BEGIN
	UPDATE `writer_totals` SET `saves` = `saves` - 1
	WHERE `owner` IN ('*', (SELECT `author_id` FROM `blogs` WHERE `id` = old.`blog_id`))
		AND EXISTS (SELECT 1 FROM `blogs` WHERE `id` = old.`blog_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `writer_totals_views_insert` AFTER INSERT ON `blog_views_daily` BEGIN
	UPDATE `writer_totals` SET `views` = `views` + new.`views`
	WHERE `owner` IN ('*', (SELECT `author_id` FROM `blogs` WHERE `id` = new.`blog_id`));
	INSERT INTO `writer_views_daily` (`owner`, `day`, `views`)
		SELECT '*', new.`day`, new.`views` UNION ALL SELECT `author_id`, new.`day`, new.`views` FROM `blogs` WHERE `id` = new.`blog_id`
	ON CONFLICT (`owner`, `day`) DO UPDATE SET `views` = `views` + excluded.`views`;
END;
--> statement-breakpoint
CREATE TRIGGER `writer_totals_views_update` AFTER UPDATE OF `views` ON `blog_views_daily` BEGIN
	UPDATE `writer_totals` SET `views` = `views` + new.`views` - old.`views`
	WHERE `owner` IN ('*', (SELECT `author_id` FROM `blogs` WHERE `id` = new.`blog_id`));
	UPDATE `writer_views_daily` SET `views` = `views` + new.`views` - old.`views`
	WHERE `day` = new.`day` AND `owner` IN ('*', (SELECT `author_id` FROM `blogs` WHERE `id` = new.`blog_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `writer_totals_views_delete` AFTER DELETE ON `blog_views_daily` BEGIN
	UPDATE `writer_totals` SET `views` = `views` - old.`views`
	WHERE `owner` IN ('*', (SELECT `author_id` FROM `blogs` WHERE `id` = old.`blog_id`))
		AND EXISTS (SELECT 1 FROM `blogs` WHERE `id` = old.`blog_id`);
	UPDATE `writer_views_daily` SET `views` = `views` - old.`views`
	WHERE `day` = old.`day` AND `owner` IN ('*', (SELECT `author_id` FROM `blogs` WHERE `id` = old.`blog_id`))
		AND EXISTS (SELECT 1 FROM `blogs` WHERE `id` = old.`blog_id`);
END;
--> statement-breakpoint
-- An account that goes takes its rows (its posts' counts were already taken back by the cascade).
CREATE TRIGGER `writer_totals_user_delete` AFTER DELETE ON `users` BEGIN
	DELETE FROM `writer_totals` WHERE `owner` = old.`id`;
	DELETE FROM `writer_views_daily` WHERE `owner` = old.`id`;
	DELETE FROM `blog_counts` WHERE `scope` = 'author' AND `key` = old.`id`;
END;
