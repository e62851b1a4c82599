import { db } from "~/server/db/client.server";
import { orderLines, orders, users } from "~/server/db/schema";
import { testProvider } from "~/server/payments/index.server";

let n = 0;

/**
 * A paid order whose payment is real to the test provider (a succeeded test intent), so it can be
 * refunded through the same path as a Stripe one: lines of 3,000円 and 5,000円 unless told.
 * `konbini`: paid at a store (the provider then refunds it by bank transfer).
 */
export async function paidTestOrder(options: { prices?: number[]; konbini?: boolean } = {}) {
  const prices = options.prices ?? [3000, 5000];
  const total = prices.reduce((sum, price) => sum + price, 0);
  const checkoutId = `refund-checkout-${process.pid}-${++n}-${Math.random().toString(36).slice(2, 8)}`;
  let intent = await testProvider.createIntent({ checkoutId, amount: total, email: "x@example.jp" });
  if (options.konbini) {
    await testProvider.startKonbini(intent.id, new Date(Date.now() + 3 * 86_400_000));
    intent = (await testProvider.payAtStore(intent.id)) ?? intent;
  } else {
    const confirmed = await testProvider.confirmCard(intent.id, "4242424242424242");
    if (!confirmed.ok) throw new Error(confirmed.message);
    intent = confirmed.intent;
  }
  const orderNumber = String(40_000_000 + Math.floor(Math.random() * 9_000_000));
  const order = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId,
      paymentIntentId: intent.id,
      contestName: "返金テスト大会",
      bibNumberLabel: "ゼッケン番号",
      customerEmail: `refund-${orderNumber}@example.jp`,
      customerName: "返金 花子",
      totalAmount: total,
      lineCount: prices.length,
      paymentMethod: options.konbini ? "konbini" : "card",
    })
    .returning()
    .get();
  const lines = db()
    .insert(orderLines)
    .values(
      prices.map((price, i) => ({
        orderId: order.id,
        lineNumber: `${orderNumber}-${i + 1}`,
        contestName: "返金テスト大会",
        category: "A",
        athleteNumber: i + 1,
        athleteName: `選手${i + 1}`,
        style: i % 2 === 0 ? "縦" : "横",
        orientation: i % 2 === 0 ? ("vertical" as const) : ("horizontal" as const),
        price,
      })),
    )
    .returning()
    .all();
  return { order, lines, intent };
}

/** An admin to name as the refund's maker. */
export function refundAdmin() {
  return db()
    .insert(users)
    .values({
      email: `refund-admin-${++n}-${Math.random().toString(36).slice(2)}@example.jp`,
      passwordHash: "x",
      isAdmin: true,
    })
    .returning()
    .get();
}

/**
 * A konbini order 入金待ち whose voucher is real to the test provider (requires_action until
 * `payAtStore`), due in three days unless told: what 入金確認（手動） and the store's payment act on.
 */
export async function awaitingKonbiniOrder(options: { dueAt?: Date } = {}) {
  const dueAt = options.dueAt ?? new Date(Date.now() + 3 * 86_400_000);
  const checkoutId = `konbini-checkout-${process.pid}-${++n}-${Math.random().toString(36).slice(2, 8)}`;
  const intent = await testProvider.createIntent({ checkoutId, amount: 8000, email: "x@example.jp" });
  const voucher = await testProvider.startKonbini(intent.id, new Date(Date.now() + 3 * 86_400_000));
  const orderNumber = String(50_000_000 + Math.floor(Math.random() * 9_000_000));
  const order = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId,
      paymentIntentId: intent.id,
      contestName: "コンビニ払いテスト大会",
      bibNumberLabel: "ゼッケン番号",
      customerEmail: `konbini-${orderNumber}@example.jp`,
      customerName: "入金 花子",
      totalAmount: 8000,
      lineCount: 1,
      paymentMethod: "konbini",
      paymentStatus: "awaiting",
      paidAt: null,
      paymentDueAt: dueAt,
      konbiniConfirmationNumber: voucher?.konbini?.confirmationNumber ?? null,
    })
    .returning()
    .get();
  db()
    .insert(orderLines)
    .values({
      orderId: order.id,
      lineNumber: `${orderNumber}-1`,
      contestName: "コンビニ払いテスト大会",
      category: "A",
      athleteNumber: 1,
      athleteName: "選手1",
      style: "縦",
      orientation: "vertical",
      price: 8000,
    })
    .run();
  return { order, intent };
}
