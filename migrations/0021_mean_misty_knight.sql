ALTER TABLE `passkeys` ADD `address_proven_at` integer;--> statement-breakpoint
UPDATE `passkeys` SET `address_proven_at` = (SELECT `users`.`email_verified_at` FROM `users` WHERE `users`.`id` = `passkeys`.`user_id` AND `users`.`email_verified_at` <= `passkeys`.`created_at`);
