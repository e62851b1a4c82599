ALTER TABLE `contests` ADD `access_code` text;--> statement-breakpoint
ALTER TABLE `contests` ADD `names_hidden` integer DEFAULT false NOT NULL;