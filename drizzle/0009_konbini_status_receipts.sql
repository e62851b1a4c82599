DROP INDEX `orders_status_created_idx`;--> statement-breakpoint
DROP INDEX `orders_contest_status_created_idx`;--> statement-breakpoint
DROP INDEX `orders_sales_idx`;--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_method` text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_status` text DEFAULT 'paid' NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `paid_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_due_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `konbini_confirmation_number` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `konbini_voucher_url` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `status_token` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Hand-added: every order made before this migration was paid by card when it was made, and gets its own status page token (128 random bits).
UPDATE `orders` SET `paid_at` = `created_at`, `status_token` = lower(hex(randomblob(16)));--> statement-breakpoint
ALTER TABLE `orders` ADD `receipt_addressee` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `receipt_issued_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `receipt_issue_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `orders_status_token_idx` ON `orders` (`status_token`);--> statement-breakpoint
CREATE INDEX `orders_payment_status_created_idx` ON `orders` (`payment_status`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_payment_due_idx` ON `orders` (`payment_status`,`payment_due_at`);--> statement-breakpoint
CREATE INDEX `orders_contest_status_created_idx` ON `orders` (`contest_id`,`payment_status`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_sales_idx` ON `orders` (`created_at`,`payment_status`,`contest_name`,`total_amount`,`line_count`);--> statement-breakpoint
ALTER TABLE `test_payment_intents` ADD `konbini_confirmation_number` text;--> statement-breakpoint
ALTER TABLE `test_payment_intents` ADD `konbini_expires_at` integer;