ALTER TABLE `users` ADD `contact_email` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `users_contact_email_idx` ON `users` (`contact_email`) WHERE contact_email != '';
