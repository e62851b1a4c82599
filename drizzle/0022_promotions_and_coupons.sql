CREATE TABLE `contest_promotions` (
	`contest_id` integer PRIMARY KEY NOT NULL,
	`early_bird_vertical_price` integer,
	`early_bird_horizontal_price` integer,
	`early_bird_ends_at` integer,
	`set_discount` integer,
	`quantity_min_items` integer,
	`quantity_discount_kind` text,
	`quantity_discount_value` integer,
	`updated_at` integer,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `coupon_uses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`coupon_id` integer NOT NULL,
	`checkout_id` text NOT NULL,
	`order_id` integer,
	`email` text NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`held_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`coupon_id`) REFERENCES `coupons`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coupon_uses_checkout_idx` ON `coupon_uses` (`coupon_id`,`checkout_id`);--> statement-breakpoint
CREATE INDEX `coupon_uses_email_idx` ON `coupon_uses` (`coupon_id`,`email`);--> statement-breakpoint
CREATE INDEX `coupon_uses_order_idx` ON `coupon_uses` (`order_id`);--> statement-breakpoint
CREATE TABLE `coupons` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`kind` text NOT NULL,
	`value` integer NOT NULL,
	`min_total` integer DEFAULT 0 NOT NULL,
	`valid_from` integer,
	`valid_until` integer,
	`contest_ids` text,
	`max_uses` integer,
	`max_uses_per_email` integer,
	`disabled_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coupons_code_idx` ON `coupons` (`code`);--> statement-breakpoint
DROP INDEX `orders_sales_idx`;--> statement-breakpoint
ALTER TABLE `orders` ADD `list_total` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `discounts` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `coupon_id` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `coupon_code` text;--> statement-breakpoint
CREATE INDEX `orders_sales_idx` ON `orders` (`created_at`,`payment_status`,`contest_name`,`total_amount`,`line_count`,`list_total`);--> statement-breakpoint
ALTER TABLE `checkouts` ADD `coupon_code` text;--> statement-breakpoint
ALTER TABLE `checkouts` ADD `priced_at` integer;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `list_price` integer;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `discounts` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
CREATE TRIGGER `contest_promotions_catalogue_insert` AFTER INSERT ON `contest_promotions`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `contest_promotions_catalogue_update` AFTER UPDATE ON `contest_promotions`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `contest_promotions_catalogue_delete` AFTER DELETE ON `contest_promotions`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
