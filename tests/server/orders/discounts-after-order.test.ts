import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { includedTax } from "~/lib/rules/receipt";
import { db } from "~/server/db/client.server";
import { couponUses, mailOutbox } from "~/server/db/schema";
import { konbiniVoucherMail } from "~/server/mail/templates/konbini-payment.server";
import { orderConfirmationMail } from "~/server/mail/templates/order-confirmation.server";
import { orderConfirmationKey } from "~/server/orders/orders.server";
import { receiptPdf } from "~/server/receipts/receipt-pdf.server";
import { issueReceipt, receiptByToken } from "~/server/receipts/receipts.server";
import { loader as statusLoader } from "~/routes/storefront/order-status";
import { callRoute } from "../../helpers/route";
import { DISCOUNTED, discountedOrder } from "../../helpers/discounted-orders";
import { seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

// The seller is registered for the invoice system: receipts are 適格簡易請求書.
process.env.SELLER_INVOICE_NUMBER = "T1234567890123";
// recordPayment mails the confirmation at once.
smtpServerForThisFile();

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}

const mailLine = { category: "A部門", athleteNumber: 1, athleteName: "選手1", style: "縦" };

describe("an order with discounts, after the order", () => {
  it("stores its breakdown and the coupon's use, as priced", async () => {
    const { order, lines, coupon } = await discountedOrder(seedContest());
    expect(order.totalAmount).toBe(DISCOUNTED.total);
    expect(order.listTotal).toBe(DISCOUNTED.listTotal);
    expect(order.couponCode).toBe(coupon!.code);
    expect(lines.map((line) => line.price)).toEqual(DISCOUNTED.linePrices);
    expect(lines.map((line) => line.listPrice)).toEqual(DISCOUNTED.listPrices);
    const use = db().select().from(couponUses).where(eq(couponUses.orderId, order.id)).get();
    expect(use?.amount).toBe(DISCOUNTED.discounts.coupon);
  });

  it("the confirmation mail gives each line's regular and paid price, the list subtotal, each discount and the total", async () => {
    const { order, coupon } = await discountedOrder(seedContest());
    const mail = db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, orderConfirmationKey(order.id)))
      .get()!;
    expect(mail.text).toContain("価格: 3,000円 → 1,980円（早割・セット割・クーポン（");
    expect(mail.text).toContain("価格: 4,500円 → 3,780円（セット割・クーポン（");
    const summary = mail.text.slice(mail.text.indexOf("小計（通常価格）"));
    expect(summary).toMatch(
      new RegExp(
        `^小計（通常価格）: 7,500円（税込）\\n早割: −500円\\nセット割: −600円\\nクーポン（${coupon!.code}）: −640円\\n合計金額: 5,760円（税込）`,
      ),
    );
    expect(mail.html).toContain("−640円");
  });

  it("an order without a discount reads exactly as before (no regular price, no subtotal)", () => {
    const input = {
      customerName: "山田 花子",
      orderNumber: "12345678",
      contestName: "春の発表会",
      bibNumberLabel: "ゼッケン番号",
      totalAmount: 3000,
      statusUrl: "http://localhost/orders/x",
      promisedDay: "2027-05-07",
    };
    const old = orderConfirmationMail({ ...input, lines: [{ ...mailLine, price: 3000 }] });
    const stored = orderConfirmationMail({
      ...input,
      lines: [{ ...mailLine, price: 3000, listPrice: null, discounts: [] }],
    });
    const undiscounted = orderConfirmationMail({
      ...input,
      lines: [{ ...mailLine, price: 3000, listPrice: 3000, discounts: [] }],
    });
    expect(stored).toEqual(old);
    expect(undiscounted).toEqual(old);
    expect(old.text).toContain("価格: 3,000円（税込）\n\n合計金額: 3,000円（税込）");
    expect(old.text).not.toContain("小計");
  });

  it("a confirmation whose discounts stop at the smallest payable amount says why, under the total", () => {
    const mail = orderConfirmationMail({
      customerName: "山田 花子",
      orderNumber: "12345678",
      contestName: "春の発表会",
      bibNumberLabel: "ゼッケン番号",
      totalAmount: 50,
      statusUrl: "http://localhost/orders/x",
      promisedDay: "2027-05-07",
      lines: [
        {
          ...mailLine,
          price: 50,
          listPrice: 3000,
          discounts: [{ kind: "coupon", name: "クーポン（FREE）", amount: 2950 }],
        },
      ],
    });
    expect(mail.text).toContain(
      "クーポン（FREE）: −2,950円\n合計金額: 50円（税込）\n\nお支払いは最低50円からのため、割引は2,950円までとなります。",
    );
    expect(mail.html).toContain("<p>お支払いは最低50円からのため、割引は2,950円までとなります。</p>");
  });

  it("the konbini voucher mail lists the lines with their discounts and the amount to pay", () => {
    const voucher = {
      customerName: "山田 花子",
      orderNumber: "12345678",
      contestName: "春の発表会",
      bibNumberLabel: "ゼッケン番号",
      statusUrl: "http://localhost/orders/x",
      confirmationNumber: "1234567890",
      dueAt: new Date("2027-05-07T14:59:00Z"),
      voucherUrl: null,
    };
    const discounted = konbiniVoucherMail({
      ...voucher,
      totalAmount: 2500,
      lines: [
        {
          ...mailLine,
          price: 2500,
          listPrice: 3000,
          discounts: [{ kind: "early_bird", name: "早割", amount: 500 }],
        },
      ],
    });
    expect(discounted.text).toContain(
      "（縦）3,000円 → 2,500円（早割）\n小計（通常価格）: 3,000円（税込）\n早割: −500円\nお支払い金額: 2,500円（税込）",
    );
    const plain = konbiniVoucherMail({
      ...voucher,
      totalAmount: 3000,
      lines: [{ ...mailLine, price: 3000 }],
    });
    expect(plain.text).toContain("（縦）3,000円（税込）\nお支払い金額: 3,000円（税込）");
  });

  it("the status page's loader gives each line's list and paid price and the order's discounts", async () => {
    const { order, coupon } = await discountedOrder(seedContest());
    const page = await callRoute(statusLoader, new Request(`http://localhost/orders/${order.statusToken}`), {
      token: order.statusToken,
    });
    const view = (page.data as { order: Record<string, unknown> }).order as {
      lines: { price: number; listPrice: number | null; discounts: { name: string }[] }[];
      totalAmount: number;
      breakdown: { listTotal: number; total: number; discounts: { name: string; amount: number }[] } | null;
    };
    expect(view.lines.map((line) => [line.listPrice, line.price])).toEqual([
      [3000, 1980],
      [4500, 3780],
    ]);
    expect(view.lines[0]!.discounts.map((d) => d.name)).toEqual([
      "早割",
      "セット割",
      `クーポン（${coupon!.code}）`,
    ]);
    expect(view.breakdown).toEqual({
      listTotal: 7500,
      total: 5760,
      discounts: [
        { kind: "early_bird", name: "早割", amount: 500 },
        { kind: "set", name: "セット割", amount: 600 },
        { kind: "coupon", name: `クーポン（${coupon!.code}）`, amount: 640 },
      ],
    });
    const plain = await discountedOrder(seedContest(), { coupon: false });
    const plainPage = await callRoute(
      statusLoader,
      new Request(`http://localhost/orders/${plain.order.statusToken}`),
      { token: plain.order.statusToken },
    );
    expect(
      (plainPage.data as { order: { breakdown: { discounts: unknown[] } } }).order.breakdown.discounts,
    ).toHaveLength(2);
  });

  it("the receipt lists the lines at list price, each 割引 as a negative amount, and the tax on what was paid", async () => {
    const { order, coupon } = await discountedOrder(seedContest());
    expect(issueReceipt(order.statusToken, "山田 花子")).toEqual({ ok: true, reissue: false });
    const state = receiptByToken(order.statusToken);
    if (state.kind !== "issued") throw new Error(state.kind);
    const { receipt } = state;
    expect(receipt.lines.map((line) => [line.listPrice, line.price])).toEqual([
      [3000, 1980],
      [4500, 3780],
    ]);
    expect(receipt.listTotal).toBe(7500);
    expect(receipt.discounts.map((d) => [d.name, d.amount])).toEqual([
      ["早割", 500],
      ["セット割", 600],
      [`クーポン（${coupon!.code}）`, 640],
    ]);
    expect(receipt.total).toBe(5760);
    // 5,760 × 10 / 110 = 523.6…: the tax is on what was paid, not on the list total (681).
    expect(receipt.tax).toBe(523);
    expect(receipt.tax).not.toBe(includedTax(7500));

    const text = await pdfText(await receiptPdf(receipt));
    expect(text).toContain("¥3,000");
    expect(text).toContain("小計（通常価格）");
    expect(text).toContain("割引 早割");
    expect(text).toContain("−¥500");
    expect(text).toContain("−¥640");
    expect(text).toContain("10%対象 ¥5,760（うち消費税 ¥523）");
  });
});
