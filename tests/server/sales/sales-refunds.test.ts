import { describe, expect, it } from "vitest";
import { csvLine } from "~/lib/rules/csv";
import { tokyoDay } from "~/lib/rules/tokyo-date";
import type { RefundStatus } from "~/lib/rules/refunds";
import { db } from "~/server/db/client.server";
import { refunds, strayPayments } from "~/server/db/schema";
import { refundOrder } from "~/server/refunds/order-refunds.server";
import { SALES_CSV_HEADER, salesCsvRows } from "~/server/sales/sales-csv.server";
import { salesReport } from "~/server/sales/sales.server";
import { salesOrder } from "../../helpers/sales-orders";
import { paidTestOrder, refundAdmin } from "../../helpers/refund-orders";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

smtpServerForThisFile();

let counter = 0;
const unique = () => `${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

const order = salesOrder;

/** A refund row as the core writes it, made at `createdAt`. */
function refund(
  of: { orderId?: number; strayPaymentId?: number; paymentIntentId: string },
  amount: number,
  createdAt: string,
  status: RefundStatus = "succeeded",
  lineIds: number[] = [],
) {
  return db()
    .insert(refunds)
    .values({
      ...of,
      amount,
      lineIds,
      status,
      reason: "テストの返金",
      requestKey: `sr-key-${unique()}`,
      createdAt: new Date(createdAt),
    })
    .returning()
    .get();
}

const filter = (contest: string | null, from: string | null, to: string | null) => ({ contest, from, to });

describe("sales are net of refunds", () => {
  it("shows gross, refunds and net in total, per day and per contest", () => {
    const contest = `返金のある大会 ${unique()}`;
    // 2025-09-10 12:00 JST, refunded its 5,000円 line on 2025-09-12 10:00 JST.
    const { order: o, lines } = order(contest, "2025-09-10T03:00:00Z", [3000, 5000]);
    refund({ orderId: o.id, paymentIntentId: o.paymentIntentId }, 5000, "2025-09-12T01:00:00Z", "succeeded", [
      lines[1]!.id,
    ]);
    const report = salesReport(filter(contest, "2025-09-10", "2025-09-12"));
    expect(report).toMatchObject({ gross: 8000, refunds: 5000, net: 3000, orderCount: 1, lineCount: 2 });
    expect(report.perDay).toEqual([
      { day: "2025-09-10", listGross: 8000, discounts: 0, gross: 8000, refunds: 0, net: 8000, orders: 1 },
      { day: "2025-09-11", listGross: 0, discounts: 0, gross: 0, refunds: 0, net: 0, orders: 0 },
      { day: "2025-09-12", listGross: 0, discounts: 0, gross: 0, refunds: 5000, net: -5000, orders: 0 },
    ]);
    expect(report.perContest).toEqual([
      {
        contestName: contest,
        listGross: 8000,
        discounts: 0,
        gross: 8000,
        refunds: 5000,
        net: 3000,
        orders: 1,
      },
    ]);
  });

  it("counts a refund on the Tokyo day it was made: a refund of a September order lowers October", () => {
    const contest = `月をまたぐ大会 ${unique()}`;
    const { order: o } = order(contest, "2025-09-28T03:00:00Z", [4000]);
    // 2025-09-30 23:30 UTC is 2025-10-01 08:30 in Tokyo.
    refund({ orderId: o.id, paymentIntentId: o.paymentIntentId }, 1500, "2025-09-30T23:30:00Z");
    expect(salesReport(filter(contest, "2025-09-01", "2025-09-30"))).toMatchObject({
      gross: 4000,
      refunds: 0,
      net: 4000,
      orderCount: 1,
    });
    const october = salesReport(filter(contest, "2025-10-01", "2025-10-31"));
    expect(october).toMatchObject({ gross: 0, refunds: 1500, net: -1500, orderCount: 0 });
    expect(october.perDay.find((day) => day.refunds > 0)?.day).toBe("2025-10-01");
    // Without dates, both are in.
    expect(salesReport(filter(contest, null, null))).toMatchObject({ gross: 4000, refunds: 1500, net: 2500 });
  });

  it("leaves out a failed refund, and counts one still on its way (requested, processing)", () => {
    const contest = `失敗した返金の大会 ${unique()}`;
    const { order: o } = order(contest, "2025-08-01T03:00:00Z", [3000, 3000, 3000]);
    const of = { orderId: o.id, paymentIntentId: o.paymentIntentId };
    refund(of, 3000, "2025-08-02T03:00:00Z", "failed");
    expect(salesReport(filter(contest, null, null))).toMatchObject({ gross: 9000, refunds: 0, net: 9000 });
    refund(of, 1000, "2025-08-02T03:00:00Z", "requested");
    refund(of, 2000, "2025-08-03T03:00:00Z", "processing");
    expect(salesReport(filter(contest, null, null))).toMatchObject({ gross: 9000, refunds: 3000, net: 6000 });
  });

  it("leaves out the refund of a stray payment: it never was a sale", () => {
    // A day of its own, so only this test's rows are in it.
    const day = "2024-02-29";
    const stray = db()
      .insert(strayPayments)
      .values({
        paymentIntentId: `pi_stray_${unique()}`,
        reason: "second_payment",
        amount: 6000,
        currency: "jpy",
        detail: "テスト",
        createdAt: new Date("2024-02-29T03:00:00Z"),
      })
      .returning()
      .get();
    refund(
      { strayPaymentId: stray.id, paymentIntentId: stray.paymentIntentId },
      6000,
      "2024-02-29T04:00:00Z",
    );
    expect(salesReport(filter(null, day, day))).toMatchObject({ gross: 0, refunds: 0, net: 0 });
    expect([...salesCsvRows(filter(null, day, day))]).toEqual([]);
  });

  it("counts a refund made through the provider today", async () => {
    const { order: o, lines } = await paidTestOrder({ prices: [3000, 5000] });
    const result = await refundOrder({
      orderId: o.id,
      lineIds: [lines[0]!.id],
      amount: null,
      reason: "撮影できなかったため",
      requestKey: `sr-key-${unique()}`,
      adminUserId: refundAdmin().id,
    });
    expect(result.ok).toBe(true);
    const today = tokyoDay(Date.now());
    expect(salesReport(filter(o.contestName, today, today))).toMatchObject({ refunds: 3000 });
  });
});

describe("sales CSV with refunds", () => {
  it("has a 返金 row per refund on its day, and columns that add up to the report", () => {
    const contest = `CSVの大会 ${unique()}`;
    const { order: o, lines } = order(contest, "2025-07-10T03:00:00Z", [3000, 5000]);
    refund({ orderId: o.id, paymentIntentId: o.paymentIntentId }, 5000, "2025-07-15T03:00:00Z", "succeeded", [
      lines[1]!.id,
    ]);
    refund({ orderId: o.id, paymentIntentId: o.paymentIntentId }, 1000, "2025-07-16T03:00:00Z", "failed");
    expect(SALES_CSV_HEADER.slice(12, 17)).toEqual([
      "区分",
      "計上日",
      "売上（税込）",
      "返金（税込）",
      "純売上（税込）",
    ]);
    const rows = [...salesCsvRows(filter(contest, null, null))];
    const column = (name: string) => SALES_CSV_HEADER.indexOf(name);
    expect(rows.map((row) => [row[column("区分")], row[column("計上日")], row[column("明細番号")]])).toEqual([
      ["売上", "2025-07-10", lines[0]!.lineNumber],
      ["売上", "2025-07-10", lines[1]!.lineNumber],
      ["返金", "2025-07-15", lines[1]!.lineNumber],
    ]);
    const refundRow = rows[2]!;
    expect(refundRow[column("注文番号")]).toBe(o.orderNumber);
    expect(refundRow[column("状態")]).toBe("返金済み");
    expect(refundRow[column("返金（税込）")]).toBe("5000");
    expect(refundRow[column("純売上（税込）")]).toBe("-5000");
    // Written as a number a spreadsheet adds up, not defused into text as a formula would be.
    expect(csvLine(refundRow)).toMatch(/,5000,-5000,0,0,0,\r\n$/);
    const total = (name: string) => rows.reduce((sum, row) => sum + Number(row[column(name)]), 0);
    const report = salesReport(filter(contest, null, null));
    expect([total("売上（税込）"), total("返金（税込）"), total("純売上（税込）")]).toEqual([
      report.gross,
      report.refunds,
      report.net,
    ]);
    expect(report.net).toBe(3000);
  });
});
