CREATE TABLE `media_upload_parts` (
	`upload_id` text NOT NULL,
	`part_number` integer NOT NULL,
	`etag` text,
	PRIMARY KEY(`upload_id`, `part_number`),
	FOREIGN KEY (`upload_id`) REFERENCES `media_uploads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `media_uploads` ADD `stored_name` text;--> statement-breakpoint
ALTER TABLE `media_uploads` ADD `store_upload_id` text;--> statement-breakpoint
ALTER TABLE `media_uploads` ADD `last_chunk_at` integer;--> statement-breakpoint
-- Uploads under way before this migration kept no stored name: they start again from chunk 0.
UPDATE `media_uploads` SET `received_chunks` = 0;
