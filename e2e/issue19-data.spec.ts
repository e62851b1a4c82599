import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { slugKey } from "../app/lib/slug";
import { jsEnabled, uniqueEmail } from "./helpers";
import { loginAsAdmin } from "./users";

const TAKEN = (name: string) =>
  `「${name}」と同じURLになるため、この大会名は使えません。別の大会名を入力してください。`;

test("issue 19 item 1: 新規大会追加 closes on success and refuses a second contest of the same name", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("contest-slug-admin"));
  const name = `同名テスト大会 ${test.info().project.name} ${Date.now()}`;
  await page.goto("/admin");
  const dialog = page.getByRole("dialog", { name: "新規大会追加" });

  const openForm = async () => {
    await page.getByRole("link", { name: "新規大会追加" }).click();
    if (jsEnabled()) await expect(dialog).toBeVisible();
    else await expect(page).toHaveURL(/\/admin\/contests\/new$/);
  };

  await openForm();
  await page.getByLabel("大会名").fill(name);
  await page.getByRole("button", { name: "追加", exact: true }).click();
  await expect(page.getByText("追加完了")).toBeVisible();
  await expect(page.getByRole("rowheader", { name, exact: true })).toHaveCount(1);
  if (jsEnabled()) await expect(dialog).toBeHidden();
  else await expect(page).toHaveURL(/\/admin$/);

  // Opened again, the form is empty; the same name (spaced differently) is refused under the field.
  await openForm();
  await expect(page.getByLabel("大会名")).toHaveValue("");
  const again = `  ${name.replace("同名テスト大会 ", "同名テスト大会")}`;
  await page.getByLabel("大会名").fill(again);
  await page.getByRole("button", { name: "追加", exact: true }).click();
  await expect(page.getByText(TAKEN(name))).toBeVisible();
  await expect(page.getByLabel("大会名")).toHaveValue(again);
  if (jsEnabled()) await expect(dialog).toBeVisible();
  await expect(page.getByLabel("大会名")).toHaveAttribute("aria-invalid", "true");

  await page.goto("/admin");
  await expect(page.getByRole("rowheader", { name, exact: true })).toHaveCount(1);

  // Renaming another contest to the taken name is refused on 大会設定, the typed name kept.
  const other = `改名テスト大会 ${test.info().project.name} ${Date.now()}`;
  await openForm();
  await page.getByLabel("大会名").fill(other);
  await page.getByRole("button", { name: "追加", exact: true }).click();
  await expect(page.getByText("追加完了")).toBeVisible();
  await page.getByRole("link", { name: `${other}を編集` }).click();
  await page.getByRole("link", { name: "大会設定" }).click();
  const basic = page.getByRole("region", { name: "基本情報" });
  await basic.getByLabel("大会名").fill(name);
  await basic.getByRole("button", { name: "基本情報を保存" }).click();
  await expect(basic.getByText(TAKEN(name))).toBeVisible();
  await expect(basic.getByLabel("大会名")).toHaveValue(name);
  await expect(page.getByRole("heading", { level: 1, name: other })).toBeVisible();
});

const dbFile = path.resolve(import.meta.dirname, "..", ".tmp", "e2e", "shop.db");

function withDb<T>(work: (db: Database.Database) => T): T {
  const db = new Database(dbFile);
  db.pragma("busy_timeout = 5000");
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** A contest of the test's own with athletes 1..n named 選手1..選手n. */
function seedContestWithAthletes(name: string, howMany: number): number {
  return withDb((db) => {
    const { id } = db
      .prepare("insert into contests (name, slug_key) values (?, ?) returning id")
      .get(name, slugKey(name)) as { id: number };
    db.prepare(
      "insert into video_formats (contest_id, name, display_order) values (?, '縦', 0), (?, '横', 1)",
    ).run(id, id);
    const athlete = db.prepare(
      "insert into athletes (contest_id, athlete_number, name, vertical_video_price, horizontal_video_price) values (?, ?, ?, 5000, 5000)",
    );
    for (let n = 1; n <= howMany; n++) athlete.run(id, n, `選手${n}`);
    return id;
  });
}

const athleteRow = (page: Page, name: string) => page.getByRole("row", { name, exact: true });

test("issue 19 item 6: two athletes of one contest cannot share a number", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("athlete-number-admin"));
  const contestId = seedContestWithAthletes(`番号重複テスト ${test.info().project.name} ${Date.now()}`, 3);
  await page.goto(`/admin/contest/${contestId}`);

  // Row edit: another athlete's number is refused under the field, the typed values kept.
  const second = athleteRow(page, "2 選手2");
  await second.getByLabel("ゼッケン番号").fill("1");
  await second.getByLabel("選手名").fill("佐藤 二郎");
  await second.getByRole("button", { name: "2 選手2を保存" }).click();
  const refusedRow = page.getByRole("row", { name: /選手2|佐藤 二郎/ });
  await expect(
    refusedRow.getByText("番号1は選手「選手1」が使っています。別の番号を入力してください。"),
  ).toBeVisible();
  await expect(refusedRow.getByLabel("ゼッケン番号")).toHaveValue("1");
  await expect(refusedRow.getByLabel("選手名")).toHaveValue("佐藤 二郎");
  expect(
    withDb((db) =>
      db
        .prepare("select athlete_number as n from athletes where contest_id = ? and name = '選手2'")
        .get(contestId),
    ),
  ).toEqual({ n: 2 });

  // A deleted athlete's number is free: delete 選手1, then 選手2 may take 1.
  await page.goto(`/admin/contest/${contestId}`);
  await athleteRow(page, "1 選手1").getByRole("button", { name: "1 選手1を削除" }).click();
  await expect(athleteRow(page, "1 選手1")).toHaveCount(0);
  await athleteRow(page, "2 選手2").getByLabel("ゼッケン番号").fill("1");
  await athleteRow(page, "2 選手2").getByRole("button", { name: "2 選手2を保存" }).click();
  await expect(athleteRow(page, "1 選手2")).toBeVisible();

  // Bulk: restoring 選手1 now would make a pair; refused naming the rows, nothing restored.
  await page.getByRole("link", { name: "削除済み（1）" }).click();
  await page.getByRole("checkbox", { name: "1 選手1を選択" }).check();
  await page
    .getByRole("form", { name: "選択した選手の一括操作" })
    .getByRole("button", { name: "選択した選手を復元" })
    .click();
  await expect(
    page
      .getByText("同じ番号の選手がいるため復元できません（番号1「選手1」は選手「選手2」が使っています）。", {
        exact: false,
      })
      // With JS the page's notice repeats the bulk form's message.
      .first(),
  ).toBeVisible();
  await page.goto(`/admin/contest/${contestId}?view=deleted`);
  await expect(athleteRow(page, "1 選手1")).toBeVisible();
  expect(
    withDb((db) =>
      db.prepare("select count(*) as n from athletes where contest_id = ? and is_deleted = 0").get(contestId),
    ),
  ).toEqual({ n: 2 });
});
