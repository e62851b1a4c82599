import { eq } from "drizzle-orm";
import { numberLabelOf } from "~/lib/rules/number-label";
import { holdEarlierOrders } from "../accounts/earlier-orders.server";
import { now } from "../core/clock.server";
import type { Tx } from "../db/client.server";
import { checkouts, contests, orderLines, orders, users } from "../db/schema";
import { queueMail } from "../mail/outbox.server";
import { summedDiscounts } from "~/lib/rules/promotions";
import { recordCouponUse, releaseOtherHolds } from "../promotions/coupon-uses.server";
import { findCoupon } from "../promotions/coupons.server";
import { konbiniVoucherMail } from "../mail/templates/konbini-payment.server";
import { orderConfirmationMail } from "../mail/templates/order-confirmation.server";
import type { KonbiniVoucher, PaymentIntentState } from "../payments/types";
import { orderConfirmationKey, orderNumberFrom, type Order } from "./orders.server";
import { orderStatusUrl } from "../core/site-url.server";
import { promisedDeliveryDay } from "./business-days.server";

/*
 * A paid (or konbini-voucher) checkout becoming its order, inside recordPayment's transaction
 * (record-payment.server.ts), which has already checked that the payment pays for it.
 */

type Checkout = typeof checkouts.$inferSelect;
/** A checkout that got as far as paying: its lines priced, its customer known. */
export type PaidCheckout = Checkout & {
  pricedLines: NonNullable<Checkout["pricedLines"]>;
  customerEmail: string;
  customerName: string;
};

export type NewOrder = {
  intent: PaymentIntentState;
  checkout: PaidCheckout;
  total: number;
  voucher: KonbiniVoucher | null;
};

/** The order made, and the mails queued with it (tried once the transaction is committed). */
export type NewOrderMade = {
  order: Order;
  createdUserId: number | null;
  confirmationMailId: number | null;
  addressMailId: number | null;
};

/**
 * The checkout becomes its order: a free order number, the auto-login account if one was asked
 * for, the order and its lines from the priced snapshot, the confirmation (or the voucher) queued
 * with them, and the checkout marked paid.
 */
export function createOrder(tx: Tx, given: NewOrder): NewOrderMade {
  // A checkout priced before promotions existed has lines without their breakdown: no discount.
  const pricedLines = given.checkout.pricedLines.map((line) => ({
    ...line,
    listPrice: line.listPrice ?? line.price,
    discounts: line.discounts ?? [],
  }));
  const input = { ...given, checkout: { ...given.checkout, pricedLines } };
  const at = now();
  const orderNumber = freeOrderNumber(tx, at);
  const account = autoLoginAccount(tx, input.checkout);
  const order = insertOrder(tx, input, orderNumber, at);
  const lines = insertOrderLines(tx, order, input.checkout.pricedLines, at);
  if (order.couponId !== null) {
    const amount = order.discounts.find((d) => d.kind === "coupon")?.amount ?? 0;
    const use = { couponId: order.couponId, checkoutId: input.checkout.id, orderId: order.id, amount, at };
    recordCouponUse(tx, { ...use, email: order.customerEmail });
  }
  // Holds of coupons this payment was not made with are given back.
  releaseOtherHolds(input.checkout.id, order.couponId, tx);
  const confirmationMailId = queueConfirmation(tx, order, lines, input.voucher, at);
  tx.update(checkouts)
    .set({ status: "paid", createdUserId: account.createdUserId, pendingPasswordHash: null, updatedAt: at })
    .where(eq(checkouts.id, input.checkout.id))
    .run();
  return { order, confirmationMailId, ...account };
}

/** The clock's order number, or the next one free when another order took it this millisecond. */
function freeOrderNumber(tx: Tx, at: Date): string {
  let orderNumber = orderNumberFrom(at.getTime());
  while (tx.select({ id: orders.id }).from(orders).where(eq(orders.orderNumber, orderNumber)).get()) {
    orderNumber = orderNumberFrom(Number(orderNumber) + 1);
  }
  return orderNumber;
}

/**
 * The auto-login account, made with the password hash taken at confirmation. Its address
 * was shown only by a six-digit code: earlier orders with it wait for a mailed link.
 */
