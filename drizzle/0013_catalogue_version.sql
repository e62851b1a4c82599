-- The storefront keeps what every visitor sees alike (the home page's contests, an order form's
-- options and samples) in memory while this count stands still. Every insert, update or delete
-- of the tables it is read from adds one, whoever writes (a screen, the API, a script, a restore,
-- another process on the same file). A migration that rebuilds one of these tables drops its
-- triggers: it must create them again.
CREATE TABLE `catalogue_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
INSERT INTO `catalogue_version` (`id`, `version`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `contests_catalogue_insert` AFTER INSERT ON `contests`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `contests_catalogue_update` AFTER UPDATE ON `contests`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `contests_catalogue_delete` AFTER DELETE ON `contests`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `categories_catalogue_insert` AFTER INSERT ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `categories_catalogue_update` AFTER UPDATE ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `categories_catalogue_delete` AFTER DELETE ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `athletes_catalogue_insert` AFTER INSERT ON `athletes`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `athletes_catalogue_update` AFTER UPDATE ON `athletes`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `athletes_catalogue_delete` AFTER DELETE ON `athletes`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `video_formats_catalogue_insert` AFTER INSERT ON `video_formats`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `video_formats_catalogue_update` AFTER UPDATE ON `video_formats`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `video_formats_catalogue_delete` AFTER DELETE ON `video_formats`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `price_descriptions_catalogue_insert` AFTER INSERT ON `price_descriptions`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `price_descriptions_catalogue_update` AFTER UPDATE ON `price_descriptions`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `price_descriptions_catalogue_delete` AFTER DELETE ON `price_descriptions`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `media_items_catalogue_insert` AFTER INSERT ON `media_items`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `media_items_catalogue_update` AFTER UPDATE ON `media_items`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `media_items_catalogue_delete` AFTER DELETE ON `media_items`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
