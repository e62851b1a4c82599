import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/server/db/client.server";
import { orders, refunds, testRefunds } from "~/server/db/schema";
import { completeTestKonbiniRefund } from "~/server/payments/test-refunds.server";
import { refundOrder, refundsOfOrder } from "~/server/refunds/order-refunds.server";
import { recordProviderRefund } from "~/server/refunds/provider-refunds.server";
import { paidTestOrder, refundAdmin } from "../../helpers/refund-orders";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

let key = 0;
const requestKey = () => `test-refund-${process.pid}-${++key}-${Math.random()}`;

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("refunds of an order (test provider)", () => {
  it("refunds a chosen line at its paid price, by card at once, and mails the customer once", async () => {
    const { order, lines } = await paidTestOrder();
    const admin = refundAdmin();
    const result = await refundOrder({
      orderId: order.id,
      lineIds: [lines[1]!.id],
      amount: null,
      reason: "撮影できなかったため",
      requestKey: requestKey(),
      adminUserId: admin.id,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.refund).toMatchObject({ amount: 5000, status: "succeeded", method: "card" });
    expect(result.refund.providerRefundId).toMatch(/^re_test_/);
    await until(() => smtp.received.some((mail) => mail.to.includes(order.customerEmail)));
    const mails = smtp.received.filter((mail) => mail.to.includes(order.customerEmail));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain("返金のお知らせ");
    expect(mails[0]!.text).toContain("5,000円");
    expect(mails[0]!.text).toContain("クレジットカード");
  });

  it("a replayed post (the same form key) refunds once", async () => {
    const { order, lines } = await paidTestOrder();
    const admin = refundAdmin();
    const request = {
      orderId: order.id,
      lineIds: [lines[0]!.id],
      amount: null,
      reason: "二重クリック",
      requestKey: requestKey(),
      adminUserId: admin.id,
    };
    const [first, second] = await Promise.all([refundOrder(request), refundOrder(request)]);
    expect(first.ok && second.ok).toBe(true);
    expect(refundsOfOrder(order.id)).toHaveLength(1);
    expect(
      db().select().from(testRefunds).where(eq(testRefunds.paymentIntentId, order.paymentIntentId)).all(),
    ).toHaveLength(1);
  });

  it("two admins at once cannot refund more than was paid", async () => {
    const { order } = await paidTestOrder({ prices: [3000, 5000] });
    const admin = refundAdmin();
    const ask = (amount: number) =>
      refundOrder({
        orderId: order.id,
        lineIds: [],
        amount,
        reason: "一部返金",
        requestKey: requestKey(),
        adminUserId: admin.id,
      });
    const results = await Promise.all([ask(6000), ask(6000)]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const refused = results.find((result) => !result.ok);
    expect(refused).toMatchObject({
      ok: false,
      status: 409,
      message: "返金できるのは残りの2,000円までです。",
    });
    // A line refund past what is left is refused too; the rest of it can be refunded as an amount.
    expect(await ask(2001)).toMatchObject({ ok: false, status: 409 });
    expect(await ask(2000)).toMatchObject({ ok: true });
    expect(await ask(1)).toMatchObject({
      ok: false,
      message: "この注文は全額返金済み（または返金手続き中）です。",
    });
  });

  it("a line is refunded once; a line of another order is refused", async () => {
    const { order, lines } = await paidTestOrder();
    const other = await paidTestOrder();
    const admin = refundAdmin();
    const ask = (lineIds: number[]) =>
      refundOrder({
        orderId: order.id,
        lineIds,
        amount: null,
        reason: "お断り",
        requestKey: requestKey(),
        adminUserId: admin.id,
      });
    expect(await ask([lines[0]!.id])).toMatchObject({ ok: true });
    expect(await ask([lines[0]!.id])).toMatchObject({ ok: false, status: 422 });
    expect(await ask([other.lines[0]!.id])).toMatchObject({ ok: false, status: 422 });
    expect(await ask([])).toMatchObject({ ok: false, status: 422 });
  });

  it("a konbini refund stays processing until the customer's bank transfer is made, then succeeds", async () => {
    const { order, lines } = await paidTestOrder({ konbini: true });
    const admin = refundAdmin();
    const result = await refundOrder({
      orderId: order.id,
      lineIds: [lines[0]!.id],
      amount: null,
      reason: "撮影できなかったため",
      requestKey: requestKey(),
      adminUserId: admin.id,
    });
    expect(result).toMatchObject({ ok: true, refund: { status: "processing", method: "konbini" } });
    if (!result.ok) return;
    await until(() => smtp.received.some((mail) => mail.to.includes(order.customerEmail)));
    expect(smtp.received.find((mail) => mail.to.includes(order.customerEmail))?.text).toContain("銀行振込");
    const completed = await completeTestKonbiniRefund(result.refund.providerRefundId!);
    expect(completed?.status).toBe("succeeded");
    const recorded = recordProviderRefund(completed!);
    expect(recorded).toMatchObject({ status: "succeeded" });
    expect(recorded?.succeededAt).toBeInstanceOf(Date);
    // A late "processing" report does not take it back.
    expect(recordProviderRefund({ ...completed!, status: "processing" })).toMatchObject({
      status: "succeeded",
    });
    expect(smtp.received.filter((mail) => mail.to.includes(order.customerEmail))).toHaveLength(1);
  });

  it("an order not paid (入金待ち) cannot be refunded", async () => {
    const { order } = await paidTestOrder();
    db().update(orders).set({ paymentStatus: "awaiting" }).where(eq(orders.id, order.id)).run();
    const admin = refundAdmin();
    expect(
      await refundOrder({
        orderId: order.id,
        lineIds: [],
        amount: 100,
        reason: "x",
        requestKey: requestKey(),
        adminUserId: admin.id,
      }),
    ).toMatchObject({ ok: false, status: 409 });
    expect(db().select().from(refunds).where(eq(refunds.orderId, order.id)).all()).toHaveLength(0);
  });
});
