import { expect, type Page } from "@playwright/test";
import { e2eDb, withDb } from "./db";
import { CONTEST, codeFrom, enterCode, fillItem, openOrderForm } from "./flows";
import { waitForMail } from "./helpers";

/**
 * Coupons for the checkout's browser tests, made as rows (the back-office screen has its own
 * spec), and the steps of a parent using one: both styles of キッズ部門 1 (3,000 + 4,500 円) up
 * to the confirmation page, the coupon field, the payment.
 */

/** Both styles of キッズ部門 1 of the seeded contest, before any discount. */
export const LIST_TOTAL = 7500;

export type CouponRow = {
  kind?: "yen" | "percent";
  value?: number;
  minTotal?: number;
  validFrom?: number | null;
  validUntil?: number | null;
  contestIds?: number[] | null;
  maxUses?: number | null;
};

/** A coupon of the test's own (a code no other test types); returns its id and code. */
export function makeCoupon(row: CouponRow = {}): { id: number; code: string } {
  const code = `E2E${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  return withDb((db) =>
    db
      .prepare(
        `insert into coupons (code, label, kind, value, min_total, valid_from, valid_until, contest_ids, max_uses)
         values (?, 'e2e', ?, ?, ?, ?, ?, ?, ?) returning id, code`,
      )
      .get(
        code,
        row.kind ?? "percent",
        row.value ?? 10,
        row.minTotal ?? 0,
        row.validFrom ?? null,
        row.validUntil ?? null,
        row.contestIds === undefined || row.contestIds === null ? null : JSON.stringify(row.contestIds),
        row.maxUses ?? null,
      ),
  ) as { id: number; code: string };
}

/** Another parent's paid use of the coupon (what a max_uses of 1 then refuses). */
export function useCouponElsewhere(couponId: number) {
  withDb((db) =>
    db
      .prepare(
        `insert into coupon_uses (coupon_id, checkout_id, email, amount, held_at, used_at)
         values (?, ?, 'someone-else@example.jp', 500, ?, ?)`,
      )
      .run(couponId, `elsewhere-${couponId}`, Date.now(), Date.now()),
  );
}

export function contestId(name: string): number {
  const db = e2eDb();
  try {
    return (db.prepare("select id from contests where name = ?").get(name) as { id: number }).id;
  } finally {
    db.close();
  }
}

export type CouponUse = {
  checkout_id: string;
  order_id: number | null;
  amount: number;
  used_at: number | null;
};

export function couponUses(couponId: number): CouponUse[] {
  const db = e2eDb();
  try {
    return db
      .prepare(
        "select checkout_id, order_id, amount, used_at from coupon_uses where coupon_id = ? order by id",
      )
      .all(couponId) as CouponUse[];
  } finally {
    db.close();
  }
}

export type PaidOrder = {
  id: number;
  total_amount: number;
  list_total: number | null;
  coupon_id: number | null;
  discounts: string;
  charged: number;
};

/** The customer's order with what the test provider was asked to charge for it. */
export function paidOrderOf(email: string): PaidOrder | undefined {
  const db = e2eDb();
  try {
    return db
      .prepare(
        `select o.id, o.total_amount, o.list_total, o.coupon_id, o.discounts, i.amount as charged
           from orders o join test_payment_intents i on i.id = o.payment_intent_id
          where o.customer_email = ?`,
      )
      .get(email) as PaidOrder | undefined;
  } finally {
    db.close();
  }
}

/** The order form with both styles of キッズ部門 1, then 注文内容の確認. */
export async function untilConfirmation(page: Page) {
  await openOrderForm(page, CONTEST);
  await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
  await page.getByRole("button", { name: "＋ 商品を追加" }).click();
  await fillItem(page, 2, "キッズ部門", /^1 /, "横");
  await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
  await expect(page.getByRole("heading", { name: "注文内容の確認" })).toBeVisible();
}

export const couponField = (page: Page) => page.getByLabel("お持ちの方はご入力ください");

export async function applyCoupon(page: Page, typed: string) {
  await couponField(page).fill(typed);
  await page.getByRole("button", { name: "適用する" }).click();
}

/** The order's 合計金額 as the confirmation and payment pages show it under the lines. */
export async function expectTotal(page: Page, amount: number) {
  await expect(page.getByRole("region", { name: "ご注文内容" })).toContainText(
    `合計金額${amount.toLocaleString("ja-JP")}円（税込）`,
  );
}

/** From the confirmation page: the address, its mailed code, and the payment page. */
export async function verifyUntilPayment(page: Page, email: string, name: string) {
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("お名前").fill(name);
  await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
  await expect(page).toHaveURL(/\/email-verification$/);
  await enterCode(page, codeFrom((await waitForMail(email)).text));
  await page.getByRole("button", { name: "認証する" }).click();
  await expect(page).toHaveURL(/\/payment$/);
}

/** The card form's button, which names the amount to be charged. */
export const payButton = (page: Page) => page.getByRole("button", { name: /円（税込）を支払う/ });

/** The amount the payment page offers to charge, read from its button. */
export async function shownCharge(page: Page): Promise<number> {
  const text = (await payButton(page).textContent()) ?? "";
  const match = /([\d,]+)円（税込）を支払う/.exec(text);
  if (!match?.[1]) throw new Error(`no amount on the pay button: ${text}`);
  return Number(match[1].replace(/,/g, ""));
}

export async function payByTestCard(page: Page) {
  await page.getByLabel("カード名義").fill("HANAKO YAMADA");
  await page.getByLabel("カード番号").fill("4242424242424242");
  await page.getByLabel("有効期限（MM/YY）").fill("12/39");
  await page.getByLabel("セキュリティコード").fill("123");
  await payButton(page).click();
  await expect(page).toHaveURL(/\/payment-complete$/);
}
