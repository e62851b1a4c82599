CREATE TABLE `backup_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer NOT NULL,
	`status` text NOT NULL,
	`name` text,
	`bytes` integer,
	`attempt` integer DEFAULT 1 NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `backup_runs_status_idx` ON `backup_runs` (`status`,`finished_at`);--> statement-breakpoint
ALTER TABLE `test_payment_intents` ADD `metadata` text;