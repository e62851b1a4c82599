import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import {
  contests,
  downloadPages,
  orderLines,
  orders,
  type OrderStatus,
  type PaymentStatus,
} from "~/server/db/schema";
import { orderStatusUrl } from "~/server/core/site-url.server";
import { orderStatusByToken } from "~/server/orders/customer/order-status.server";
import { orderConfirmationMail } from "~/server/mail/templates/order-confirmation.server";
import { purchaseHistory } from "~/server/orders/customer/purchase-history.server";
import { applySecurityHeaders } from "~/server/http/security-headers.server";
import { smtpServerForThisFile } from "../../../helpers/smtp-per-file";
import { callRoute } from "../../../helpers/route";
import { seedContest } from "../../../helpers/shop";
import { payVerifiedCheckout } from "../../../helpers/checkout-flow";

// recordPayment mails the confirmation at once.
smtpServerForThisFile();
let sequence = 0;

function insertOrder(values: {
  email?: string;
  status?: OrderStatus;
  paymentStatus?: PaymentStatus;
  paymentMethod?: "card" | "konbini";
  createdAt?: Date;
  paidAt?: Date | null;
  paymentDueAt?: Date | null;
  konbiniConfirmationNumber?: string | null;
  konbiniVoucherUrl?: string | null;
  bibNumberLabel?: string;
}) {
  const n = ++sequence;
  const orderNumber = String(20_000_000 + n);
  const createdAt = values.createdAt ?? new Date("2026-06-03T01:00:00Z");
  const order = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `status-checkout-${n}`,
      paymentIntentId: `pi_status_${n}`,
      contestName: "夏のダンス発表会",
      bibNumberLabel: values.bibNumberLabel ?? "",
      customerEmail: values.email ?? "status@example.jp",
      customerName: "状況 花子",
      totalAmount: 7500,
      lineCount: 2,
      status: values.status ?? "未対応",
      paymentMethod: values.paymentMethod ?? "card",
      paymentStatus: values.paymentStatus ?? "paid",
      paidAt: values.paidAt === undefined ? createdAt : values.paidAt,
      paymentDueAt: values.paymentDueAt ?? null,
      konbiniConfirmationNumber: values.konbiniConfirmationNumber ?? null,
      konbiniVoucherUrl: values.konbiniVoucherUrl ?? null,
      createdAt,
    })
    .returning()
    .get();
  db()
    .insert(orderLines)
    .values(
      [
        { style: "縦", orientation: "vertical" as const, price: 3000 },
        { style: "横", orientation: "horizontal" as const, price: 4500 },
      ].map((line, index) => ({
        orderId: order.id,
        lineNumber: `${orderNumber}-${index + 1}`,
        contestName: "夏のダンス発表会",
        category: "キッズ部門",
        athleteNumber: 7 + index,
        athleteName: "状況 一郎",
        style: line.style,
        orientation: line.orientation,
        price: line.price,
        status: values.status ?? "未対応",
        createdAt,
      })),
    )
    .run();
  return order;
}

/** An order made the shop's way (recordPayment) from a verified checkout of `contestId`. */
function paidOrder(shop: ReturnType<typeof seedContest>, contestId: number | null) {
  return payVerifiedCheckout(shop, {
    contestId,
    customerEmail: "label@example.jp",
    customerName: "番号 花子",
  }).order;
}

