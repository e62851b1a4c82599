import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { checkouts, couponUses, coupons, orderLines, orders, testPaymentIntents } from "~/server/db/schema";
import { COUPON_HOLD_LEASE_MS } from "~/server/promotions/coupons.server";
import { COUPON_TRY_LIMITS } from "~/server/checkout/coupon.server";
import { readOrderMetadata } from "~/server/payments/order-metadata.server";
import { checkoutUntilVerified, openCheckoutPage, payByTestCard } from "../../helpers/checkout-flow";
import { callRoute } from "../../helpers/route";
import { formRequest, seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

/*
 * A coupon at checkout, the way a parent without JavaScript uses it: typed on the confirmation
 * page, checked there and again at every step, its use held when the payment is prepared, and
 * the order keeping what it took off. The two-checkouts race is the attack
 * *last coupon use raced*.
 */

const smtp = smtpServerForThisFile();

type Shop = ReturnType<typeof seedContest>;
type CouponRow = typeof coupons.$inferInsert;

afterEach(() => setClock(null));

let codes = 0;
function makeCoupon(values: Partial<CouponRow> = {}) {
  const code = `TEST${++codes}${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
  return db()
    .insert(coupons)
    .values({ code, kind: "percent", value: 10, ...values })
    .returning()
    .get();
}

/** Both styles of the athlete on sale: 3,000 + 4,500 = 7,500円. */
function bothStyles(shop: Shop) {
  return [
    { category: "A部門", athleteId: shop.onSale.id, formatId: shop.vertical.id },
    { category: "A部門", athleteId: shop.onSale.id, formatId: shop.horizontal.id },
  ];
}

async function verifiedCheckout(shop: Shop) {
  return checkoutUntilVerified(shop, bothStyles(shop), smtp.received);
}

async function couponPost(cookie: string, fields: [string, string][]) {
  const confirmation = await import("~/routes/checkout/order-confirmation");
  return callRoute(confirmation.action, formRequest("/order-confirmation", fields, cookie));
}

const applyCoupon = (cookie: string, code: string) =>
  couponPost(cookie, [
    ["intent", "apply-coupon"],
    ["couponCode", code],
  ]);

type PaymentPage = {
  summary: { total: number; notice: string | null; couponRefusal: { message: string | null } | null };
};
type ConfirmationPage = {
  total: number;
  coupon: { code: string; applied: boolean; message: string | null; amount: number } | null;
};
type CouponAnswer = {
  coupon: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };
};

function orderOf(email: string) {
  return db().select().from(orders).where(eq(orders.customerEmail, email)).get();
}

function usesOf(couponId: number) {
  return db().select().from(couponUses).where(eq(couponUses.couponId, couponId)).all();
}

describe("a coupon at checkout (JavaScript off)", () => {
  it("typed in full-width on the confirmation page: its discount on the lines, the payment and the order", async () => {
    const shop = seedContest();
    const coupon = makeCoupon({ kind: "percent", value: 10, contestIds: [shop.contestId] });
    const { cookie, email } = await verifiedCheckout(shop);
    const fullWidth = coupon.code.replace(/[A-Z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    const applied = await applyCoupon(cookie, ` ${fullWidth.toLowerCase()} `);
    expect(applied.status).toBe(302);
    expect(applied.location).toBe("/order-confirmation");

    const page = (await openCheckoutPage("/order-confirmation", cookie)).data as ConfirmationPage;
    expect(page.coupon).toEqual({ code: coupon.code, applied: true, message: null, amount: 750 });
    expect(page.total).toBe(6750);

    const payment = (await openCheckoutPage("/payment", cookie)).data as PaymentPage;
    expect(payment.summary.total).toBe(6750);
    expect(usesOf(coupon.id)).toMatchObject([{ orderId: null, usedAt: null, email, amount: 750 }]);

    const paid = await payByTestCard(cookie, 6750);
    expect(paid.location).toBe("/payment-complete");
    const order = orderOf(email)!;
    expect(order).toMatchObject({
      totalAmount: 6750,
      listTotal: 7500,
      couponId: coupon.id,
      couponCode: coupon.code,
      discounts: [{ kind: "coupon", name: `クーポン（${coupon.code}）`, amount: 750 }],
    });
    const lines = db().select().from(orderLines).where(eq(orderLines.orderId, order.id)).all();
    expect(lines.map((l) => [l.listPrice, l.price])).toEqual([
      [3000, 2700],
      [4500, 4050],
    ]);
    expect(usesOf(coupon.id)).toMatchObject([{ orderId: order.id, amount: 750 }]);
    expect(usesOf(coupon.id)[0]!.usedAt).not.toBeNull();
    // The payment carries the order with its breakdown and coupon (a restore makes it again as it was).
    const intent = db()
      .select()
      .from(testPaymentIntents)
      .where(eq(testPaymentIntents.id, order.paymentIntentId))
      .get()!;
    const carried = readOrderMetadata(intent.metadata).order!;
    expect(carried.couponCode).toBe(coupon.code);
    expect(carried.pricedLines.map((l) => [l.listPrice, l.price, l.discounts.length])).toEqual([
      [3000, 2700, 1],
      [4500, 4050, 1],
    ]);
  });

  it.each<[string, (shop: Shop) => Partial<CouponRow>, RegExp]>([
    ["expired", () => ({ validUntil: new Date(Date.now() - 60_000) }), /^期限切れ：/],
    [
      "not started",
      () => ({ validFrom: new Date(Date.now() + 86_400_000) }),
      /^このクーポンコードはお使いいただけません/,
    ],
    ["used up", () => ({ maxUses: 0 }), /^使用済み：/],
    ["for another contest", (shop) => ({ contestIds: [shop.contestId + 100_000] }), /^対象外の大会：/],
    ["under its minimum", () => ({ minTotal: 10_000 }), /^最低金額：.*10,000円以上/],
    ["disabled", () => ({ disabledAt: new Date() }), /^このクーポンコードはお使いいただけません/],
  ])(
    "refused when %s: a 400 that says why, the typed code kept, the total unchanged",
    async (_, values, why) => {
      const shop = seedContest();
      const coupon = makeCoupon(values(shop));
      const { cookie } = await verifiedCheckout(shop);
      const answer = await applyCoupon(cookie, coupon.code.toLowerCase());
      expect(answer.status).toBe(400);
      const reply = (answer.data as CouponAnswer).coupon;
      expect(reply.error?.couponCode?.[0]).toMatch(why);
      expect(reply.initialValue?.couponCode).toBe(coupon.code.toLowerCase());
      const page = (await openCheckoutPage("/order-confirmation", cookie)).data as ConfirmationPage;
      expect(page.coupon).toBeNull();
      expect(page.total).toBe(7500);
    },
  );

  it("refused for an unknown code and a malformed one, with their messages", async () => {
    const shop = seedContest();
    const { cookie } = await verifiedCheckout(shop);
    const unknown = await applyCoupon(cookie, "NOSUCHCODE");
    expect(unknown.status).toBe(400);
    // The same words as a code switched off or not started: nothing tells a guesser which exist.
    expect((unknown.data as CouponAnswer).coupon.error?.couponCode?.[0]).toBe(
      "このクーポンコードはお使いいただけません。入力内容をご確認ください",
    );
    const malformed = await applyCoupon(cookie, "<script>");
    expect(malformed.status).toBe(400);
    expect((malformed.data as CouponAnswer).coupon.error?.couponCode?.[0]).toMatch(/半角英数字/);
  });

  it("used by the same address up to its cap per address: 使用済み for that address only", async () => {
    const shop = seedContest();
    const coupon = makeCoupon({ maxUsesPerEmail: 1 });
    const first = await verifiedCheckout(shop);
    await applyCoupon(first.cookie, coupon.code);
    await openCheckoutPage("/payment", first.cookie);
    expect((await payByTestCard(first.cookie, 6750)).location).toBe("/payment-complete");
    // A second checkout verified with the same address.
    const again = await verifiedCheckout(shop);
    db()
      .update(checkouts)
      .set({ customerEmail: first.email })
      .where(eq(checkouts.customerEmail, again.email))
      .run();
    const refused = await applyCoupon(again.cookie, coupon.code);
    expect(refused.status).toBe(400);
    expect((refused.data as CouponAnswer).coupon.error?.couponCode?.[0]).toMatch(
      /^使用済み：このメールアドレスでは/,
    );
    // Another address may still use it.
    const other = await verifiedCheckout(shop);
    expect((await applyCoupon(other.cookie, coupon.code)).status).toBe(302);
  });

  it("a coupon that expires between the confirmation and the payment: the payment page says 期限切れ and charges without it", async () => {
    const shop = seedContest();
    const start = Date.now();
    const coupon = makeCoupon({ validUntil: new Date(start + 60 * 60_000) });
    const { cookie, email } = await verifiedCheckout(shop);
    expect((await applyCoupon(cookie, coupon.code)).status).toBe(302);
    expect(((await openCheckoutPage("/order-confirmation", cookie)).data as ConfirmationPage).total).toBe(
      6750,
    );
    setClock(() => start + 61 * 60_000);
    const payment = (await openCheckoutPage("/payment", cookie)).data as PaymentPage;
    expect(payment.summary.total).toBe(7500);
    expect(payment.summary.couponRefusal?.message).toMatch(/^期限切れ：/);
    // The total the page showed before the coupon ended is refused, never charged.
    const stale = await payByTestCard(cookie, 6750);
    expect(stale.status).toBe(409);
    expect((await payByTestCard(cookie, 7500)).location).toBe("/payment-complete");
    expect(orderOf(email)).toMatchObject({ totalAmount: 7500, couponId: null, discounts: [] });
    expect(usesOf(coupon.id)).toEqual([]);
  });

  it("taken off again: the total without it, and the use its payment held given back once the payment no longer carries it", async () => {
    const shop = seedContest();
    const coupon = makeCoupon({ maxUses: 1 });
    const { cookie } = await verifiedCheckout(shop);
    await applyCoupon(cookie, coupon.code);
    await openCheckoutPage("/payment", cookie);
    expect(usesOf(coupon.id)).toHaveLength(1);
    const removed = await couponPost(cookie, [["intent", "remove-coupon"]]);
    expect(removed.location).toBe("/order-confirmation");
    expect(((await openCheckoutPage("/order-confirmation", cookie)).data as ConfirmationPage).total).toBe(
      7500,
    );
    // Held while the payment prepared at the coupon's price could still be paid (another tab)…
    expect(usesOf(coupon.id)).toHaveLength(1);
    // …and given back once the payment is at the price without it.
    expect(((await openCheckoutPage("/payment", cookie)).data as PaymentPage).summary.total).toBe(7500);
    expect(usesOf(coupon.id)).toEqual([]);
  });

  it("*coupon taken off then paid*: the payment prepared with it, paid from another tab, is the coupon's use", async () => {
    const { testProvider } = await import("~/server/payments/index.server");
    const { recordPayment } = await import("~/server/orders/record-payment.server");
    const { paymentProvider } = await import("~/server/payments/index.server");
    const shop = seedContest();
    const coupon = makeCoupon({ maxUses: 1, maxUsesPerEmail: 1 });
    const { cookie, email } = await verifiedCheckout(shop);
    await applyCoupon(cookie, coupon.code);
    await openCheckoutPage("/payment", cookie);
    const intentId = db().select().from(checkouts).where(eq(checkouts.customerEmail, email)).get()!
      .paymentIntentId!;
    await couponPost(cookie, [["intent", "remove-coupon"]]);
    // The other tab pays the payment its page prepared at 6,750円.
    expect((await testProvider.confirmCard(intentId, "4242424242424242")).ok).toBe(true);
    expect(recordPayment((await paymentProvider().retrieveIntent(intentId))!).ok).toBe(true);
    const order = orderOf(email)!;
    expect(order).toMatchObject({ totalAmount: 6750, couponId: coupon.id, couponCode: coupon.code });
    expect(usesOf(coupon.id)).toMatchObject([{ orderId: order.id, amount: 750 }]);
    const next = await verifiedCheckout(shop);
    expect(
      ((await applyCoupon(next.cookie, coupon.code)).data as CouponAnswer).coupon.error?.couponCode?.[0],
    ).toMatch(/^使用済み：/);
  });

  it("switched to another coupon: the payment carries the new one, and the first one's hold is given back", async () => {
    const shop = seedContest();
    const first = makeCoupon({ maxUses: 1 });
    const second = makeCoupon({ maxUses: 1, kind: "yen", value: 1000 });
    const { cookie, email } = await verifiedCheckout(shop);
    await applyCoupon(cookie, first.code);
    await openCheckoutPage("/payment", cookie);
    await applyCoupon(cookie, second.code);
    expect(((await openCheckoutPage("/payment", cookie)).data as PaymentPage).summary.total).toBe(6500);
    expect(usesOf(first.id)).toEqual([]);
    expect((await payByTestCard(cookie, 6500)).location).toBe("/payment-complete");
    expect(orderOf(email)).toMatchObject({ couponId: second.id, totalAmount: 6500 });
    const other = await verifiedCheckout(shop);
    expect((await applyCoupon(other.cookie, first.code)).status).toBe(302);
  });

  it("coupon codes guessed: the field refuses more than its tries per checkout with a 429", async () => {
    const shop = seedContest();
    const { cookie } = await verifiedCheckout(shop);
    for (let i = 0; i < COUPON_TRY_LIMITS.perCheckout; i++)
      expect((await applyCoupon(cookie, `GUESS${i}XX`)).status).toBe(400);
    const limited = await applyCoupon(cookie, "GUESSMORE");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});

describe("a coupon's last use (*last coupon use raced*)", () => {
  it("two checkouts at the same moment: one pays with it, the other is shown the new total before paying", async () => {
    const shop = seedContest();
    const coupon = makeCoupon({ maxUses: 1, kind: "yen", value: 1000 });
    const a = await verifiedCheckout(shop);
    const b = await verifiedCheckout(shop);
    // Both have been on the payment page already: each prepared payment is asked for at the
    // provider again, so both are priced before either holds the use (as two phones would be).
    await Promise.all([openCheckoutPage("/payment", a.cookie), openCheckoutPage("/payment", b.cookie)]);
    // Both confirmation pages offer it: nobody holds it yet.
    expect((await applyCoupon(a.cookie, coupon.code)).status).toBe(302);
    expect((await applyCoupon(b.cookie, coupon.code)).status).toBe(302);

    const [pageA, pageB] = (
      await Promise.all([openCheckoutPage("/payment", a.cookie), openCheckoutPage("/payment", b.cookie)])
    ).map((answer) => answer.data as PaymentPage);
    const totals = [pageA!.summary.total, pageB!.summary.total].sort();
    expect(totals).toEqual([6500, 7500]);
    const [winner, loser] =
      pageA!.summary.total === 6500 ? [a, { ...b, page: pageB! }] : [b, { ...a, page: pageA! }];
    // Priced without it before anything is charged, and told why.
    expect(loser.page.summary.notice).toMatch(/^使用済み：.*クーポンなしの金額に変わりました/);

    // Each pays what her page showed; the coupon is used once.
    const paid = await Promise.all([payByTestCard(winner.cookie, 6500), payByTestCard(loser.cookie, 7500)]);
    expect(paid.map((answer) => answer.location)).toEqual(["/payment-complete", "/payment-complete"]);
    expect(orderOf(winner.email)).toMatchObject({ totalAmount: 6500, couponId: coupon.id });
    expect(orderOf(loser.email)).toMatchObject({ totalAmount: 7500, couponId: null });
    expect(usesOf(coupon.id).filter((use) => use.orderId !== null)).toHaveLength(1);
    // Never charged a price she was not shown: each payment is her order's total.
    for (const { email } of [winner, loser]) {
      const order = orderOf(email)!;
      const intent = db()
        .select()
        .from(testPaymentIntents)
        .where(eq(testPaymentIntents.id, order.paymentIntentId))
        .get()!;
      expect(intent.amount).toBe(order.totalAmount);
    }
  });

  it("a hold left by a payment page abandoned past the lease: that payment is ended first, then the use goes to the next", async () => {
    const shop = seedContest();
    const coupon = makeCoupon({ maxUses: 1 });
    const a = await verifiedCheckout(shop);
    await applyCoupon(a.cookie, coupon.code);
    expect(((await openCheckoutPage("/payment", a.cookie)).data as PaymentPage).summary.total).toBe(6750);
    const aIntent = db().select().from(checkouts).where(eq(checkouts.customerEmail, a.email)).get()!
      .paymentIntentId!;

    const b = await verifiedCheckout(shop);
    // Within the lease the use is held: refused on the confirmation page.
    expect((await applyCoupon(b.cookie, coupon.code)).status).toBe(400);
    setClock(() => Date.now() + COUPON_HOLD_LEASE_MS + 60_000);
    expect((await applyCoupon(b.cookie, coupon.code)).status).toBe(302);
    expect(((await openCheckoutPage("/payment", b.cookie)).data as PaymentPage).summary.total).toBe(6750);
    const ended = db().select().from(testPaymentIntents).where(eq(testPaymentIntents.id, aIntent)).get()!;
    expect(ended.status).toBe("canceled");
    // The first parent, back, is shown the price without it before anything is charged.
    const back = (await openCheckoutPage("/payment", a.cookie)).data as PaymentPage;
    expect(back.summary.total).toBe(7500);
    expect(back.summary.couponRefusal?.message).toMatch(/^使用済み：/);
  });
  it("a stale hold whose payment cannot be ended (paid): the payment page is priced without the coupon and says why", async () => {
    const shop = seedContest();
    const coupon = makeCoupon({ maxUses: 1 });
    const paid = await verifiedCheckout(shop);
    await openCheckoutPage("/payment", paid.cookie);
    expect((await payByTestCard(paid.cookie, 7500)).location).toBe("/payment-complete");
    const paidCheckout = orderOf(paid.email)!.checkoutId;
    // A hold left on that paid checkout long ago (a page count leaves it out: it is past the lease).
    db()
      .insert(couponUses)
      .values({
        couponId: coupon.id,
        checkoutId: paidCheckout,
        email: paid.email,
        heldAt: new Date(Date.now() - 2 * COUPON_HOLD_LEASE_MS),
      })
      .run();
    const { cookie } = await verifiedCheckout(shop);
    expect((await applyCoupon(cookie, coupon.code)).status).toBe(302);
    const page = await openCheckoutPage("/payment", cookie);
    const summary = (page.data as PaymentPage).summary;
    expect(page.status).toBe(200);
    expect(summary.total).toBe(7500);
    expect(summary.notice).toMatch(/^使用済み：.*クーポンなしの金額に変わりました/);
    expect((await payByTestCard(cookie, 7500)).location).toBe("/payment-complete");
  });
});

describe("a coupon's use after the order", () => {
  it("a konbini order holds its use while it waits, and gives it back when its voucher expires unpaid", async () => {
    const { simulateKonbini } = await import("~/server/orders/konbini.server");
    const shop = seedContest();
    const coupon = makeCoupon({ maxUses: 1 });
    const a = await verifiedCheckout(shop);
    await applyCoupon(a.cookie, coupon.code);
    await openCheckoutPage("/payment", a.cookie);
    const payment = await import("~/routes/checkout/payment");
    const voucher = await callRoute(
      payment.action,
      formRequest(
        "/payment",
        [
          ["method", "konbini"],
          ["shownTotal", "6750"],
        ],
        a.cookie,
      ),
    );
    expect(voucher.location).toBe("/payment-complete");
    const order = orderOf(a.email)!;
    expect(order).toMatchObject({ paymentStatus: "awaiting", totalAmount: 6750, couponId: coupon.id });
    const b = await verifiedCheckout(shop);
    expect((await applyCoupon(b.cookie, coupon.code)).status).toBe(400);
    expect((await simulateKonbini(order.statusToken, "expired")).ok).toBe(true);
    expect((await applyCoupon(b.cookie, coupon.code)).status).toBe(302);
  });

  it("made again from its payment (a restore lost the order): the same discount, coupon and use", async () => {
    const { recordPayment } = await import("~/server/orders/record-payment.server");
    const { paymentProvider } = await import("~/server/payments/index.server");
    const shop = seedContest();
    const coupon = makeCoupon({ kind: "yen", value: 500, maxUses: 1 });
    const { cookie, email } = await verifiedCheckout(shop);
    await applyCoupon(cookie, coupon.code);
    await openCheckoutPage("/payment", cookie);
    expect((await payByTestCard(cookie, 7000)).location).toBe("/payment-complete");
    const lost = orderOf(email)!;
    // The database as a snapshot taken before the payment: no order, no checkout, no use.
    db().delete(couponUses).where(eq(couponUses.couponId, coupon.id)).run();
    db().delete(orders).where(eq(orders.id, lost.id)).run();
    db().delete(checkouts).where(eq(checkouts.id, lost.checkoutId)).run();
    const made = recordPayment((await paymentProvider().retrieveIntent(lost.paymentIntentId))!);
    expect(made.ok).toBe(true);
    const again = orderOf(email)!;
    expect(again).toMatchObject({
      totalAmount: 7000,
      listTotal: 7500,
      couponId: coupon.id,
      couponCode: coupon.code,
      discounts: lost.discounts,
    });
    const lines = db().select().from(orderLines).where(eq(orderLines.orderId, again.id)).all();
    expect(lines.map((l) => [l.listPrice, l.price, l.discounts])).toEqual([
      [3000, 2800, [{ kind: "coupon", name: `クーポン（${coupon.code}）`, amount: 200 }]],
      [4500, 4200, [{ kind: "coupon", name: `クーポン（${coupon.code}）`, amount: 300 }]],
    ]);
    expect(usesOf(coupon.id)).toMatchObject([{ orderId: again.id, amount: 500 }]);
  });
});
