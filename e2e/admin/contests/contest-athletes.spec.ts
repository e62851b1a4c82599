import { expect, test, type Page } from "@playwright/test";
import { contestSlug } from "../../../app/lib/rules/slug";
import { jsEnabled, routerSettled, uniqueEmail } from "../../support/helpers";
import { withDb } from "../../support/db";
import { loginAsAdmin } from "../../support/users";

async function createContestThroughUi(page: Page, name: string): Promise<number> {
  await page.goto("/admin/contests/new");
  await page.getByLabel("大会名").fill(name);
  await page.getByRole("button", { name: "追加" }).click();
  await expect(page.getByText("追加完了")).toBeVisible();
  const id = withDb(
    (db) => (db.prepare("select id from contests where name = ?").get(name) as { id: number }).id,
  );
  withDb((db) =>
    db.prepare("insert into categories (contest_id, name, color) values (?, 'A部門', '#ef4444')").run(id),
  );
  return id;
}

/** Saving answers differently with and without JS: an in-row confirmation or a toast after the reload. */
async function expectSaved(page: Page, rowName: string) {
  if (jsEnabled()) {
    const saved = page.getByRole("row", { name: rowName });
    await expect(saved.getByRole("status")).toHaveText("保存しました");
    await expect(saved).toHaveAttribute("data-highlight", "saved");
    // The highlight is meant to last 2 s; generous here, the box is shared.
    await expect(saved).not.toHaveAttribute("data-highlight", "saved", { timeout: 6_000 });
  } else {
    await expect(page.getByText("保存完了")).toBeVisible();
  }
}

function row(page: Page, name: string) {
  return page.getByRole("row", { name, exact: true });
}

