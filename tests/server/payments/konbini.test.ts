import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/server/db/client.server";
import { orders } from "~/server/db/schema";
import { checkoutUntilVerified } from "../../helpers/checkout-flow";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest, seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));

/** テストモード, without JavaScript: the payment page's コンビニ払い form. */
async function konbiniOrder() {
  const shop = seedContest();
  const { cookie, email } = await checkoutUntilVerified(
    shop,
    [{ athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id }],
    smtp.received,
  );
  const payment = await import("~/routes/checkout/payment");
  const posted = await callRoute(payment.action, formRequest("/payment", [["method", "konbini"]], cookie));
  expect(posted.location).toBe("/payment-complete");
  const order = db().select().from(orders).where(eq(orders.customerEmail, email)).get()!;
  return { shop, email, order };
}

async function statusPage(token: string, cookie?: string) {
  const page = await import("~/routes/storefront/order-status");
  const headers = cookie ? { Cookie: cookie } : undefined;
  return callRoute(page.loader, new Request(`http://shop.test/orders/${token}`, { headers }), { token });
}

/** テストモード's till and deadline, pressed by a logged-in admin (or, given a cookie, by whoever holds it). */
async function playStore(token: string, event: string, cookie?: string) {
  const route = await import("~/routes/storefront/konbini-test");
  return callRoute(
    route.action,
    formRequest(`/orders/${token}/konbini-test`, [["event", event]], cookie ?? (await adminCookie())),
    { token },
  );
}

const orderNow = (id: number) => db().select().from(orders).where(eq(orders.id, id)).get()!;

