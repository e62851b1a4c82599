CREATE TABLE `mail_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`purpose` text NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_links_token_idx` ON `mail_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `mail_links_user_idx` ON `mail_links` (`user_id`,`purpose`);--> statement-breakpoint
ALTER TABLE `users` ADD `address_unconfirmed` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Accounts the checkout's auto-login made before this change have not confirmed their address by a link either.
UPDATE `users` SET `address_unconfirmed` = 1 WHERE `id` IN (SELECT `created_user_id` FROM `checkouts` WHERE `created_user_id` IS NOT NULL);
