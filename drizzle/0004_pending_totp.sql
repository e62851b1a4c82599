ALTER TABLE `users` ADD `pending_totp_secret_encrypted` text;--> statement-breakpoint
ALTER TABLE `users` ADD `pending_totp_started_at` integer;