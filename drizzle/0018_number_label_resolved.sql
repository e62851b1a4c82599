-- An order copies its contest's number label when it is made; orders made before stored '' when the
-- contest had none, and every screen and mail read '' as ゼッケン番号. Resolved once here instead.
UPDATE `orders` SET `bib_number_label` = 'ゼッケン番号' WHERE `bib_number_label` = '';
