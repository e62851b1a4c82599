import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { applyPromotions, type ContestPromotions } from "~/lib/rules/promotions";
import { db } from "~/server/db/client.server";
import { checkouts, coupons, orderLines, orders } from "~/server/db/schema";
import { recordPayment } from "~/server/orders/record-payment.server";
import { testProvider } from "~/server/payments/index.server";
import type { seedContest } from "./shop";

type Shop = ReturnType<typeof seedContest>;

/**
 * 早割 3,000円 → 2,500円 on 縦 (open for a day), セット割 600円: with the coupon (10 % off), an
 * order of 選手1 縦 (3,000円) and 横 (4,500円) comes to 5,760円 off a list total of 7,500円:
 * 早割 −500, セット割 −600, クーポン −640 (220 off 縦, 420 off 横): 縦 1,980円, 横 3,780円.
 */
export const DISCOUNTED = {
  listTotal: 7500,
  total: 5760,
  linePrices: [1980, 3780],
  listPrices: [3000, 4500],
  discounts: { early_bird: 500, set: 600, coupon: 640 },
} as const;

function promotions(at: number): ContestPromotions {
  return {
    earlyBird: { prices: { vertical: 2500, horizontal: null }, endsAt: at + 86_400_000 },
    setDiscount: 600,
    quantity: null,
  };
}

/** A coupon row (10 % off, every contest) with a code of its own. */
export function insertCoupon(code = `SPRING${crypto.randomBytes(3).toString("hex").toUpperCase()}`) {
  return db()
    .insert(coupons)
    .values({ code, kind: "percent", value: 10, label: "テスト用" })
    .returning()
    .get();
}

/**
 * An order with discounts made the shop's way: the checkout's lines priced by the shop's own
 * rule (applyPromotions) with the 早割, the セット割 and a coupon, paid by card to the test
 * provider (so it can be refunded) and recorded by recordPayment, which stores the breakdown,
 * the coupon's use and queues the confirmation. `coupon`: a coupon row to use (a new one unless
 * given), or false to leave the coupon out.
 */
export async function discountedOrder(
  shop: Shop,
  options: {
    coupon?: false | typeof coupons.$inferSelect;
    email?: string;
    name?: string;
    contestId?: number;
  } = {},
) {
  const coupon = options.coupon === false ? null : (options.coupon ?? insertCoupon());
  const contestId = options.contestId ?? shop.contestId;
  const at = Date.now();
  const line = (orientation: "vertical" | "horizontal") => ({
    category: "A部門",
    athleteId: shop.onSale.id,
    athleteNumber: shop.onSale.athleteNumber,
    athleteName: shop.onSale.name,
    formatId: orientation === "vertical" ? shop.vertical.id : shop.horizontal.id,
    style: orientation === "vertical" ? "縦" : "横",
    orientation,
    listPrice: orientation === "vertical" ? 3000 : 4500,
  });
  const priced = applyPromotions(
    [line("vertical"), line("horizontal")],
    promotions(at),
    at,
    coupon ? { code: coupon.code, kind: coupon.kind, value: coupon.value, minTotal: coupon.minTotal } : null,
  );
  const id = crypto.randomBytes(16).toString("base64url");
  const email = options.email ?? `discount-${id.slice(0, 8).toLowerCase()}@example.jp`;
  db()
    .insert(checkouts)
    .values({
      id,
      contestId,
      items: [],
      customerEmail: email,
      customerName: options.name ?? "割引 花子",
      emailVerifiedAt: new Date(),
      status: "verified",
      pricedLines: priced.lines,
      couponCode: coupon?.code ?? null,
      amount: priced.total,
    })
    .run();
  const created = await testProvider.createIntent({ checkoutId: id, amount: priced.total, email });
  const confirmed = await testProvider.confirmCard(created.id, "4242424242424242");
  if (!confirmed.ok) throw new Error(confirmed.message);
  db().update(checkouts).set({ paymentIntentId: created.id }).where(eq(checkouts.id, id)).run();
  const made = recordPayment(confirmed.intent);
  if (!made.ok) throw new Error(`no order: ${made.detail}`);
  const order = db().select().from(orders).where(eq(orders.id, made.order.id)).get()!;
  const lines = db().select().from(orderLines).where(eq(orderLines.orderId, order.id)).all();
  return { order, lines, coupon, priced };
}