test("athletes: add 30, edit one, bulk prices, soft delete, restore, permanent delete, and the storefront follows", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("athletes-admin"));
  const name = `選手管理E2E ${test.info().project.name} ${Date.now()}`;
  const contestId = await createContestThroughUi(page, name);
  const tab = `/admin/contest/${contestId}`;
  await page.goto(tab);
  await expect(page.getByRole("link", { name: "選手管理" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("選手が登録されていません")).toBeVisible();

  // A bad number is refused beside the field, keeping what was typed.
  await page.getByLabel("追加する人数").fill("0");
  await page.getByRole("button", { name: "選手を追加" }).click();
  await expect(page.getByText("正しい数を入力してください")).toBeVisible();
  await expect(page.getByLabel("追加する人数")).toHaveValue("0");
  await page.getByLabel("追加する人数").fill("30");
  await page.getByRole("button", { name: "選手を追加" }).click();
  await expect(page.getByText("追加完了")).toBeVisible();
  await expect(page.locator("tbody tr")).toHaveCount(30);
  await expect(page.getByRole("link", { name: "選手一覧（30）" })).toBeVisible();
  const first = row(page, "1 選手1");
  await expect(first.getByLabel("選手名")).toHaveValue("選手1");
  await expect(first.getByLabel("縦の価格")).toHaveValue("5000");
  await expect(first.getByLabel("横の価格")).toHaveValue("5000");
  // New athletes are 未撮影, shown as 確認中.
  await expect(first.getByLabel("動画ステータス").locator("option:checked")).toHaveText("確認中");
  await expect(row(page, "30 選手30")).toBeVisible();

  // Edit one row: name, number, category, price, status.
  const fifth = row(page, "5 選手5");
  await fifth.getByLabel("選手名").fill("");
  await fifth.getByRole("button", { name: "5 選手5を保存" }).click();
  await expect(fifth.getByText("選手名を入力してください")).toBeVisible();
  await fifth.getByLabel("選手名").fill("山田 花子");
  await fifth.getByLabel("ゼッケン番号").fill("105");
  await fifth.getByLabel("部門").selectOption("A部門");
  await fifth.getByLabel("縦の価格").fill("3000");
  await fifth.getByLabel("動画ステータス").selectOption("販売中");
  await fifth.getByRole("button", { name: "5 選手5を保存" }).click();
  await expectSaved(page, "105 山田 花子");
  const edited = row(page, "105 山田 花子");
  await expect(edited.getByLabel("縦の価格")).toHaveValue("3000");
  await expect(edited.getByLabel("横の価格")).toHaveValue("5000");
  await expect(edited.getByLabel("部門")).toHaveValue("A部門");
  await expect(edited.getByLabel("動画ステータス")).toHaveValue("販売中");
  // The other status was left alone and is still the legacy value underneath.
  expect(
    withDb((db) =>
      db
        .prepare("select photo_status from athletes where contest_id = ? and athlete_number = 105")
        .get(contestId),
    ),
  ).toEqual({ photo_status: "未撮影" });

  // Bulk-set the 横 price of three athletes.
  const bulk = page.getByRole("form", { name: "選択した選手の一括操作" });
  for (const n of [1, 2, 3]) await page.getByRole("checkbox", { name: `${n} 選手${n}を選択` }).check();
  await bulk.getByLabel("横の価格").fill("6000");
  await bulk.getByRole("button", { name: "一括更新" }).click();
  if (jsEnabled())
    await expect(
      page.getByRole("status").filter({ hasText: "3人の価格・ステータスを更新しました。" }),
    ).toBeVisible();
  else await expect(page.getByText("一括操作完了")).toBeVisible();
  for (const n of [1, 2, 3])
    await expect(row(page, `${n} 選手${n}`).getByLabel("横の価格")).toHaveValue("6000");
  await expect(row(page, "4 選手4").getByLabel("横の価格")).toHaveValue("5000");

  // Soft delete one, see it under 削除済み, restore it.
  await row(page, "2 選手2").getByRole("button", { name: "2 選手2を削除" }).click();
  await expect(row(page, "2 選手2")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "削除済み（1）" })).toBeVisible();
  await page.getByRole("link", { name: "削除済み（1）" }).click();
  await expect(row(page, "2 選手2")).toBeVisible();
  await row(page, "2 選手2").getByRole("button", { name: "2 選手2を復元" }).click();
  await expect(row(page, "2 選手2")).toHaveCount(0);
  await expect(page.getByText("削除済みの選手はいません")).toBeVisible();
  await page.getByRole("link", { name: "選手一覧（30）" }).click();
  await expect(row(page, "2 選手2").getByLabel("横の価格")).toHaveValue("6000");

  // Permanently delete one (with a confirmation), then two at once.
  await row(page, "3 選手3").getByRole("button", { name: "3 選手3を削除" }).click();
  await expect(row(page, "3 選手3")).toHaveCount(0);
  for (const n of [4, 6]) await page.getByRole("checkbox", { name: `${n} 選手${n}を選択` }).check();
  await bulk.getByRole("button", { name: "選択した選手を削除" }).click();
  await expect(row(page, "4 選手4")).toHaveCount(0);
  await expect(row(page, "6 選手6")).toHaveCount(0);
  await page.getByRole("link", { name: "削除済み（3）" }).click();
  await expect(page.locator("tbody tr")).toHaveCount(3);

  await row(page, "3 選手3").getByRole("link", { name: "3 選手3を完全に削除" }).click();
  if (jsEnabled()) {
    await page
      .getByRole("dialog", { name: "本当に完全に削除しますか？" })
      .getByRole("button", { name: "完全に削除する" })
      .click();
  } else {
    await expect(page.getByRole("heading", { name: "本当に完全に削除しますか？" })).toBeVisible();
    await page.getByRole("button", { name: "完全に削除する" }).click();
    await expect(page.getByText("完全削除完了")).toBeVisible();
  }
  await expect(row(page, "3 選手3")).toHaveCount(0);

  const deletedBulk = page.getByRole("form", { name: "選択した選手の一括操作" });
  if (jsEnabled()) await page.getByRole("checkbox", { name: "このページの選手をすべて選択" }).check();
  else await page.getByRole("link", { name: "このページの全員を選択" }).click();
  for (const n of [4, 6])
    await expect(page.getByRole("checkbox", { name: `${n} 選手${n}を選択` })).toBeChecked();
  await deletedBulk.getByRole("button", { name: "選択した選手を完全に削除" }).click();
  if (jsEnabled()) {
    await page
      .getByRole("dialog", { name: "本当に完全に削除しますか？" })
      .getByRole("button", { name: "完全に削除する" })
      .click();
  } else {
    // Without JS the confirmation is a required checkbox; the selection survives the refusal.
    await expect(page.getByText("完全に削除する場合は確認欄にチェックを入れてください")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "4 選手4を選択" })).toBeChecked();
    await deletedBulk.getByLabel("完全に削除することを確認しました（取り消せません）").check();
    await deletedBulk.getByRole("button", { name: "選択した選手を完全に削除" }).click();
  }
  await expect(page.getByText("削除済みの選手はいません")).toBeVisible();
  expect(
    withDb((db) =>
      db
        .prepare("select athlete_number as n from athletes where contest_id = ? order by athlete_number")
        .all(contestId),
    ).map((r) => (r as { n: number }).n),
  ).not.toEqual(expect.arrayContaining([3]));
  expect(
    withDb(
      (db) =>
        (
          db.prepare("select count(*) as n from athletes where contest_id = ?").get(contestId) as {
            n: number;
          }
        ).n,
    ),
  ).toBe(27);

  // The storefront follows: 販売中 can be ordered, 受注停止 cannot.
  withDb((db) =>
    db
      .prepare("update contests set video_published = 1, site_public_status = '公開' where id = ?")
      .run(contestId),
  );
  const orderForm = `/order-form/${encodeURIComponent(contestSlug(name))}`;
  await page.goto(orderForm);
  const athleteSelect = page.getByRole("group", { name: "商品1" }).getByLabel("ゼッケン番号");
  await expect(athleteSelect.locator("option", { hasText: "105 山田 花子" })).toHaveCount(1);
  await expect(athleteSelect.locator("option", { hasText: "1 選手1" })).toHaveCount(0);

  await page.goto(tab);
  await row(page, "105 山田 花子").getByLabel("動画ステータス").selectOption("受注停止");
  await row(page, "105 山田 花子").getByRole("button", { name: "105 山田 花子を保存" }).click();
  await expectSaved(page, "105 山田 花子");
  await page.goto(orderForm);
  await expect(athleteSelect.locator("option", { hasText: "105 山田 花子" })).toHaveCount(0);
});

