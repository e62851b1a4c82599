CREATE TABLE `media_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`subject_id` integer NOT NULL,
	`status` text DEFAULT 'waiting' NOT NULL,
	`progress` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`claimed_by` text,
	`claimed_until` integer,
	`detail` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `media_jobs_subject_idx` ON `media_jobs` (`subject`,`subject_id`,`kind`);--> statement-breakpoint
CREATE INDEX `media_jobs_due_idx` ON `media_jobs` (`status`,`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `delivery_files` ADD `video` text;--> statement-breakpoint
ALTER TABLE `delivery_files` ADD `poster_stored_name` text;--> statement-breakpoint
ALTER TABLE `delivery_files` ADD `phone_stored_name` text;--> statement-breakpoint
ALTER TABLE `delivery_files` ADD `phone_size` integer;--> statement-breakpoint
ALTER TABLE `delivery_files` ADD `phone_video` text;--> statement-breakpoint
ALTER TABLE `media_items` ADD `video` text;--> statement-breakpoint
ALTER TABLE `media_items` ADD `poster_stored_name` text;--> statement-breakpoint
CREATE INDEX `media_poster_idx` ON `media_items` (`poster_stored_name`);