function autoLoginAccount(
  tx: Tx,
  checkout: PaidCheckout,
): { createdUserId: number | null; addressMailId: number | null } {
  if (!checkout.autoLogin || !checkout.pendingPasswordHash)
    return { createdUserId: null, addressMailId: null };
  const taken = tx.select({ id: users.id }).from(users).where(eq(users.email, checkout.customerEmail)).get();
  if (taken) return { createdUserId: null, addressMailId: null };
  const createdUserId = tx
    .insert(users)
    .values({
      email: checkout.customerEmail,
      name: checkout.customerName,
      passwordHash: checkout.pendingPasswordHash,
    })
    .returning({ id: users.id })
    .get().id;
  const addressMailId = holdEarlierOrders(tx, {
    id: createdUserId,
    email: checkout.customerEmail,
    name: checkout.customerName,
  });
  return { createdUserId, addressMailId };
}

/**
 * The order row: the contest's name and number label copied (the order keeps them when the
 * contest changes), the account with the address as its owner, and how it is paid: a card
 * is paid now, a konbini voucher waits 入金待ち until its deadline.
 */
function insertOrder(tx: Tx, { intent, checkout, total, voucher }: NewOrder, orderNumber: string, at: Date) {
  const contest = checkout.contestId
    ? tx.select().from(contests).where(eq(contests.id, checkout.contestId)).get()
    : undefined;
  const owner = tx.select({ id: users.id }).from(users).where(eq(users.email, checkout.customerEmail)).get();
  const discounts = summedDiscounts(checkout.pricedLines);
  // The coupon the payment was made for, as it carries it: the checkout's code may have been taken
  // off or changed since (another tab). A payment from before coupons carries none: the checkout's.
  const code = intent.carriedOrder.order ? intent.carriedOrder.order.couponCode : checkout.couponCode;
  const coupon = code && discounts.some((d) => d.kind === "coupon") ? (findCoupon(code, tx) ?? null) : null;
  return tx
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: checkout.id,
      paymentIntentId: intent.id,
      contestId: checkout.contestId,
      contestName: contest?.name ?? "",
      bibNumberLabel: numberLabelOf(contest),
      customerEmail: checkout.customerEmail,
      customerName: checkout.customerName,
      userId: owner?.id ?? null,
      totalAmount: total,
      listTotal: checkout.pricedLines.reduce((sum, line) => sum + line.listPrice, 0),
      discounts,
      couponId: coupon?.id ?? null,
      couponCode: coupon ? coupon.code : null,
      lineCount: checkout.pricedLines.length,
      paymentMethod: voucher ? "konbini" : "card",
      paymentStatus: voucher ? "awaiting" : "paid",
      paidAt: voucher ? null : at,
      paymentDueAt: voucher?.expiresAt ?? null,
      konbiniConfirmationNumber: voucher?.confirmationNumber ?? null,
      konbiniVoucherUrl: voucher?.hostedVoucherUrl ?? null,
      createdAt: at,
    })
    .returning()
    .get();
}

/** The order's lines, numbered `{orderNumber}-1`, `-2`… in the checkout's order. */
function insertOrderLines(tx: Tx, order: Order, pricedLines: PaidCheckout["pricedLines"], at: Date) {
  return tx
    .insert(orderLines)
    .values(
      pricedLines.map((line, index) => ({
        orderId: order.id,
        lineNumber: `${order.orderNumber}-${index + 1}`,
        contestName: order.contestName,
        category: line.category,
        athleteId: line.athleteId,
        athleteNumber: line.athleteNumber,
        athleteName: line.athleteName,
        style: line.style,
        orientation: line.orientation,
        price: line.price,
        listPrice: line.listPrice,
        discounts: line.discounts,
        createdAt: at,
      })),
    )
    .returning()
    .all();
}

/**
 * Queued with the order, so an order never exists without its confirmation on the way
 * (for a konbini order, the voucher: what to pay, where and by when).
 */
function queueConfirmation(
  tx: Tx,
  order: Order,
  lines: (typeof orderLines.$inferSelect)[],
  voucher: KonbiniVoucher | null,
  at: Date,
): number | null {
  const confirmation = {
    customerName: order.customerName,
    orderNumber: order.orderNumber,
    contestName: order.contestName,
    bibNumberLabel: order.bibNumberLabel,
    lines,
    totalAmount: order.totalAmount,
    statusUrl: orderStatusUrl(order.statusToken),
  };
  return queueMail(
    {
      to: order.customerEmail,
      dedupeKey: orderConfirmationKey(order.id),
      mail: voucher
        ? konbiniVoucherMail({
            ...confirmation,
            confirmationNumber: voucher.confirmationNumber,
            dueAt: voucher.expiresAt,
            voucherUrl: voucher.hostedVoucherUrl,
          })
        : orderConfirmationMail({ ...confirmation, promisedDay: promisedDeliveryDay(at) }),
    },
    tx,
  );
}
