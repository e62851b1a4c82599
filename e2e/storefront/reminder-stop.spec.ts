import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { axeViolations } from "../support/axe";
import { withDb } from "../support/db";
import { jsEnabled, uniqueEmail } from "../support/helpers";

/**
 * A reminder mail's stop link (the reminders themselves are queued by the server's pass on the
 * test clock: tests/server/reminders/). The order and its link are written as the pass writes them.
 */
function orderWithStopLink() {
  const token = crypto.randomBytes(16).toString("base64url");
  const orderNumber = `7${String(Date.now()).slice(-6)}${crypto.randomInt(10)}`;
  withDb((db) => {
    const { id } = db
      .prepare(
        `insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_name,
           customer_email, customer_name, total_amount, line_count, paid_at, created_at)
         values (?, ?, ?, ?, '秋のダンス発表会', ?, '通知 花子', 7500, 2, ?, ?) returning id`,
      )
      .get(
        crypto.randomBytes(16).toString("hex"),
        orderNumber,
        `reminder-${token}`,
        `pi_reminder_${token}`,
        uniqueEmail("reminder-stop"),
        Date.now(),
        Date.now(),
      ) as { id: number };
    db.prepare("insert into order_reminders (order_id, stop_token) values (?, ?)").run(id, token);
  });
  return { path: `/reminders/${token}`, orderNumber };
}

test("a reminder mail's stop link asks first, then stops the order's reminders for good", async ({
  page,
}) => {
  const { path, orderNumber } = orderWithStopLink();
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: "お知らせメールの停止" })).toBeVisible();
  await expect(page.getByText(orderNumber)).toBeVisible();
  // The server draws the same markup for both projects: axe checks it once, where it is cheap.
  if (jsEnabled()) expect(await axeViolations(page)).toEqual([]);

  await page.getByRole("button", { name: "お知らせメールを停止する" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "お知らせを停止しました" })).toBeVisible();
  await expect(page).toHaveURL(path);
  await expect(page.getByRole("status")).toContainText("今後お送りしません");
  if (jsEnabled()) expect(await axeViolations(page)).toEqual([]);
  const stopped = withDb(
    (db) =>
      db
        .prepare(
          "select stopped_at from order_reminders join orders on orders.id = order_id where order_number = ?",
        )
        .get(orderNumber) as { stopped_at: number | null },
  );
  expect(stopped.stopped_at).not.toBeNull();

  // The link opened again says so, and offers nothing to press.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "お知らせを停止しました" })).toBeVisible();
  await expect(page.getByRole("button", { name: "お知らせメールを停止する" })).toHaveCount(0);

  // A guessed link finds nothing.
  const guessed = await page.goto("/reminders/AAAAAAAAAAAAAAAAAAAAAA");
  expect(guessed?.status()).toBe(404);
  await expect(page.getByText("このリンクは無効です。")).toBeVisible();
});
