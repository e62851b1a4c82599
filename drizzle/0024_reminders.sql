CREATE TABLE `order_reminders` (
	`order_id` integer PRIMARY KEY NOT NULL,
	`stop_token` text NOT NULL,
	`stopped_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_reminders_stop_token_idx` ON `order_reminders` (`stop_token`);--> statement-breakpoint
CREATE INDEX `download_pages_expires_idx` ON `download_pages` (`expires_at`);