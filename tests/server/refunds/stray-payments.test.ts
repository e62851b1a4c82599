import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/server/db/client.server";
import { refunds, strayPayments, testRefunds } from "~/server/db/schema";
import { recordPayment } from "~/server/orders/record-payment.server";
import { unrefundedStrayPaymentCount } from "~/server/refunds/stray-payment-ledger.server";
import { testProvider } from "~/server/payments/index.server";
import { paidTestOrder } from "../../helpers/refund-orders";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

smtpServerForThisFile();

const route = () => import("~/routes/admin/stray-payments");

/**
 * A second card payment for the checkout of a paid order (a second tab, a double click at the
 * provider), reported as the payment return or the test till reports it: a stray payment.
 */
async function strayPayment() {
  const { order } = await paidTestOrder({ prices: [3000, 4000] });
  const intent = await testProvider.createIntent({
    checkoutId: order.checkoutId,
    amount: order.totalAmount,
    email: order.customerEmail,
  });
  const paid = await testProvider.confirmCard(intent.id, "4242424242424242");
  if (!paid.ok) throw new Error(paid.message);
  const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    recordPayment(paid.intent);
  } finally {
    errors.mockRestore();
  }
  const stray = db()
    .select()
    .from(strayPayments)
    .where(eq(strayPayments.paymentIntentId, paid.intent.id))
    .get();
  if (!stray) throw new Error("the second payment was not recorded as stray");
  return { order, stray };
}

type LedgerData = {
  entries: {
    id: number;
    paymentIntentId: string;
    orderNumber: string | null;
    reasonLabel: string;
    amountLabel: string;
    refundable: boolean;
    requestKey: string | null;
    refund: { statusLabel: string } | null;
    resendableRefundId: number | null;
  }[];
  confirming: { id: number } | null;
};

async function ledger(cookie: string, search = "") {
  const { loader } = await route();
  const result = await callRoute(
    loader,
    new Request(`http://shop.test/admin/stray-payments${search}`, { headers: { Cookie: cookie } }),
  );
  return { ...result, ledger: result.data as LedgerData };
}

async function post(cookie: string | undefined, fields: Record<string, string>) {
  const { action } = await route();
  return callRoute(action, formRequest("/admin/stray-payments", Object.entries(fields), cookie));
}

const refundsOf = (strayPaymentId: number) =>
  db().select().from(refunds).where(eq(refunds.strayPaymentId, strayPaymentId)).all();

