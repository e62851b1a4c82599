-- Hand-added: before this migration two contests could share a slug (the same name added twice);
-- only the older one's order form could be reached. Each later one is renamed with a suffix
-- that its slug keeps (the full-width brackets drop out of a slug), so every order form can
-- be reached and the admin can see which contest to rename or delete.
UPDATE `contests` SET
  `name` = `name` || '（重複' || `id` || '）',
  `slug_key` = `slug_key` || '重複' || `id`
WHERE EXISTS (
  SELECT 1 FROM `contests` AS `older`
  WHERE `older`.`slug_key` = `contests`.`slug_key` AND `older`.`id` < `contests`.`id`
);--> statement-breakpoint
DROP INDEX `contests_slug_key_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `contests_slug_key_idx` ON `contests` (`slug_key`);
