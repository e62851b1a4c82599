import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { mailOutbox, orders, strayPayments, users } from "~/server/db/schema";
import { MANUAL_PAYMENT_MESSAGES } from "~/server/orders/admin/manual-payment.server";
import { expireOrderPayment } from "~/server/orders/konbini.server";
import { recordPayment } from "~/server/orders/record-payment.server";
import { testProvider } from "~/server/payments/index.server";
import { REFUND_AWAITS_PROVIDER, refundOrder } from "~/server/refunds/order-refunds.server";
import { awaitingKonbiniOrder, paidTestOrder } from "../../../helpers/refund-orders";
import { callRoute } from "../../../helpers/route";
import { adminCookie, formRequest } from "../../../helpers/shop";
import { smtpServerForThisFile } from "../../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

const route = () => import("~/routes/admin/order");

let admin = "";
let adminEmail = "";
beforeAll(async () => {
  admin = await adminCookie();
  adminEmail = db().select().from(users).orderBy(users.id).all().at(-1)!.email;
});

type Answer = { manualPayment: { step: "confirm" } | { step: "refused"; message: string } | null };
type Page = {
  order: {
    manualPayment: { by: string; at: Date; reportedAt: Date | null } | null;
    manualPaymentOpen: boolean;
    refundAwaitsProvider: string | null;
  };
};

async function post(orderNumber: string, intent: string, cookie = admin) {
  const { action } = await route();
  return callRoute(action, formRequest(`/admin/orders/${orderNumber}`, [["intent", intent]], cookie), {
    orderNumber,
  });
}

async function page(orderNumber: string): Promise<Page> {
  const { loader } = await route();
  const answer = await callRoute(
    loader,
    new Request(`http://shop.test/admin/orders/${orderNumber}`, { headers: { Cookie: admin } }),
    { orderNumber },
  );
  return answer.data as Page;
}

const orderNow = (id: number) => db().select().from(orders).where(eq(orders.id, id)).get()!;
const receivedMails = (orderId: number) =>
  db()
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.dedupeKey, `payment-received:${orderId}`))
    .all();

