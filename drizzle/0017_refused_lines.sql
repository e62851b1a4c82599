ALTER TABLE `order_lines` RENAME COLUMN `production_possible` TO `refused`;
