import { describe, expect, it } from "vitest";
import { includedTax, receiptSumRows } from "~/lib/rules/receipt";
import { db } from "~/server/db/client.server";
import { users } from "~/server/db/schema";
import { findOrderByNumber, orderPage } from "~/server/orders/admin/order-page.server";
import { SALES_CSV_HEADER, salesCsvRows } from "~/server/sales/sales-csv.server";
import { salesReport } from "~/server/sales/sales.server";
import { issueReceipt, receiptByToken } from "~/server/receipts/receipts.server";
import { refundOrder } from "~/server/refunds/order-refunds.server";
import { DISCOUNTED, discountedOrder, insertCoupon } from "../../helpers/discounted-orders";
import { salesOrder } from "../../helpers/sales-orders";
import { seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

// recordPayment mails the confirmation; refundOrder the 返金のお知らせ.
smtpServerForThisFile();

let key = 0;
function admin() {
  return db()
    .insert(users)
    .values({
      email: `discount-admin-${process.pid}-${++key}-${Math.random()}@example.jp`,
      passwordHash: "x",
      isAdmin: true,
    })
    .returning()
    .get();
}

function refund(orderId: number, what: { lineIds?: number[]; amount?: number }) {
  return refundOrder({
    orderId,
    lineIds: what.lineIds ?? [],
    amount: what.amount ?? null,
    reason: "撮影できなかったため",
    requestKey: `discount-refund-${process.pid}-${++key}-${Math.random()}`,
    adminUserId: admin().id,
  });
}

const filter = (contest: string) => ({ contest, from: null, to: null });

describe("sales of discounted orders", () => {
  it("give 総額（定価）, 割引 and 売上 in total, per day and per contest, and a row per coupon", async () => {
    const shop = seedContest();
    const spring = insertCoupon();
    await discountedOrder(shop, { coupon: spring });
    await discountedOrder(shop, { coupon: spring });
    const other = (await discountedOrder(shop)).coupon!;
    // 早割 and セット割 only: 縦 2,200円, 横 4,200円.
    await discountedOrder(shop, { coupon: false });
    // An order from before promotions (no list total): sold at its list price.
    salesOrder(shop.name, new Date().toISOString(), [3000]);

    const report = salesReport(filter(shop.name));
    const listGross = 4 * DISCOUNTED.listTotal + 3000;
    const gross = 3 * DISCOUNTED.total + 6400 + 3000;
    expect(report).toMatchObject({
      listGross,
      discounts: listGross - gross,
      gross,
      refunds: 0,
      net: gross,
      orderCount: 5,
    });
    expect(report.perContest).toEqual([
      {
        contestName: shop.name,
        listGross,
        discounts: listGross - gross,
        gross,
        refunds: 0,
        net: gross,
        orders: 5,
      },
    ]);
    expect(report.perDay.reduce((sum, day) => sum + day.discounts, 0)).toBe(listGross - gross);
    expect(report.perCoupon).toEqual([
      { code: spring.code, uses: 2, discount: 2 * DISCOUNTED.discounts.coupon },
      { code: other.code, uses: 1, discount: DISCOUNTED.discounts.coupon },
    ]);
  });

  it("the CSV keeps its columns and adds 定価, 割引, 割引後 and クーポンコード at the end, adding up to the report", async () => {
    const shop = seedContest();
    const { order, coupon } = await discountedOrder(shop);
    salesOrder(shop.name, new Date().toISOString(), [3000]);
    expect(SALES_CSV_HEADER.slice(0, 3)).toEqual(["注文番号", "明細番号", "注文日時"]);
    expect(SALES_CSV_HEADER.slice(14)).toEqual([
      "売上（税込）",
      "返金（税込）",
      "純売上（税込）",
      "定価（税込）",
      "割引（税込）",
      "割引後（税込）",
      "クーポンコード",
    ]);
    const rows = [...salesCsvRows(filter(shop.name))];
    const column = (name: string) => SALES_CSV_HEADER.indexOf(name);
    const discounted = rows.filter((row) => row[column("注文番号")] === order.orderNumber);
    expect(
      discounted.map((row) =>
        [
          "価格（税込）",
          "売上（税込）",
          "定価（税込）",
          "割引（税込）",
          "割引後（税込）",
          "クーポンコード",
        ].map((name) => row[column(name)]),
      ),
    ).toEqual([
      ["1980", "1980", "3000", "1020", "1980", coupon!.code],
      ["3780", "3780", "4500", "720", "3780", coupon!.code],
    ]);
    const plain = rows.find((row) => row[column("注文番号")] !== order.orderNumber)!;
    expect(plain.slice(17)).toEqual(["3000", "0", "3000", ""]);
    const total = (name: string) => rows.reduce((sum, row) => sum + Number(row[column(name)]), 0);
    const report = salesReport(filter(shop.name));
    expect([total("定価（税込）"), total("割引（税込）"), total("割引後（税込）")]).toEqual([
      report.listGross,
      report.discounts,
      report.gross,
    ]);
  });
});

describe("refunds of a discounted order", () => {
  it("a line gives back its paid price, never its list price", async () => {
    const { order, lines } = await discountedOrder(seedContest());
    const made = await refund(order.id, { lineIds: [lines[0]!.id] });
    if (!made.ok) throw new Error(made.message);
    expect(made.refund.amount).toBe(DISCOUNTED.linePrices[0]);
    expect(made.refund.amount).not.toBe(lines[0]!.listPrice);
    // What is left is the other line's paid price: the list total was never paid.
    const page = orderPage(findOrderByNumber(order.orderNumber)!);
    expect(page.left).toBe(DISCOUNTED.linePrices[1]);
  });

  it("the whole order refunds the net total; an amount up to the list total is refused", async () => {
    const { order, lines } = await discountedOrder(seedContest());
    const tooMuch = await refund(order.id, { amount: DISCOUNTED.listTotal });
    expect(tooMuch).toEqual({ ok: false, status: 409, message: "返金できるのは残りの5,760円までです。" });
    const whole = await refund(order.id, { lineIds: lines.map((line) => line.id) });
    if (!whole.ok) throw new Error(whole.message);
    expect(whole.refund.amount).toBe(DISCOUNTED.total);
    expect(orderPage(findOrderByNumber(order.orderNumber)!).left).toBe(0);
  });
});

describe("the receipt of a discounted order refunded in part", () => {
  it("keeps its 割引 rows, then what was paid and the refund; the tax is on what is kept", async () => {
    const { order, lines } = await discountedOrder(seedContest());
    const made = await refund(order.id, { lineIds: [lines[0]!.id] });
    if (!made.ok) throw new Error(made.message);
    expect(issueReceipt(order.statusToken, "")).toEqual({ ok: true, reissue: false });
    const state = receiptByToken(order.statusToken);
    if (state.kind !== "issued") throw new Error(state.kind);
    const { receipt } = state;
    expect(receipt.total).toBe(DISCOUNTED.linePrices[1]);
    expect(receipt.tax).toBe(includedTax(DISCOUNTED.linePrices[1])); // 3,780円: 343円
    expect(receiptSumRows(receipt).map((row) => [row.label, row.amount])).toEqual([
      ["小計（通常価格）", 7500],
      ["割引 早割", -500],
      ["割引 セット割", -600],
      [`割引 ${receipt.discounts[2]!.name}`, -640],
      ["お支払い金額", 5760],
      [`返金（${receipt.refunds[0]!.on}）`, -1980],
    ]);
    expect(receipt.lines.map((line) => line.refunded)).toEqual([true, false]);
  });
});

describe("the admin's order page of a discounted order", () => {
  it("gives each line's list price and discounts, and the order's breakdown", async () => {
    const { order, coupon } = await discountedOrder(seedContest());
    const page = orderPage(findOrderByNumber(order.orderNumber)!);
    expect(page.lines.map((line) => [line.listPrice, line.price])).toEqual([
      [3000, 1980],
      [4500, 3780],
    ]);
    expect(page.order.breakdown).toMatchObject({
      listTotal: 7500,
      total: 5760,
      discounts: [
        { name: "早割" },
        { name: "セット割" },
        { name: `クーポン（${coupon!.code}）`, amount: 640 },
      ],
    });
    // An order without a discount has no breakdown: its total alone, as before.
    const plain = salesOrder("割引なしの大会", new Date().toISOString(), [3000]);
    expect(orderPage(findOrderByNumber(plain.order.orderNumber)!).order.breakdown).toBeNull();
  });
});