describe("入金確認（手動） of a konbini order", () => {
  it("asks first, then makes the order paid as the provider's report would, with who and when, its mail and the promised day", async () => {
    const { order } = await awaitingKonbiniOrder();
    expect((await page(order.orderNumber)).order).toMatchObject({
      manualPaymentOpen: true,
      manualPayment: null,
    });

    const review = await post(order.orderNumber, "review-manual-payment");
    expect(review.status).toBe(200);
    expect((review.data as Answer).manualPayment).toEqual({ step: "confirm" });
    expect(orderNow(order.id).paymentStatus).toBe("awaiting");

    // The clock held still, so the time written can be compared (the admin's session stays fresh).
    const at = Date.now();
    setClock(() => at);
    console.log("SMTP", process.env.SMTP_URL);
    const done = await post(order.orderNumber, "manual-payment");
    expect(done).toMatchObject({ status: 303, location: `/admin/orders/${order.orderNumber}` });
    expect(orderNow(order.id)).toMatchObject({
      paymentStatus: "paid",
      paidAt: new Date(at),
      manualPaymentConfirmedBy: adminEmail,
      manualPaymentConfirmedAt: new Date(at),
      providerPaymentReportedAt: null,
    });
    expect(receivedMails(order.id)).toHaveLength(1);
    await vi.waitFor(() =>
      expect(
        smtp.received.filter(
          (mail) => mail.to.includes(order.customerEmail) && mail.subject.includes("お支払いを確認しました"),
        ),
      ).toHaveLength(1),
    );
    const mail = smtp.received.find((m) => m.to.includes(order.customerEmail))!;
    // The promised day counts from the confirmation, as from the provider's report.
    expect(mail.text).toMatch(/お届け予定日は\d{4}年\d{1,2}月\d{1,2}日（.）です/);

    const shown = (await page(order.orderNumber)).order;
    expect(shown).toMatchObject({
      manualPaymentOpen: false,
      manualPayment: { by: adminEmail, at: new Date(at), reportedAt: null },
      refundAwaitsProvider: REFUND_AWAITS_PROVIDER,
    });
    // Not in at the provider yet: nothing to refund there.
    expect(
      await refundOrder({
        orderId: order.id,
        lineIds: [],
        amount: 1000,
        reason: "テスト",
        requestKey: `manual-${order.id}`,
        adminUserId: 1,
      }),
    ).toEqual({ ok: false, status: 409, message: REFUND_AWAITS_PROVIDER });

    // Posted again (Back and resubmit): refused, saying who confirmed it; nothing changes.
    const again = await post(order.orderNumber, "manual-payment");
    expect(again.status).toBe(409);
    expect((again.data as Answer).manualPayment).toEqual({
      step: "refused",
      message: MANUAL_PAYMENT_MESSAGES.confirmedByHand(adminEmail, new Date(at)),
    });
    expect(receivedMails(order.id)).toHaveLength(1);
  });

  it("the provider's report afterwards makes no second order, no stray payment and no second mail, and lets the order be refunded", async () => {
    const { order, intent } = await awaitingKonbiniOrder();
    await post(order.orderNumber, "manual-payment");
    const confirmed = orderNow(order.id);
    expect(confirmed.paymentStatus).toBe("paid");

    const paid = (await testProvider.payAtStore(intent.id))!;
    expect(paid.status).toBe("succeeded");
    const reported = recordPayment(paid);
    expect(reported).toMatchObject({ ok: true, created: false, secondPayment: false });
    expect(recordPayment(paid)).toMatchObject({ ok: true, created: false, secondPayment: false });
    expect(db().select().from(orders).where(eq(orders.checkoutId, order.checkoutId)).all()).toHaveLength(1);
    expect(
      db().select().from(strayPayments).where(eq(strayPayments.paymentIntentId, intent.id)).all(),
    ).toEqual([]);
    expect(receivedMails(order.id)).toHaveLength(1);
    const after = orderNow(order.id);
    expect(after).toMatchObject({
      paymentStatus: "paid",
      paidAt: confirmed.paidAt,
      manualPaymentConfirmedBy: adminEmail,
    });
    expect(after.providerPaymentReportedAt).toBeInstanceOf(Date);
    expect((await page(order.orderNumber)).order).toMatchObject({
      manualPayment: { reportedAt: after.providerPaymentReportedAt },
      refundAwaitsProvider: null,
    });
    // The voucher's expiry reported late changes nothing either.
    expect(expireOrderPayment(intent.id)).toBe(false);
    expect(orderNow(order.id).paymentStatus).toBe("paid");

    const refund = await refundOrder({
      orderId: order.id,
      lineIds: [],
      amount: 8000,
      reason: "テスト",
      requestKey: `manual-refund-${order.id}`,
      adminUserId: 1,
    });
    expect(refund).toMatchObject({ ok: true, refund: { status: "processing", method: "konbini" } });
  });

  it("is refused with a clear message when the provider reported the payment, the voucher expired or its deadline passed, and for a card order", async () => {
    const refusedWith = async (orderNumber: string, message: string) => {
      for (const intent of ["review-manual-payment", "manual-payment"]) {
        const answer = await post(orderNumber, intent);
        expect(answer.status).toBe(409);
        expect((answer.data as Answer).manualPayment).toEqual({ step: "refused", message });
      }
      expect((await page(orderNumber)).order.manualPaymentOpen).toBe(false);
    };

    const reported = await awaitingKonbiniOrder();
    recordPayment((await testProvider.payAtStore(reported.intent.id))!);
    await refusedWith(reported.order.orderNumber, MANUAL_PAYMENT_MESSAGES.reported);

    const expired = await awaitingKonbiniOrder();
    expireOrderPayment(expired.intent.id);
    await refusedWith(expired.order.orderNumber, MANUAL_PAYMENT_MESSAGES.expired);

    const due = new Date(Date.now() - 60_000);
    const pastDue = await awaitingKonbiniOrder({ dueAt: due });
    await refusedWith(pastDue.order.orderNumber, MANUAL_PAYMENT_MESSAGES.pastDue(due));

    const card = await paidTestOrder();
    await refusedWith(card.order.orderNumber, MANUAL_PAYMENT_MESSAGES.notKonbini);

    // Cancelled at the provider while the shop still waits: the provider's word stands.
    const cancelled = await awaitingKonbiniOrder();
    await testProvider.cancelIntent(cancelled.intent.id);
    const answer = await post(cancelled.order.orderNumber, "manual-payment");
    expect(answer.status).toBe(409);
    expect((answer.data as Answer).manualPayment).toEqual({
      step: "refused",
      message: MANUAL_PAYMENT_MESSAGES.voucherEnded,
    });
    for (const { order } of [reported, expired, pastDue, cancelled])
      expect(orderNow(order.id).manualPaymentConfirmedBy).toBeNull();
  });

  it("a payment the provider already has (its report lost) is recorded as the provider's, not by hand", async () => {
    const { order, intent } = await awaitingKonbiniOrder();
    await testProvider.payAtStore(intent.id);
    const done = await post(order.orderNumber, "manual-payment");
    expect(done.status).toBe(303);
    expect(orderNow(order.id)).toMatchObject({
      paymentStatus: "paid",
      manualPaymentConfirmedBy: null,
      manualPaymentConfirmedAt: null,
    });
    expect(receivedMails(order.id)).toHaveLength(1);
  });

  it("is an admin's: anyone else is sent to the admin login and the order still waits", async () => {
    const { order } = await awaitingKonbiniOrder();
    const customer = await adminCookie({ isAdmin: false });
    for (const cookie of ["", customer]) {
      const tried = await post(order.orderNumber, "manual-payment", cookie);
      expect(tried).toMatchObject({ status: 302, location: "/admin-login" });
    }
    expect(
      db()
        .select()
        .from(orders)
        .where(and(eq(orders.id, order.id), eq(orders.paymentStatus, "awaiting")))
        .get(),
    ).toBeDefined();
  });
});
