CREATE TABLE `delivery_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contest_id` integer,
	`stored_name` text NOT NULL,
	`original_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`athlete_id` integer,
	`orientation` text,
	`uploaded_at` integer NOT NULL,
	`retired_at` integer,
	`deleted_at` integer,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`athlete_id`) REFERENCES `athletes`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `delivery_files_stored_name_idx` ON `delivery_files` (`stored_name`);--> statement-breakpoint
CREATE INDEX `delivery_files_contest_idx` ON `delivery_files` (`contest_id`,`retired_at`);--> statement-breakpoint
ALTER TABLE `media_uploads` ADD `purpose` text DEFAULT 'media' NOT NULL;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `delivery_file_id` integer REFERENCES delivery_files(id);--> statement-breakpoint
CREATE INDEX `order_lines_delivery_file_idx` ON `order_lines` (`delivery_file_id`);--> statement-breakpoint
ALTER TABLE `orders` ADD `delivery_changed_at` integer;--> statement-breakpoint
CREATE INDEX `orders_contest_status_created_idx` ON `orders` (`contest_id`,`status`,`created_at`);--> statement-breakpoint
-- Files attached to single order lines before delivery files existed become delivery files
-- (their size is unknown here: 0). They are retired, so they keep serving their lines but
-- do not enter their contest's pool, where two of one athlete and style would be ambiguous.
INSERT INTO `delivery_files` (`contest_id`, `stored_name`, `original_name`, `content_type`, `size`, `athlete_id`, `orientation`, `uploaded_at`, `retired_at`)
SELECT o.`contest_id`, l.`delivered_media_name`, l.`delivered_media_name`,
  CASE WHEN l.`delivered_media_name` LIKE '%.webm' THEN 'video/webm' WHEN l.`delivered_media_name` LIKE '%.mov' THEN 'video/quicktime' ELSE 'video/mp4' END,
  0, l.`athlete_id`, l.`orientation`, l.`created_at`, CAST(unixepoch('subsec') * 1000 AS integer)
FROM `order_lines` l JOIN `orders` o ON o.`id` = l.`order_id`
WHERE l.`delivered_media_name` IS NOT NULL
GROUP BY l.`delivered_media_name`;--> statement-breakpoint
UPDATE `order_lines` SET `delivery_file_id` = (SELECT f.`id` FROM `delivery_files` f WHERE f.`stored_name` = `order_lines`.`delivered_media_name`) WHERE `delivered_media_name` IS NOT NULL;
