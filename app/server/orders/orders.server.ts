import { eq } from "drizzle-orm";
import { db } from "../db/client.server";
import { orders } from "../db/schema";
import type { ShopSession } from "../http/session.server";

/*
 * Orders and their numbers, found by number, id, status token or session. What makes an order (a payment
 * report becoming its order, once) is recordPayment's, in record-payment.server.ts.
 */

export type Order = typeof orders.$inferSelect;

/** The spec's order number: the last 8 digits of the millisecond clock. */
export function orderNumberFrom(ms: number): string {
  return String(ms % 100_000_000).padStart(8, "0");
}

/** An order line's number (`12345678-2`) without its line: the order's number. */
export function baseOrderNumber(lineNumber: string): string {
  return lineNumber.replace(/-\d+$/, "");
}

/** An order by its number, or by one of its lines' numbers (`12345678-2`), as the JSON calls name orders. */
export function orderByNumber(orderNumber: string): Order | null {
  return (
    db()
      .select()
      .from(orders)
      .where(eq(orders.orderNumber, baseOrderNumber(orderNumber)))
      .get() ?? null
  );
}

export function orderById(id: number): Order | null {
  return db().select().from(orders).where(eq(orders.id, id)).get() ?? null;
}

const STATUS_TOKEN = /^[0-9a-f]{32}$/;

/**
 * The order a status token opens (its status page, its receipt, the test store's till), or null.
 * A malformed token is not looked up: it answers as an unknown one.
 */
export function orderByStatusToken(token: string): Order | null {
  if (!STATUS_TOKEN.test(token)) return null;
  return db().select().from(orders).where(eq(orders.statusToken, token)).get() ?? null;
}

/** The outbox's key of an order's confirmation (or voucher) mail: one per order, ever. */
export function orderConfirmationKey(orderId: number): string {
  return `order-confirmation:${orderId}`;
}

/** The order this session has just made (what /payment-complete shows), or null. */
export function sessionOrder(session: ShopSession): Order | null {
  const orderId = session.get("lastOrderId");
  return orderId ? orderById(orderId) : null;
}
