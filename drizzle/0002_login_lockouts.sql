ALTER TABLE `users` ADD `last_failed_login_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `second_factor_failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `totp_last_step` integer;