-- Comment reports carry a reason (spam, abuse or other, default other for the reports made before) and, with other, the reporter's short note.
ALTER TABLE `comment_reports` ADD `reason` text DEFAULT 'other' NOT NULL;--> statement-breakpoint
ALTER TABLE `comment_reports` ADD `note` text;