test("a row save that fails is answered with the reason, keeps what was typed and saves nothing", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("athletes-rollback"));
  const contestId = await createContestThroughUi(
    page,
    `選手ロールバックE2E ${test.info().project.name} ${Date.now()}`,
  );
  await page.goto(`/admin/contest/${contestId}`);
  await page.getByLabel("追加する人数").fill("3");
  await page.getByRole("button", { name: "選手を追加" }).click();
  await expect(page.locator("tbody tr")).toHaveCount(3);
  const nameOf = (n: number) =>
    withDb((db) =>
      db.prepare("select name from athletes where contest_id = ? and athlete_number = ?").get(contestId, n),
    );

  // Another admin removes the category this page still offers.
  const second = row(page, "2 選手2");
  await second.getByLabel("選手名").fill("変更した名前");
  await second.getByLabel("部門").selectOption("A部門");
  withDb((db) => db.prepare("delete from categories where contest_id = ?").run(contestId));
  await second.getByRole("button", { name: "2 選手2を保存" }).click();
  await expect(second.getByText("部門を選択してください")).toBeVisible();
  // What was typed stays on the screen to be fixed (with JS as without); nothing is saved.
  await expect(second.getByLabel("選手名")).toHaveValue("変更した名前");
  expect(nameOf(2)).toEqual({ name: "選手2" });
  // With JS the save's answer is followed by a reload of the list; athlete 3 must still be in it
  // when it comes back, or the page would rightly drop the row this test is about to save.
  await routerSettled(page);

  // Another admin deletes athlete 3 while this page still shows it.
  withDb((db) =>
    db
      .prepare("update athletes set is_deleted = 1 where contest_id = ? and athlete_number = 3")
      .run(contestId),
  );
  await row(page, "3 選手3").getByLabel("選手名").fill("消えた選手");
  await row(page, "3 選手3").getByRole("button", { name: "3 選手3を保存" }).click();
  await expect(
    page.getByText("選手が見つかりません。削除されたか、この大会の選手ではありません。").first(),
  ).toBeVisible();
  expect(nameOf(3)).toEqual({ name: "選手3" });
});
