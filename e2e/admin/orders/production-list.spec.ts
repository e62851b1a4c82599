import fs from "node:fs";
import { e2eDbFile } from "../../support/work-dir";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { uniqueEmail } from "../../support/helpers";
import { loginAsAdmin } from "../../support/users";

/**
 * A contest of its own (演奏順 as its label) with three athletes and five paid order lines from
 * four families, written straight into the server's database as paid orders are stored.
 */
function seedContest() {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const name = `制作リスト発表会${tag}`;
  const db = new Database(e2eDbFile());
  try {
    const contestId = (
      db
        .prepare(
          "insert into contests (name, slug_key, bib_number_label) values (?, ?, '演奏順') returning id",
        )
        .get(name, `seisaku${tag}`) as { id: number }
    ).id;
    const category = db.prepare("insert into categories (contest_id, name, color) values (?, ?, '#ef4444')");
    category.run(contestId, "幼児部門");
    category.run(contestId, "小学生部門");
    const athlete = db.prepare(
      "insert into athletes (contest_id, athlete_number, name, category, video_status) values (?, ?, ?, ?, ?) returning *",
    );
    type Athlete = { id: number; athlete_number: number; name: string; category: string };
    const hana = athlete.get(contestId, 1, "山田 花", "幼児部門", "販売中") as Athlete;
    const ken = athlete.get(contestId, 2, "鈴木 健", "小学生部門", "受注停止") as Athlete;
    const mio = athlete.get(contestId, 3, "佐藤 美緒", "幼児部門", "販売中") as Athlete;
    let n = 0;
    const order = (
      lines: { athlete: Athlete; orientation: "vertical" | "horizontal"; declined?: boolean }[],
      status = "未対応",
    ) => {
      const number = `${tag}${++n}`;
      const orderId = (
        db
          .prepare(
            `insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_id, contest_name, customer_email,
               customer_name, total_amount, line_count, status) values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, 'テスト 家族', ?, ?, ?) returning id`,
          )
          .get(
            number,
            `c${number}`,
            `pi${number}`,
            contestId,
            name,
            `f${number}@example.jp`,
            3000 * lines.length,
            lines.length,
            status,
          ) as {
          id: number;
        }
      ).id;
      lines.forEach((line, index) =>
        db
          .prepare(
            `insert into order_lines (order_id, line_number, contest_name, category, athlete_id, athlete_number, athlete_name,
               style, orientation, price, status, refused) values (?, ?, ?, ?, ?, ?, ?, ?, ?, 3000, ?, ?)`,
          )
          .run(
            orderId,
            `${number}-${index + 1}`,
            name,
            line.athlete.category,
            line.athlete.id,
            line.athlete.athlete_number,
            line.athlete.name,
            line.orientation === "vertical" ? "縦" : "横",
            line.orientation,
            status,
            line.declined ? 1 : 0,
          ),
      );
    };
    order([
      { athlete: hana, orientation: "vertical" },
      { athlete: ken, orientation: "horizontal" },
    ]);
    order([{ athlete: hana, orientation: "vertical" }]);
    order([{ athlete: mio, orientation: "vertical" }], "納品済み");
    order([{ athlete: mio, orientation: "horizontal", declined: true }]);
    return { contestId, name };
  } finally {
    db.close();
  }
}

