import { expect, test } from "@playwright/test";
import { e2eDbFile } from "../support/work-dir";
import Database from "better-sqlite3";
import { jsEnabled, uniqueEmail } from "../support/helpers";
import { createUser, loginAsAdmin } from "../support/users";

test("contest management: add (with validation), toggle video and photo, see the storefront follow, delete", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("contest-admin"));
  const name = `E2E大会 ${test.info().project.name} ${Date.now()}`;
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "大会管理" })).toBeVisible();

  await page.getByRole("link", { name: "新規大会追加" }).click();
  const dialogOrPage = jsEnabled()
    ? page.getByRole("dialog", { name: "新規大会追加" })
    : page.getByRole("main");
  await dialogOrPage.getByLabel("大会名").fill("   ");
  await dialogOrPage.getByRole("button", { name: "追加" }).click();
  await expect(dialogOrPage.getByText("大会名を入力してください")).toBeVisible();
  await dialogOrPage.getByLabel("大会名").fill(name);
  await dialogOrPage.getByRole("button", { name: "追加" }).click();
  await expect(page.getByText("追加完了")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByRole("button", { name: /の動画: 非公開/ })).toBeVisible();

  // Not on the storefront until video is published.
  await page.goto("/");
  await expect(page.getByRole("heading", { name })).toHaveCount(0);

  await page.goto("/admin");
  await row.getByRole("button", { name: /の動画: 非公開/ }).click();
  await expect(page.getByText("更新完了")).toBeVisible();
  await expect(row.getByRole("button", { name: /の動画: 公開中/ })).toBeVisible();
  await row.getByRole("button", { name: /の写真: 非公開/ }).click();
  await expect(row.getByRole("button", { name: /の写真: 公開中/ })).toBeVisible();

  await page.goto("/");
  await expect(page.getByRole("heading", { name })).toBeVisible();

  await page.goto("/admin");
  await row.getByRole("button", { name: /の動画: 公開中/ }).click();
  await expect(row.getByRole("button", { name: /の動画: 非公開/ })).toBeVisible();
  await page.goto("/");
  await expect(page.getByRole("heading", { name })).toHaveCount(0);

  await page.goto("/admin");
  await row.getByRole("link", { name: `${name}を削除` }).click();
  if (jsEnabled()) {
    await page
      .getByRole("dialog", { name: "本当に削除しますか？" })
      .getByRole("button", { name: "削除する" })
      .click();
  } else {
    await expect(page.getByRole("heading", { name: "本当に削除しますか？" })).toBeVisible();
    await page.getByRole("button", { name: "削除する" }).click();
  }
  await expect(page.getByText("削除完了")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
});

test("sales totals: filter by contest and Tokyo days, check against seeded orders, download the CSV", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("sales-admin"));
  const contest = `売上テスト大会 ${test.info().project.name} ${Date.now()}`;
  const db = new Database(e2eDbFile());
  const insert = (n: number, at: string, prices: number[]) => {
    const id = (
      db
        .prepare(
          "insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_name, customer_email, customer_name, total_amount, line_count, created_at) values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id",
        )
        .get(
          `9${String(Date.now() + n).slice(-7)}`,
          `sales-${contest}-${n}`,
          `pi_sales_${contest}_${n}`,
          contest,
          `sales${n}@example.jp`,
          "集計 花子",
          prices.reduce((a, b) => a + b, 0),
          prices.length,
          Date.parse(at),
        ) as { id: number }
    ).id;
    prices.forEach((price, i) =>
      db
        .prepare(
          "insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name, style, orientation, price) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .run(id, `${id}-${i + 1}`, contest, "部門", i + 1, "選手", "縦", "vertical", price),
    );
  };
  insert(1, "2025-03-31T15:00:00Z", [3000, 4500]); // 2025-04-01 00:00 JST
  insert(2, "2025-04-30T14:59:00Z", [5000]); // 2025-04-30 23:59 JST
  insert(3, "2025-04-30T15:00:00Z", [9999]); // 2025-05-01 JST: outside April
  db.close();

  await page.goto("/admin/sales");
  await page.getByLabel("大会", { exact: true }).selectOption(contest);
  await page.getByLabel("開始日").fill("2025-04-01");
  await page.getByLabel("終了日").fill("2025-04-30");
  await page.getByRole("button", { name: "絞り込み" }).click();
  await expect(page.getByTestId("sales-total")).toHaveText("12,500円（税込）");
  await expect(page.getByTestId("sales-orders")).toHaveText("2件");
  await expect(page.getByTestId("sales-lines")).toHaveText("3本");
  await expect(page.getByRole("img", { name: /日別売上/ })).toBeVisible();

  const csv = await page.request.get(`/admin/sales.csv?${new URL(page.url()).searchParams.toString()}`);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const bytes = await csv.body();
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString("utf8").trim().split("\r\n");
  expect(lines[0]).toContain("注文番号");
  expect(lines).toHaveLength(4);
  expect(
    lines
      .slice(1)
      .map((line) => line.split(",")[8])
      .sort(),
  ).toEqual(["3000", "4500", "5000"]);
});

test("user management: delete a user, the last-admin rule, then delete yourself", async ({
  page,
  context,
  baseURL,
}) => {
  const me = await loginAsAdmin(context, baseURL ?? "", uniqueEmail("users-admin"));
  const customer = await createUser({ email: uniqueEmail("deleteme") });
  const confirm = async () => {
    if (jsEnabled()) {
      const dialog = page.getByRole("dialog", { name: "ユーザーを削除しますか？" });
      await expect(dialog.getByText("この操作は取り消せません")).toBeVisible();
      await dialog.getByRole("button", { name: "削除する" }).click();
    } else {
      await expect(page.getByText("この操作は取り消せません")).toBeVisible();
      await page.getByRole("button", { name: "削除する" }).click();
    }
  };
  await page.goto(`/admin/users?q=${encodeURIComponent(customer.email)}`);
  await expect(page.getByRole("cell", { name: customer.email, exact: true })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: customer.email })).toContainText("一般");
  await expect(page.getByRole("row").filter({ hasText: customer.email })).toContainText("なし");
  await page.getByRole("link", { name: `${customer.email}を削除` }).click();
  await confirm();
  await expect(page.getByText("ユーザーを削除しました")).toBeVisible();

  await page.goto(`/admin/users?q=${encodeURIComponent(me.email)}`);
  await expect(page.getByRole("row").filter({ hasText: me.email })).toContainText("管理者");
  await page.getByRole("link", { name: `${me.email}を削除` }).click();
  await confirm();
  // Other admins exist (the demo admin), so this works and logs me out.
  await expect(page).toHaveURL(/\/admin-login$/);
  await expect(page.getByText("アカウントが削除されました")).toBeVisible();
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin-login$/);
});
