import crypto from "node:crypto";
import { e2eDbFile } from "../../support/work-dir";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { jsEnabled, uniqueEmail } from "../../support/helpers";
import { loginAsAdmin } from "../../support/users";

type Seeded = { id: number; name: string; orders: { number: string; email: string }[] };

/** A contest of its own with orders in the given statuses, one line per given line status. */
function seedContest(name: string, orders: { status: string; lines: string[] }[]): Seeded {
  const db = new Database(e2eDbFile());
  try {
    const { id } = db
      .prepare("insert into contests (name, slug_key) values (?, ?) returning id")
      .get(name, `filter${crypto.randomUUID().replaceAll("-", "")}`) as { id: number };
    const seeded = orders.map(({ status, lines }, n) => {
      const number = `8${String(crypto.randomInt(10_000_000)).padStart(7, "0")}`;
      const email = `filter-${number}@example.jp`;
      const orderId = (
        db
          .prepare(
            "insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_id, contest_name, customer_email, customer_name, total_amount, line_count, status, created_at) values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id",
          )
          .get(
            number,
            `filter-${number}`,
            `pi_filter_${number}`,
            id,
            name,
            email,
            "絞込 花子",
            3000 * lines.length,
            lines.length,
            status,
            Date.now() - (orders.length - n) * 60_000,
          ) as { id: number }
      ).id;
      lines.forEach((lineStatus, i) =>
        db
          .prepare(
            "insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name, style, orientation, price, status) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          )
          .run(
            orderId,
            `${number}-${i + 1}`,
            name,
            "部門",
            i + 1,
            `選手${i + 1}`,
            "縦",
            "vertical",
            3000,
            lineStatus,
          ),
      );
      return { number, email };
    });
    return { id, name, orders: seeded };
  } finally {
    db.close();
  }
}

test("the order list filters by contest, with its counts and its work, through tabs and search", async ({
  page,
  context,
  baseURL,
}) => {
  const stamp = `${test.info().project.name} ${Date.now()}`;
  const spring = seedContest(`絞り込み春大会 ${stamp}`, [
    { status: "未対応", lines: ["未対応", "未対応"] },
    // One line already has its file; the other is still missing one.
    { status: "未対応", lines: ["納品済み", "未対応"] },
    { status: "納品済み", lines: ["納品済み"] },
  ]);
  const autumn = seedContest(`絞り込み秋大会 ${stamp}`, [{ status: "未対応", lines: ["未対応"] }]);
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("order-filter-admin"));

  await page.goto("/admin/orders");
  const group = (number: string) => page.getByRole("listitem").filter({ hasText: `注文番号 ${number}` });
  await page.getByLabel("大会", { exact: true }).selectOption({ label: spring.name });
  // With JavaScript the choice applies at once; without it, the form's button sends it.
  if (!jsEnabled()) await page.getByRole("button", { name: "検索" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]contest=${spring.id}(&|$)`));

  const counts = page.getByRole("region", { name: "件数" });
  await expect(counts).toContainText(spring.name);
  await expect(page.getByTestId("count-pending")).toHaveText("2件");
  await expect(page.getByTestId("count-handled")).toHaveText("1件");
  await expect(page.getByTestId("count-lines-without-file")).toHaveText("3本");
  await expect(counts.getByRole("link", { name: "制作リスト" })).toHaveAttribute(
    "href",
    `/admin/contest/${spring.id}/production`,
  );
  await expect(counts.getByRole("link", { name: "納品ファイル" })).toHaveAttribute(
    "href",
    `/admin/contest/${spring.id}/delivery`,
  );
  await expect(group(spring.orders[0]!.number)).toBeVisible();
  await expect(group(spring.orders[1]!.number)).toBeVisible();
  await expect(group(autumn.orders[0]!.number)).toHaveCount(0);

  // The 対応済み tab keeps the contest.
  await page.getByRole("link", { name: "対応済み" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]contest=${spring.id}(&|$)`));
  await expect(group(spring.orders[2]!.number)).toContainText("納品完了");
  await expect(group(spring.orders[0]!.number)).toHaveCount(0);
  await expect(page.getByLabel("大会", { exact: true })).toHaveValue(String(spring.id));

  // Searching keeps it too: the other contest's customer is not found here.
  await page.getByRole("link", { name: "未対応" }).click();
  // With JavaScript the tab change is a client navigation: search only once its form says 未対応.
  await expect(page.getByRole("link", { name: "未対応" })).toHaveAttribute("aria-current", "page");
  await page.getByLabel("注文番号・メールアドレス・お名前で検索").fill(autumn.orders[0]!.email);
  await page.getByRole("button", { name: "検索" }).click();
  await expect(page.getByText("未対応の注文はありません")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`[?&]contest=${spring.id}(&|$)`));

  // The other contest, by the select.
  await page.getByLabel("注文番号・メールアドレス・お名前で検索").fill("");
  await page.getByLabel("大会", { exact: true }).selectOption({ label: autumn.name });
  if (!jsEnabled()) await page.getByRole("button", { name: "検索" }).click();
  await expect(page.getByTestId("count-pending")).toHaveText("1件");
  await expect(page.getByTestId("count-handled")).toHaveText("0件");
  await expect(page.getByTestId("count-lines-without-file")).toHaveText("1本");
  await expect(group(autumn.orders[0]!.number)).toBeVisible();
  await expect(group(spring.orders[0]!.number)).toHaveCount(0);

  // A contest id that names nothing lists every contest, without an error.
  const response = await page.goto("/admin/orders?contest=999999999");
  expect(response?.status()).toBe(200);
  await expect(page.getByLabel("大会", { exact: true })).toHaveValue("");
  await expect(counts).toContainText("すべての大会");
  await expect(counts.getByRole("link", { name: "制作リスト" })).toHaveCount(0);

  // The counts are kept in memory until an order is written: 完了 moves one between them at once.
  await page.goto(`/admin/orders?contest=${spring.id}`);
  await expect(page.getByTestId("count-pending")).toHaveText("2件");
  await group(spring.orders[0]!.number).getByRole("button", { name: "完了" }).click();
  await expect(page.getByText("注文を対応済みに移動しました。")).toBeVisible();
  await expect(page.getByTestId("count-pending")).toHaveText("1件");
  await expect(page.getByTestId("count-handled")).toHaveText("2件");
  await expect(page.getByTestId("count-lines-without-file")).toHaveText("1本");
});