test("the 制作リスト: one row per athlete and style, filtered by category and 未納品のみ, as CSV", async ({
  page,
  context,
  baseURL,
}) => {
  const js = test.info().project.name === "js";
  const { contestId, name } = seedContest();
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("production-admin"));

  await page.goto(`/admin/contest/${contestId}`);
  await page
    .getByRole("navigation", { name: "大会編集メニュー" })
    .getByRole("link", { name: "制作リスト" })
    .click();
  await expect(page).toHaveURL(`/admin/contest/${contestId}/production`);
  await expect(page.getByRole("heading", { name: "制作リスト", exact: true })).toBeVisible();

  const table = page.getByRole("table");
  await expect(table.getByRole("columnheader").first()).toHaveText("演奏順");
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText("山田 花");
  await expect(rows.nth(0)).toContainText("縦");
  await expect(rows.nth(0).getByRole("cell").nth(4)).toHaveText("2");
  await expect(rows.nth(0)).toContainText("未納品");
  await expect(rows.nth(1)).toContainText("鈴木 健");
  await expect(rows.nth(1)).toContainText("受注停止");
  await expect(rows.nth(1)).toHaveAttribute("data-flagged", "true");
  await expect(rows.nth(2)).toContainText("佐藤 美緒");
  await expect(rows.nth(2)).toContainText("納品済み");
  await expect(rows.nth(3)).toContainText("お断り");
  await expect(page.getByTestId("production-totals")).toContainText("4件（注文明細 5本）・未納品 3件");
  await expect(page.getByLabel("目印の説明")).toContainText("受注停止");
  // Printing needs the script; without it the button is not offered.
  await expect(page.getByRole("button", { name: "印刷" })).toHaveCount(js ? 1 : 0);

  await page.getByLabel("部門", { exact: true }).selectOption("幼児部門");
  await page.getByRole("button", { name: "絞り込み" }).click();
  await expect(page).toHaveURL(/category=/);
  await expect(rows).toHaveCount(3);
  await expect(table).not.toContainText("鈴木 健");

  await page.getByLabel("未納品のみ").check();
  await page.getByRole("button", { name: "絞り込み" }).click();
  await expect(page).toHaveURL(/open=1/);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("山田 花");
  await expect(rows.nth(1)).toContainText("佐藤 美緒");
  await expect(page.getByLabel("部門", { exact: true })).toHaveValue("幼児部門");
  await expect(page.getByLabel("未納品のみ")).toBeChecked();

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "CSVダウンロード" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^制作リスト_${name}_\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const bytes = fs.readFileSync((await download.path()) ?? "");
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString("utf8").trimEnd().split("\r\n");
  expect(lines).toHaveLength(3);
  expect(lines[0]).toBe("演奏順,選手名,部門,スタイル,向き,注文数,納品済み数,最初の注文日時,状態,注意");
  expect(lines[1]).toMatch(/^1,山田 花,幼児部門,縦,縦,2,0,\d{4}\/\d{2}\/\d{2} \d{2}:\d{2},未納品,$/);
  expect(lines[2]).toMatch(/^3,佐藤 美緒,幼児部門,横,横,1,0,.*,未納品,お断り$/);
});

// Regressions: on a 390 px phone the table was cut at the right edge with no sign
// that it scrolls, and the badges' legend was named by an aria-label on a <p>, which assistive
// technology ignores.
test("*production list on a phone*: the table scrolls inside a box that says so, and the badges' legend is announced", async ({
  page,
  context,
  baseURL,
}) => {
  const { contestId } = seedContest();
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("production-admin"));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin/contest/${contestId}/production`);

  const box = page.getByRole("region", { name: "制作リストの表" });
  await expect(box.getByRole("table")).toBeVisible();
  await expect(page.getByText("横にスクロールできます")).toBeVisible();
  await expect(box).toHaveAccessibleDescription(/横にスクロールできます/);
  // The table is wider than the phone: the box scrolls, the page does not, and the keyboard reaches it.
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath("production-390x844.png"), fullPage: true });
  await box.focus();
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => box.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);

  const legend = page.getByRole("list", { name: "目印の説明" });
  await expect(legend.getByRole("listitem")).toHaveCount(2);
  await expect(legend.getByRole("listitem").first()).toHaveText(/受注停止\s*選手の動画が受注停止/);

  // On a wide screen the whole table fits: no hint.
  await box.blur();
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByText("横にスクロールできます")).toBeHidden();
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(false);
  await page.screenshot({ path: test.info().outputPath("production-1280x800.png"), fullPage: true });
});