describe("konbini with the test provider (テストモード)", () => {
  it("the voucher deadline is 23:59:59 Japan time on the day N days later, as Stripe's", async () => {
    const { konbiniDeadline } = await import("~/server/orders/konbini.server");
    // Monday 2026-11-23 10:00 JST (01:00 UTC) with 2 days → Wednesday 23:59:59 JST.
    expect(konbiniDeadline(new Date("2026-11-23T01:00:00Z"), 2).toISOString()).toBe(
      "2026-11-25T14:59:59.000Z",
    );
    // 23:30 JST Monday (14:30 UTC) still counts from Monday.
    expect(konbiniDeadline(new Date("2026-11-23T14:30:00Z"), 3).toISOString()).toBe(
      "2026-11-26T14:59:59.000Z",
    );
    // 00:30 JST Tuesday (15:30 UTC Monday) counts from Tuesday.
    expect(konbiniDeadline(new Date("2026-11-23T15:30:00Z"), 3).toISOString()).toBe(
      "2026-11-27T14:59:59.000Z",
    );
  });

  it("コンビニ払い makes the order 入金待ち with an 11-digit number and the deadline, mails the voucher, and shows it on the status page", async () => {
    const { email, order } = await konbiniOrder();
    expect(order).toMatchObject({ paymentMethod: "konbini", paymentStatus: "awaiting", paidAt: null });
    expect(order.konbiniConfirmationNumber).toMatch(/^\d{11}$/);
    expect(order.paymentDueAt!.getTime()).toBeGreaterThan(Date.now() + 2 * 24 * 3600_000);
    await vi.waitFor(() =>
      expect(mailsTo(email).some((m) => m.subject.includes("コンビニでのお支払いのご案内"))).toBe(true),
    );
    const mail = mailsTo(email).find((m) => m.subject.includes("コンビニでのお支払いのご案内"))!;
    expect(mail.text).toContain(order.konbiniConfirmationNumber!);
    expect(mail.text).toContain("（日本時間）");
    // No card order's confirmation: the voucher mail is this order's confirmation.
    expect(mailsTo(email).some((m) => m.subject.startsWith("ご注文ありがとうございます"))).toBe(false);

    const page = await statusPage(order.statusToken);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({
      order: { progress: "入金待ち", voucher: { confirmationNumber: order.konbiniConfirmationNumber } },
      // The till's buttons are the admin's: the customer's page does not offer them.
      konbiniTest: false,
    });
    expect((await statusPage(order.statusToken, await adminCookie())).data).toMatchObject({
      konbiniTest: true,
    });
  });

  it("the voucher mail gives the voucher page's steps: no phone number, the stores, the deadline, production after payment, cancellation if unpaid", async () => {
    const { email, order } = await konbiniOrder();
    await vi.waitFor(() =>
      expect(mailsTo(email).some((m) => m.subject.includes("コンビニでのお支払いのご案内"))).toBe(true),
    );
    const mail = mailsTo(email).find((m) => m.subject.includes("コンビニでのお支払いのご案内"))!;
    const { konbiniSteps } = await import("~/lib/rules/konbini-steps");
    const { formatDateTime } = await import("~/lib/rules/format");
    const steps = konbiniSteps({ hostedVoucher: false, due: formatDateTime(order.paymentDueAt!) });
    for (const step of steps) expect(mail.text).toContain(step);
    expect(mail.text).not.toContain("電話番号");
    expect(steps.join("")).toContain("ファミリーマート・ローソン・ミニストップ・セイコーマート");
    expect(steps.join("")).toContain("確認番号");
    expect(steps.join("")).toContain("お支払い後、制作を開始します");
    expect(steps.join("")).toContain("自動的に取り消されます");
  });

  it("konbini test payment by a stranger holding the status link: refused (to /admin-login), the order still waits", async () => {
    const { order } = await konbiniOrder();
    const customer = await adminCookie({ isAdmin: false });
    for (const cookie of ["", customer]) {
      for (const event of ["paid", "expired"]) {
        const tried = await playStore(order.statusToken, event, cookie);
        expect(tried.status).toBe(302);
        expect(tried.location).toBe("/admin-login");
      }
    }
    expect(orderNow(order.id)).toMatchObject({ paymentStatus: "awaiting", paidAt: null });
    expect((await statusPage(order.statusToken, customer)).data).toMatchObject({ konbiniTest: false });
    // The admin's press still plays the till.
    expect((await playStore(order.statusToken, "paid")).status).toBe(302);
    expect(orderNow(order.id).paymentStatus).toBe("paid");
  });

  it("the store payment (through the webhook's code) makes it paid once: 制作中, one mail; a second press is a 409", async () => {
    const { email, order } = await konbiniOrder();
    const paid = await playStore(order.statusToken, "paid");
    expect(paid.location).toBe(`/orders/${order.statusToken}`);
    expect(orderNow(order.id)).toMatchObject({ paymentStatus: "paid", status: "未対応" });
    expect(orderNow(order.id).paidAt).toBeInstanceOf(Date);
    expect((await playStore(order.statusToken, "paid")).status).toBe(409);
    expect((await statusPage(order.statusToken)).data).toMatchObject({ order: { progress: "制作中" } });
    await vi.waitFor(() =>
      expect(mailsTo(email).filter((m) => m.subject.includes("お支払いを確認しました"))).toHaveLength(1),
    );
  });

  it("an expired voucher ends the order 期限切れ, mails the customer, and can no longer be paid", async () => {
    const { email, order } = await konbiniOrder();
    expect((await playStore(order.statusToken, "expired")).status).toBe(302);
    expect(orderNow(order.id)).toMatchObject({ paymentStatus: "expired", paidAt: null });
    expect((await playStore(order.statusToken, "paid")).status).toBe(409);
    expect(orderNow(order.id).paymentStatus).toBe("expired");
    expect((await statusPage(order.statusToken)).data).toMatchObject({ order: { progress: "期限切れ" } });
    await vi.waitFor(() =>
      expect(mailsTo(email).some((m) => m.subject.includes("ご注文を取り消しました"))).toBe(true),
    );
  });

  it("a voucher past its deadline is refused at the till and expired by reconciliation", async () => {
    const { order } = await konbiniOrder();
    const { testPaymentIntents } = await import("~/server/db/schema");
    const past = new Date(Date.now() - 1000);
    db()
      .update(testPaymentIntents)
      .set({ konbiniExpiresAt: past })
      .where(eq(testPaymentIntents.id, order.paymentIntentId))
      .run();
    db().update(orders).set({ paymentDueAt: past }).where(eq(orders.id, order.id)).run();
    expect((await playStore(order.statusToken, "paid")).status).toBe(409);
    const { reconcileKonbiniPayments } = await import("~/server/orders/konbini.server");
    expect((await reconcileKonbiniPayments()).expired).toBeGreaterThanOrEqual(1);
    expect(orderNow(order.id).paymentStatus).toBe("expired");
  });

  it("bad input to the test actions is a 4xx, never a 500", async () => {
    const { order } = await konbiniOrder();
    expect((await playStore(order.statusToken, "refund")).status).toBe(400);
    expect((await playStore("0".repeat(32), "paid")).status).toBe(404);
    expect((await playStore("not-a-token", "paid")).status).toBe(404);
  });

  it("an unpaid order is neither delivered, nor on the production list, nor in sales; the admin finds it under 入金待ち", async () => {
    const { shop, order } = await konbiniOrder();
    const { deliverOrder, completeOrder } = await import("~/server/delivery/order-delivery.server");
    const refused = await deliverOrder(order.id, new Map([[0, "https://example.com/v.mp4"]]));
    expect(refused).toMatchObject({ ok: false, status: 409 });
    expect(completeOrder(order.id)).toBe(false);

    const { productionList } = await import("~/server/delivery/production-list.server");
    expect(productionList(shop.contestId)).toHaveLength(0);
    const { salesReport } = await import("~/server/sales/sales.server");
    const filter = { contest: order.contestName, from: null, to: null };
    expect(salesReport(filter).orderCount).toBe(0);

    const { listOrderGroups, orderListCounts } = await import("~/server/orders/admin/order-list.server");
    const contest = { kind: "contest" as const, id: shop.contestId, name: shop.name };
    expect(listOrderGroups({ tab: "pending", q: "", page: 1, contest }).total).toBe(0);
    expect(listOrderGroups({ tab: "awaiting", q: "", page: 1, contest }).groups.map((g) => g.id)).toEqual([
      order.id,
    ]);
    expect(orderListCounts(contest)).toMatchObject({ pending: 0, awaiting: 1 });

    await playStore(order.statusToken, "paid");
    expect(productionList(shop.contestId)).toHaveLength(1);
    expect(salesReport(filter).orderCount).toBe(1);
    expect(orderListCounts(contest)).toMatchObject({ pending: 1, awaiting: 0 });
  });
});
