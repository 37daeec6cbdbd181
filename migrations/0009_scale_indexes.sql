DROP INDEX `blogs_date_time_idx`;--> statement-breakpoint
DROP INDEX `blogs_status_publish_idx`;--> statement-breakpoint
DROP INDEX `blogs_email_idx`;--> statement-breakpoint
DROP INDEX `blogs_author_idx`;--> statement-breakpoint
DROP INDEX `blogs_category_date_idx`;--> statement-breakpoint
CREATE INDEX `blogs_newest_idx` ON `blogs` (`date_time`,`created_at`,`id`,`status`,`publish_at`,`likes`);--> statement-breakpoint
CREATE INDEX `blogs_author_newest_idx` ON `blogs` (`author_id`,`date_time`,`created_at`,`id`,`status`,`publish_at`,`likes`);--> statement-breakpoint
CREATE INDEX `blogs_email_newest_idx` ON `blogs` (`email`,`date_time`,`created_at`,`id`,`status`,`publish_at`);--> statement-breakpoint
CREATE INDEX `blogs_category_newest_idx` ON `blogs` (`category`,`date_time`,`created_at`,`id`,`status`,`publish_at`);--> statement-breakpoint
CREATE INDEX `blogs_image_idx` ON `blogs` (`image`);--> statement-breakpoint
CREATE INDEX `blogs_author_image_idx` ON `blogs` (`author_image`);--> statement-breakpoint
CREATE INDEX `blogs_scheduled_idx` ON `blogs` (`publish_at`) WHERE status = 'scheduled';--> statement-breakpoint
DROP INDEX `blog_views_daily_day_idx`;--> statement-breakpoint
CREATE INDEX `blog_views_daily_day_idx` ON `blog_views_daily` (`day`,`views`);--> statement-breakpoint
CREATE INDEX `blog_revisions_image_idx` ON `blog_revisions` (`image`);--> statement-breakpoint
CREATE INDEX `saved_blogs_blog_idx` ON `saved_blogs` (`blog_id`);--> statement-breakpoint
CREATE INDEX `users_photo_idx` ON `users` (`photo_url`);--> statement-breakpoint
CREATE INDEX `users_created_idx` ON `users` (`created_at`,`id`);