-- IF NOT EXISTS throughout: drizzle-kit stamped this migration before 0018 in the journal, and the
-- migrator skips a migration older than the newest one applied, so a shop at 0018 never got it. Its
-- journal time is now after 0018's; a shop that did apply it (a new database) runs it again harmlessly.
CREATE TABLE IF NOT EXISTS `refunds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer,
	`stray_payment_id` integer,
	`payment_intent_id` text NOT NULL,
	`line_ids` text DEFAULT '[]' NOT NULL,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'jpy' NOT NULL,
	`method` text,
	`reason` text NOT NULL,
	`request_key` text NOT NULL,
	`provider_refund_id` text,
	`status` text DEFAULT 'requested' NOT NULL,
	`failure_reason` text,
	`admin_user_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`succeeded_at` integer,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`stray_payment_id`) REFERENCES `stray_payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`admin_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS `refunds_request_key_idx` ON `refunds` (`request_key`);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS `refunds_provider_refund_idx` ON `refunds` (`provider_refund_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `refunds_order_idx` ON `refunds` (`order_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `refunds_stray_payment_idx` ON `refunds` (`stray_payment_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `refunds_created_idx` ON `refunds` (`created_at`,`status`);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `stray_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`payment_intent_id` text NOT NULL,
	`reason` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`checkout_id` text,
	`order_id` integer,
	`customer_email` text,
	`detail` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS `stray_payments_intent_idx` ON `stray_payments` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `stray_payments_created_idx` ON `stray_payments` (`created_at`);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `test_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_intent_id` text NOT NULL,
	`amount` integer NOT NULL,
	`status` text NOT NULL,
	`method` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`shop_refund_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS `test_refunds_idempotency_idx` ON `test_refunds` (`idempotency_key`);--> statement-breakpoint
-- A refund changes what the order list shows (its 返金 mark and filter): it counts as a write to
-- the orders, like the triggers of 0016.
CREATE TRIGGER IF NOT EXISTS `refunds_orders_version_insert` AFTER INSERT ON `refunds`
BEGIN
  UPDATE `orders_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `refunds_orders_version_update` AFTER UPDATE ON `refunds`
BEGIN
  UPDATE `orders_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `refunds_orders_version_delete` AFTER DELETE ON `refunds`
BEGIN
  UPDATE `orders_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
