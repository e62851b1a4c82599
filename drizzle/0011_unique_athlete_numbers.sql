-- Two active athletes of one contest may not share a number (issue 19 item 6). A partial unique
-- index (contest_id, athlete_number) WHERE is_deleted = 0 would fail on a shop whose data
-- already holds such a pair, and no change of the data is safe: renumbering an athlete moves
-- the delivery files matched by number and leaves paid order lines with the old number. So the
-- rule is kept by triggers that refuse any new pair and leave old pairs as they are; the
-- back-office refuses to save either athlete of an old pair until one is renumbered.
-- A migration that rebuilds the athletes table drops these triggers: it must create them again.
CREATE TRIGGER `athletes_number_unique_insert`
BEFORE INSERT ON `athletes`
WHEN NEW.`is_deleted` = 0 AND EXISTS (
  SELECT 1 FROM `athletes` AS `other`
  WHERE `other`.`contest_id` = NEW.`contest_id` AND `other`.`is_deleted` = 0
    AND `other`.`athlete_number` = NEW.`athlete_number`
)
BEGIN
  SELECT RAISE(ABORT, 'athlete number taken in this contest');
END;--> statement-breakpoint
CREATE TRIGGER `athletes_number_unique_update`
BEFORE UPDATE OF `contest_id`, `athlete_number`, `is_deleted` ON `athletes`
WHEN NEW.`is_deleted` = 0 AND EXISTS (
  SELECT 1 FROM `athletes` AS `other`
  WHERE `other`.`contest_id` = NEW.`contest_id` AND `other`.`is_deleted` = 0
    AND `other`.`athlete_number` = NEW.`athlete_number` AND `other`.`id` <> NEW.`id`
)
BEGIN
  SELECT RAISE(ABORT, 'athlete number taken in this contest');
END;
