DROP INDEX `stray_payments_intent_idx`;--> statement-breakpoint
ALTER TABLE `stray_payments` ADD `provider_refund_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `stray_payments_refund_idx` ON `stray_payments` (`provider_refund_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `stray_payments_intent_idx` ON `stray_payments` (`payment_intent_id`) WHERE provider_refund_id is null;