ALTER TABLE `orders` ADD `manual_payment_confirmed_by` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `manual_payment_confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `provider_payment_reported_at` integer;