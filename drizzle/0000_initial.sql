CREATE TABLE `athletes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contest_id` integer NOT NULL,
	`athlete_number` integer NOT NULL,
	`name` text NOT NULL,
	`category` text DEFAULT '' NOT NULL,
	`video_status` text DEFAULT '未撮影' NOT NULL,
	`photo_status` text DEFAULT '未撮影' NOT NULL,
	`vertical_video_price` integer,
	`horizontal_video_price` integer,
	`is_deleted` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `athletes_contest_idx` ON `athletes` (`contest_id`,`is_deleted`,`athlete_number`);--> statement-breakpoint
CREATE INDEX `athletes_contest_category_idx` ON `athletes` (`contest_id`,`category`,`athlete_number`);--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contest_id` integer NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `categories_contest_idx` ON `categories` (`contest_id`,`id`);--> statement-breakpoint
CREATE TABLE `checkouts` (
	`id` text PRIMARY KEY NOT NULL,
	`contest_id` integer,
	`items` text NOT NULL,
	`customer_email` text,
	`customer_name` text,
	`auto_login` integer DEFAULT false NOT NULL,
	`pending_password_hash` text,
	`email_verified_at` integer,
	`status` text DEFAULT 'draft' NOT NULL,
	`payment_intent_id` text,
	`amount` integer,
	`priced_lines` text,
	`created_user_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `checkouts_payment_intent_idx` ON `checkouts` (`payment_intent_id`);--> statement-breakpoint
CREATE TABLE `contests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug_key` text NOT NULL,
	`date` text DEFAULT '未定' NOT NULL,
	`location` text DEFAULT '' NOT NULL,
	`video_published` integer DEFAULT false NOT NULL,
	`photo_published` integer DEFAULT false NOT NULL,
	`site_public_status` text DEFAULT '非公開' NOT NULL,
	`scheduled_publish_date` integer,
	`bib_number_label` text DEFAULT 'ゼッケン番号' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
CREATE INDEX `contests_slug_key_idx` ON `contests` (`slug_key`);--> statement-breakpoint
CREATE INDEX `contests_status_idx` ON `contests` (`video_published`,`site_public_status`);--> statement-breakpoint
CREATE TABLE `download_pages` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `download_pages_order_idx` ON `download_pages` (`order_id`);--> statement-breakpoint
CREATE TABLE `login_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`email` text NOT NULL,
	`user_id` integer,
	`ip` text NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL,
	`outcome` text NOT NULL,
	`risk_score` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `login_events_created_idx` ON `login_events` (`created_at`);--> statement-breakpoint
CREATE INDEX `login_events_email_idx` ON `login_events` (`email`,`created_at`);--> statement-breakpoint
CREATE INDEX `login_events_ip_idx` ON `login_events` (`ip`,`created_at`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dedupe_key` text,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` integer NOT NULL,
	`sent_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_outbox_dedupe_idx` ON `mail_outbox` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `mail_outbox_pending_idx` ON `mail_outbox` (`sent_at`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `media_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contest_id` integer NOT NULL,
	`stored_name` text NOT NULL,
	`original_name` text NOT NULL,
	`category` text DEFAULT 'sample' NOT NULL,
	`media_type` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`width` integer,
	`height` integer,
	`display_order` integer DEFAULT 0 NOT NULL,
	`thumbnail_stored_name` text,
	`uploaded_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `media_contest_category_idx` ON `media_items` (`contest_id`,`category`,`uploaded_at`);--> statement-breakpoint
CREATE INDEX `media_contest_order_idx` ON `media_items` (`contest_id`,`display_order`);--> statement-breakpoint
CREATE UNIQUE INDEX `media_stored_name_idx` ON `media_items` (`stored_name`);--> statement-breakpoint
CREATE TABLE `media_uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`contest_id` integer NOT NULL,
	`original_name` text NOT NULL,
	`file_size` integer NOT NULL,
	`content_type` text NOT NULL,
	`media_type` text NOT NULL,
	`category` text DEFAULT 'sample' NOT NULL,
	`chunk_size` integer NOT NULL,
	`total_chunks` integer NOT NULL,
	`received_chunks` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `order_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`line_number` text NOT NULL,
	`contest_name` text NOT NULL,
	`category` text NOT NULL,
	`athlete_id` integer,
	`athlete_number` integer NOT NULL,
	`athlete_name` text NOT NULL,
	`style` text NOT NULL,
	`orientation` text NOT NULL,
	`price` integer NOT NULL,
	`status` text DEFAULT '未対応' NOT NULL,
	`production_possible` integer DEFAULT false NOT NULL,
	`video_download_url` text,
	`delivered_media_name` text,
	`download_started_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`athlete_id`) REFERENCES `athletes`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_lines_number_idx` ON `order_lines` (`line_number`);--> statement-breakpoint
CREATE INDEX `order_lines_order_idx` ON `order_lines` (`order_id`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_number` text NOT NULL,
	`checkout_id` text NOT NULL,
	`payment_intent_id` text NOT NULL,
	`contest_id` integer,
	`contest_name` text NOT NULL,
	`bib_number_label` text DEFAULT '' NOT NULL,
	`customer_email` text NOT NULL,
	`customer_name` text NOT NULL,
	`user_id` integer,
	`total_amount` integer NOT NULL,
	`line_count` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT '未対応' NOT NULL,
	`delivery_mail_sent_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_number_idx` ON `orders` (`order_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_checkout_idx` ON `orders` (`checkout_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_payment_intent_idx` ON `orders` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX `orders_email_created_idx` ON `orders` (`customer_email`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_status_created_idx` ON `orders` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_created_idx` ON `orders` (`created_at`);--> statement-breakpoint
CREATE INDEX `orders_contest_created_idx` ON `orders` (`contest_name`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_sales_idx` ON `orders` (`created_at`,`contest_name`,`total_amount`,`line_count`);--> statement-breakpoint
CREATE TABLE `price_descriptions` (
	`contest_id` integer PRIMARY KEY NOT NULL,
	`items` text NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `processed_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`key`, `window_start`)
);
--> statement-breakpoint
CREATE TABLE `test_payment_intents` (
	`id` text PRIMARY KEY NOT NULL,
	`checkout_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'jpy' NOT NULL,
	`status` text DEFAULT 'requires_payment_method' NOT NULL,
	`last_error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`password_hash` text NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`session_version` integer DEFAULT 1 NOT NULL,
	`failed_login_count` integer DEFAULT 0 NOT NULL,
	`locked_until` integer,
	`totp_secret_encrypted` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`last_login_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_idx` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_created_idx` ON `users` (`created_at`);--> statement-breakpoint
CREATE TABLE `verification_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`purpose` text NOT NULL,
	`subject` text NOT NULL,
	`email` text NOT NULL,
	`code_hash` text NOT NULL,
	`link_token_hash` text,
	`payload` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `codes_subject_idx` ON `verification_codes` (`purpose`,`subject`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `codes_link_token_idx` ON `verification_codes` (`link_token_hash`);--> statement-breakpoint
CREATE TABLE `video_formats` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contest_id` integer NOT NULL,
	`name` text NOT NULL,
	`display_order` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `video_formats_contest_idx` ON `video_formats` (`contest_id`,`display_order`);