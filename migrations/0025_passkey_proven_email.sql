ALTER TABLE `passkeys` ADD `proven_email` text;--> statement-breakpoint
UPDATE `passkeys` SET `proven_email` = (SELECT `users`.`email` FROM `users` WHERE `users`.`id` = `passkeys`.`user_id` AND `users`.`email_verified_at` IS NOT NULL AND `users`.`email_verified_at` = `passkeys`.`address_proven_at`);
