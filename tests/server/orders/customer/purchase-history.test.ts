import { describe, expect, it } from "vitest";
import { db } from "~/server/db/client.server";
import { eq } from "drizzle-orm";
import { downloadPages, orderLines, orders } from "~/server/db/schema";
import { purchaseHistory } from "~/server/orders/customer/purchase-history.server";

let sequence = 0;

function insertOrder(
  email: string,
  at: number,
  lines: { style: string; price: number; url?: string | null }[],
) {
  const n = ++sequence;
  const orderNumber = String(10_000_000 + n);
  const order = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `checkout-${n}`,
      paymentIntentId: `pi_${n}`,
      contestName: "春の発表会",
      bibNumberLabel: "演奏順",
      customerEmail: email,
      customerName: "山田 花子",
      totalAmount: lines.reduce((sum, line) => sum + line.price, 0),
      createdAt: new Date(at),
    })
    .returning()
    .get();
  db()
    .insert(orderLines)
    .values(
      lines.map((line, index) => ({
        orderId: order.id,
        lineNumber: `${orderNumber}-${index + 1}`,
        contestName: "春の発表会",
        category: "小学生の部",
        athleteNumber: 10 + index,
        athleteName: "山田 一郎",
        style: line.style,
        orientation: "vertical" as const,
        price: line.price,
        videoDownloadUrl: line.url ?? null,
        createdAt: new Date(at),
      })),
    )
    .run();
  return orderNumber;
}

describe("purchase history", () => {
  it("shows only the account's orders, newest first, grouped with their lines, ten a page", () => {
    const t0 = Date.UTC(2025, 0, 1);
    const numbers = Array.from({ length: 12 }, (_, i) =>
      insertOrder("mine@example.jp", t0 + i * 60_000, [{ style: "縦", price: 3000 }]),
    );
    insertOrder("someone-else@example.jp", t0 + 99 * 60_000, [{ style: "横", price: 5000 }]);
    const withLines = insertOrder("mine@example.jp", t0 + 100 * 60_000, [
      { style: "縦", price: 3000, url: "https://videos.example.jp/a.mp4" },
      { style: "横", price: 5000 },
    ]);

    const withLinesId =
      db().select({ id: orders.id }).from(orders).where(eq(orders.orderNumber, withLines)).get()?.id ?? 0;
    db()
      .insert(downloadPages)
      .values({
        id: "AAAAAAAAAAAAAAAAAAAAAA",
        orderId: withLinesId,
        expiresAt: new Date(t0 + 30 * 86_400_000),
      })
      .run();

    const first = purchaseHistory("Mine@Example.jp", 1);
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: 13 });
    expect(first.orders.map((o) => o.orderNumber)).toEqual([withLines, ...numbers.slice(3).reverse()]);
    expect(first.orders[0]).toMatchObject({ numberLabel: "演奏順", totalAmount: 8000 });
    expect(first.orders[0]?.lines.map((l) => [l.style, l.price, l.downloadUrl])).toEqual([
      // Delivered lines link to the download page, never straight to the file (one download each, before expiry).
      ["縦", 3000, "/download/AAAAAAAAAAAAAAAAAAAAAA"],
      ["横", 5000, null],
    ]);

    const second = purchaseHistory("mine@example.jp", 2);
    expect(second.orders.map((o) => o.orderNumber)).toEqual([numbers[2], numbers[1], numbers[0]]);
    // A page past the end shows the last one; nonsense shows the first.
    expect(purchaseHistory("mine@example.jp", 99).page).toBe(2);
    expect(purchaseHistory("mine@example.jp", -3).page).toBe(1);
    expect(purchaseHistory("mine@example.jp", Number.NaN).page).toBe(1);

    // A paid order links its 領収書 (under its status page token); one awaiting a konbini payment does not.
    const paidToken = db()
      .select({ token: orders.statusToken })
      .from(orders)
      .where(eq(orders.orderNumber, withLines))
      .get()?.token;
    expect(first.orders[0]?.receiptUrl).toBe(`/orders/${paidToken}/receipt`);
    db()
      .update(orders)
      .set({ paymentStatus: "awaiting", paidAt: null })
      .where(eq(orders.orderNumber, withLines))
      .run();
    expect(purchaseHistory("mine@example.jp", 1).orders[0]?.receiptUrl).toBeNull();

    expect(purchaseHistory("someone-else@example.jp", 1).orders).toHaveLength(1);
    expect(purchaseHistory("nobody@example.jp", 1)).toMatchObject({
      orders: [],
      page: 1,
      pageCount: 1,
      total: 0,
    });
  });
});
