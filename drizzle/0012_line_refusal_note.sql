ALTER TABLE `order_lines` ADD `refusal_note` text;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `refused_at` integer;