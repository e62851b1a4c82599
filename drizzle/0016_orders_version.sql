-- The order list's summary (counts per tab, lines still waiting for a file, the contests that
-- have orders) is kept in memory while this count stands still. Every insert, update or delete
-- of orders or their lines adds one, whoever writes (a checkout, a payment's webhook, a delivery,
-- a script, another process on the same file). A migration that rebuilds one of these tables drops
-- its triggers: it must create them again.
CREATE TABLE `orders_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
INSERT INTO `orders_version` (`id`, `version`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `orders_orders_version_insert` AFTER INSERT ON `orders`
BEGIN
  UPDATE `orders_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `orders_orders_version_update` AFTER UPDATE ON `orders`
BEGIN
  UPDATE `orders_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `orders_orders_version_delete` AFTER DELETE ON `orders`
BEGIN
  UPDATE `orders_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `order_lines_orders_version_insert` AFTER INSERT ON `order_lines`
BEGIN
  UPDATE `orders_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `order_lines_orders_version_update` AFTER UPDATE ON `order_lines`
BEGIN
  UPDATE `orders_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `order_lines_orders_version_delete` AFTER DELETE ON `order_lines`
BEGIN
  UPDATE `orders_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
