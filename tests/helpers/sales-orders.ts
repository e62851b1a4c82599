import { db } from "~/server/db/client.server";
import { orderLines, orders } from "~/server/db/schema";

let counter = 0;

/** A paid order of a contest made at `createdAt` (an ISO instant), one line per price: what the sales report reads. */
export function salesOrder(contestName: string, createdAt: string, prices: number[]) {
  const n = ++counter;
  const unique = `${process.pid}-${n}-${Math.random().toString(36).slice(2, 8)}`;
  const orderNumber = String(10_000_000 + n);
  const order = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `sales-${unique}`,
      paymentIntentId: `pi_sales_${unique}`,
      contestName,
      customerEmail: `sales${n}@example.jp`,
      customerName: "売上 太郎",
      totalAmount: prices.reduce((a, b) => a + b, 0),
      lineCount: prices.length,
      createdAt: new Date(createdAt),
    })
    .returning()
    .get();
  const lines = db()
    .insert(orderLines)
    .values(
      prices.map((price, i) => ({
        orderId: order.id,
        lineNumber: `${orderNumber}-${i + 1}`,
        contestName,
        category: "部門",
        athleteNumber: i + 1,
        athleteName: "選手",
        style: "縦",
        orientation: "vertical" as const,
        price,
      })),
    )
    .returning()
    .all();
  return { order, lines };
}
