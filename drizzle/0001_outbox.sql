ALTER TABLE `mail_outbox` ADD `topic` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `status` text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `claimed_until` integer;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `expires_at` integer;--> statement-breakpoint
CREATE INDEX `mail_outbox_due_idx` ON `mail_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `mail_outbox_topic_idx` ON `mail_outbox` (`topic`,`status`);