describe("order status", () => {
  it("answers null for a malformed or unknown token", () => {
    insertOrder({});
    for (const token of [
      "",
      "abc",
      "0".repeat(31),
      "G".repeat(32),
      "0123456789ABCDEF0123456789ABCDEF",
      "../x",
    ])
      expect(orderStatusByToken(token), token).toBeNull();
    expect(orderStatusByToken("f".repeat(32))).toBeNull();
  });

  it("制作中: the order's lines, total and label, and the promised day counted from the payment", () => {
    // Ordered (konbini) on Wednesday 2026-06-03, paid on Friday evening 2026-06-05 in Tokyo.
    const order = insertOrder({
      paymentMethod: "konbini",
      createdAt: new Date("2026-06-03T01:00:00Z"),
      paidAt: new Date("2026-06-05T10:30:00Z"),
      bibNumberLabel: "演技順",
    });
    const view = orderStatusByToken(order.statusToken);
    expect(view).toMatchObject({
      orderNumber: order.orderNumber,
      contestName: "夏のダンス発表会",
      numberLabel: "演技順",
      totalAmount: 7500,
      paymentMethod: "コンビニ払い",
      progress: "制作中",
      voucher: null,
      download: null,
      // Mon, Tue, Wed after the Friday payment (from the order's Wednesday it would be Monday).
      expectedDeliveryDay: "2026-06-10",
    });
    expect(view?.lines.map((l) => [l.athleteNumber, l.athleteName, l.category, l.style, l.price])).toEqual([
      [7, "状況 一郎", "キッズ部門", "縦", 3000],
      [8, "状況 一郎", "キッズ部門", "横", 4500],
    ]);
  });

  it("制作中 without a payment time falls back to the order's time", () => {
    const order = insertOrder({ createdAt: new Date("2026-06-03T01:00:00Z"), paidAt: null });
    expect(orderStatusByToken(order.statusToken)).toMatchObject({
      paymentMethod: "クレジットカード",
      expectedDeliveryDay: "2026-06-08",
    });
  });

  it("the number label is the contest's, copied when the order is made; ゼッケン番号 when there is no contest", () => {
    const shop = seedContest();
    db().update(contests).set({ bibNumberLabel: "演技順" }).where(eq(contests.id, shop.contestId)).run();
    const ofContest = paidOrder(shop, shop.contestId);
    const withoutContest = paidOrder(shop, null);
    // Renaming the label later leaves the order as it was made.
    db().update(contests).set({ bibNumberLabel: "出演番号" }).where(eq(contests.id, shop.contestId)).run();
    expect(orderStatusByToken(ofContest.statusToken)?.numberLabel).toBe("演技順");
    expect(orderStatusByToken(withoutContest.statusToken)?.numberLabel).toBe("ゼッケン番号");
  });

  it("入金待ち: the voucher's confirmation number, deadline and hosted page; no promised day", () => {
    const due = new Date("2026-06-06T14:59:00Z");
    const order = insertOrder({
      paymentMethod: "konbini",
      paymentStatus: "awaiting",
      paidAt: null,
      paymentDueAt: due,
      konbiniConfirmationNumber: "12345678901",
      konbiniVoucherUrl: "https://payments.example.jp/voucher/1",
    });
    expect(orderStatusByToken(order.statusToken)).toMatchObject({
      progress: "入金待ち",
      voucher: {
        confirmationNumber: "12345678901",
        dueAt: due,
        voucherUrl: "https://payments.example.jp/voucher/1",
      },
      expectedDeliveryDay: null,
      download: null,
    });
  });

  it("期限切れ: neither voucher nor promised day nor download", () => {
    const order = insertOrder({ paymentMethod: "konbini", paymentStatus: "expired", paidAt: null });
    expect(orderStatusByToken(order.statusToken)).toMatchObject({
      progress: "期限切れ",
      voucher: null,
      expectedDeliveryDay: null,
      download: null,
    });
  });

  it("納品済み: the order's download page and its expiry, expired once past it", () => {
    setClock(() => Date.parse("2026-06-10T00:00:00Z"));
    const order = insertOrder({ status: "納品済み" });
    const expiresAt = new Date("2026-07-10T00:00:00Z");
    db().insert(downloadPages).values({ id: "StatusPageAAAAAAAAAAAA", orderId: order.id, expiresAt }).run();
    expect(orderStatusByToken(order.statusToken)).toMatchObject({
      progress: "納品済み",
      expectedDeliveryDay: null,
      download: { url: "/download/StatusPageAAAAAAAAAAAA", expiresAt, expired: false },
    });
    setClock(() => Date.parse("2026-07-11T00:00:00Z"));
    expect(orderStatusByToken(order.statusToken)?.download?.expired).toBe(true);
    // Marked handled without a page (delivered by other means): no link to promise.
    const handled = insertOrder({ status: "対応済み" });
    expect(orderStatusByToken(handled.statusToken)).toMatchObject({ progress: "納品済み", download: null });
  });

  it("the page answers 404 for a bad token and never caches the order", async () => {
    const route = await import("~/routes/storefront/order-status");
    const order = insertOrder({});
    const shown = await callRoute(route.loader, new Request(`http://shop.test/orders/${order.statusToken}`), {
      token: order.statusToken,
    });
    expect(shown.status).toBe(200);
    expect(shown.headers.get("Cache-Control")).toBe("no-store");
    for (const token of ["nope", "0".repeat(32)]) {
      const missing = await callRoute(route.loader, new Request(`http://shop.test/orders/${token}`), {
        token,
      });
      expect(missing.status).toBe(404);
      expect(missing.data).toMatchObject({ order: null });
    }
  });

  it("keeps its token to this site and out of caches, as a mailed link's page", () => {
    const headers = new Headers();
    applySecurityHeaders(headers, { pathname: `/orders/${"a".repeat(32)}`, nonce: "abc" });
    // Not no-referrer: the page will post forms (konbini test actions, the receipt), and a
    // no-referrer page's posts carry Origin: null.
    expect(headers.get("Referrer-Policy")).toBe("same-origin");
    expect(headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("is linked from the confirmation mail and from purchase history", () => {
    const order = insertOrder({
      email: "history-status@example.jp",
      paymentStatus: "awaiting",
      paidAt: null,
    });
    const mail = orderConfirmationMail({
      customerName: "状況 花子",
      orderNumber: order.orderNumber,
      contestName: order.contestName,
      bibNumberLabel: "",
      lines: [],
      totalAmount: 7500,
      statusUrl: orderStatusUrl(order.statusToken),
      promisedDay: "2027-05-07",
    });
    expect(mail.text).toContain(`注文状況の確認: http://localhost:3000/orders/${order.statusToken}`);
    expect(mail.text).toContain("お届け予定日は2027年5月7日（金）です");
    expect(mail.html).toContain(`href="http://localhost:3000/orders/${order.statusToken}"`);
    const history = purchaseHistory("history-status@example.jp", 1);
    expect(history.orders[0]).toMatchObject({
      progress: "入金待ち",
      statusPath: `/orders/${order.statusToken}`,
    });
  });
});

describe("order rows", () => {
  it("each order gets its own 32-hex status token", () => {
    const a = insertOrder({});
    const b = insertOrder({});
    expect(a.statusToken).toMatch(/^[0-9a-f]{32}$/);
    expect(a.statusToken).not.toBe(b.statusToken);
    expect(db().select().from(orders).where(eq(orders.statusToken, a.statusToken)).get()?.id).toBe(a.id);
  });
});
