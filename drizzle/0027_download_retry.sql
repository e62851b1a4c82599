ALTER TABLE `order_lines` ADD `download_finished_at` integer;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `download_cut_at` integer;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `download_retry_at` integer;--> statement-breakpoint
CREATE INDEX `order_lines_cut_download_idx` ON `order_lines` (`download_started_at`) WHERE "order_lines"."download_cut_at" is not null and "order_lines"."download_retry_at" is null;