describe("the ledger of stray payments", () => {
  it("lists a second payment with the order it duplicates, and a key for its 全額返金", async () => {
    const { order, stray } = await strayPayment();
    const cookie = await adminCookie();
    const { status, ledger: page } = await ledger(cookie);
    expect(status).toBe(200);
    const entry = page.entries.find((e) => e.id === stray.id);
    expect(entry).toMatchObject({
      paymentIntentId: stray.paymentIntentId,
      orderNumber: order.orderNumber,
      reasonLabel: "同じ注文手続きの2回目の決済",
      amountLabel: "7,000円",
      refundable: true,
      refund: null,
    });
    expect(entry?.requestKey).toMatch(/^[0-9a-f-]{36}$/);
    // Without JS, 全額返金 leads to the confirmation, drawn by the same page.
    expect((await ledger(cookie, `?confirm=${stray.id}`)).ledger.confirming).toMatchObject({ id: stray.id });
    expect((await ledger(cookie, "?confirm=abc")).ledger.confirming).toBeNull();
  });

  it("refunds it in one click, once: a replay finds the refund, a second click is a 409", async () => {
    const { stray } = await strayPayment();
    const cookie = await adminCookie();
    const before = unrefundedStrayPaymentCount();
    const entry = (await ledger(cookie)).ledger.entries.find((e) => e.id === stray.id)!;
    const fields = { intent: "refund", strayPaymentId: String(stray.id), requestKey: entry.requestKey! };
    const first = await post(cookie, fields);
    expect(first.status).toBe(303);
    expect(first.location).toBe("/admin/stray-payments");
    expect(refundsOf(stray.id)).toMatchObject([{ amount: 7000, status: "succeeded" }]);
    expect(unrefundedStrayPaymentCount()).toBe(before - 1);
    // The same post again (a double click, the browser's resend): no second refund.
    const replay = await post(cookie, fields);
    expect(replay.status).toBe(303);
    expect(refundsOf(stray.id)).toHaveLength(1);
    expect(
      db().select().from(testRefunds).where(eq(testRefunds.paymentIntentId, stray.paymentIntentId)).all(),
    ).toHaveLength(1);
    // Another page's key (a second tab drawn before the refund): refused with the reason.
    const second = await post(cookie, { ...fields, requestKey: crypto.randomUUID() });
    expect(second.status).toBe(409);
    expect(second.data).toEqual({ error: "この決済は返金済み（または返金手続き中）です。" });
    expect(refundsOf(stray.id)).toHaveLength(1);
    const after = (await ledger(cookie)).ledger.entries.find((e) => e.id === stray.id);
    expect(after).toMatchObject({ refundable: false, requestKey: null, refund: { statusLabel: "返金済み" } });
  });

  it("sends again a refund the payment service was not reached for (再送信), and only such a one", async () => {
    const { stray } = await strayPayment();
    const cookie = await adminCookie();
    // What refundStrayPayment leaves when the provider cannot be reached: the row, still requested.
    const waiting = db()
      .insert(refunds)
      .values({
        strayPaymentId: stray.id,
        paymentIntentId: stray.paymentIntentId,
        amount: stray.amount,
        reason: "テスト",
        requestKey: crypto.randomUUID(),
      })
      .returning()
      .get();
    const entry = (await ledger(cookie)).ledger.entries.find((e) => e.id === stray.id);
    expect(entry).toMatchObject({ refundable: false, resendableRefundId: waiting.id });
    const resent = await post(cookie, { intent: "resend", refundId: String(waiting.id) });
    expect(resent.status).toBe(303);
    expect(refundsOf(stray.id)).toMatchObject([{ id: waiting.id, status: "succeeded" }]);
    const again = await post(cookie, { intent: "resend", refundId: String(waiting.id) });
    expect(again.status).toBe(409);
    expect(again.data).toEqual({ error: "この返金は決済サービスに届いています。再送信は不要です。" });
  });

  it("refuses bad posts with a message, not a 500", async () => {
    const cookie = await adminCookie();
    const cases: [Record<string, string>, number][] = [
      [{}, 400],
      [{ intent: "refund", strayPaymentId: "x", requestKey: "k" }, 400],
      [{ intent: "refund", strayPaymentId: "1", requestKey: "" }, 400],
      [{ intent: "refund", strayPaymentId: "99999999", requestKey: "k" }, 404],
      [{ intent: "resend", refundId: "99999999" }, 404],
    ];
    for (const [fields, status] of cases) {
      const result = await post(cookie, fields);
      expect(result.status, JSON.stringify(fields)).toBe(status);
      expect((result.data as { error: string }).error).toMatch(/[ぁ-んァ-ン]/);
    }
  });

  it("lets no one but an admin see or refund: a stranger and a customer go to the admin login", async () => {
    const { stray } = await strayPayment();
    const customer = await adminCookie({ isAdmin: false });
    for (const cookie of [undefined, customer]) {
      const { loader } = await route();
      const seen = await callRoute(
        loader,
        new Request("http://shop.test/admin/stray-payments", { headers: cookie ? { Cookie: cookie } : {} }),
      );
      expect(seen.status).toBe(302);
      expect(seen.location).toBe("/admin-login");
      const posted = await post(cookie, {
        intent: "refund",
        strayPaymentId: String(stray.id),
        requestKey: crypto.randomUUID(),
      });
      expect(posted.status).toBe(302);
      expect(posted.location).toBe("/admin-login");
    }
    expect(refundsOf(stray.id)).toHaveLength(0);
  });
});
