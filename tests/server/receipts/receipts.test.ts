import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { env } from "~/server/core/env.server";
import { db } from "~/server/db/client.server";
import { orderLines, orders } from "~/server/db/schema";
import { receiptPdf } from "~/server/receipts/receipt-pdf.server";
import {
  issueReceipt,
  RECEIPT_MESSAGES,
  receiptByToken,
  reissueReceipt,
  type Receipt,
} from "~/server/receipts/receipts.server";
import { loader as pdfLoader } from "~/routes/storefront/receipt-pdf";
import { action as pageAction, loader as pageLoader } from "~/routes/storefront/receipt";
import { formRequest } from "../../helpers/shop";
import { callRoute } from "../../helpers/route";

// The seller is registered for the invoice system: receipts are 適格簡易請求書 (read when env() first runs).
process.env.SELLER_INVOICE_NUMBER = "T1234567890123";

let sequence = 0;

/** An order of three 1,000 yen lines (per-line roundings would give 270 yen of tax; the total's is 272). */
function insertOrder(
  payment: { paymentStatus?: "paid" | "awaiting" | "expired"; paidAt?: Date | null } = {},
) {
  const n = ++sequence;
  const orderNumber = String(20_000_000 + n);
  const order = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `receipt-checkout-${n}`,
      paymentIntentId: `pi_receipt_${n}`,
      contestName: "春の発表会",
      bibNumberLabel: "演奏順",
      customerEmail: "parent@example.jp",
      customerName: "山田 花子",
      totalAmount: 3_000,
      lineCount: 3,
      paymentMethod: payment.paymentStatus && payment.paymentStatus !== "paid" ? "konbini" : "card",
      paymentStatus: payment.paymentStatus ?? "paid",
      paidAt: payment.paidAt === undefined ? new Date(Date.UTC(2025, 5, 30, 16, 0)) : payment.paidAt,
      createdAt: new Date(Date.UTC(2025, 5, 30, 15, 0)),
    })
    .returning()
    .get();
  db()
    .insert(orderLines)
    .values(
      [1, 2, 3].map((index) => ({
        orderId: order.id,
        lineNumber: `${orderNumber}-${index}`,
        contestName: "春の発表会",
        category: "小学生の部",
        athleteNumber: 10 + index,
        athleteName: `山田 一郎${index}`,
        style: "縦",
        orientation: "vertical" as const,
        price: 1_000,
      })),
    )
    .run();
  return order;
}

function issued(token: string): Receipt {
  const state = receiptByToken(token);
  if (state.kind !== "issued") throw new Error(`not issued: ${state.kind}`);
  return state.receipt;
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}

describe("receipts", () => {
  it("are refused for an order not paid (konbini awaiting or expired), and unknown tokens find nothing", () => {
    const awaiting = insertOrder({ paymentStatus: "awaiting", paidAt: null });
    const expired = insertOrder({ paymentStatus: "expired", paidAt: null });
    expect(receiptByToken(awaiting.statusToken)).toMatchObject({
      kind: "unpaid",
      message: RECEIPT_MESSAGES.awaitingPayment,
    });
    expect(issueReceipt(awaiting.statusToken, "山田 花子")).toEqual({
      ok: false,
      status: 409,
      message: RECEIPT_MESSAGES.awaitingPayment,
    });
    expect(issueReceipt(expired.statusToken, "")).toMatchObject({ ok: false, status: 409 });
    expect(reissueReceipt(expired.statusToken)).toMatchObject({ ok: false, status: 409 });
    const stored = db().select().from(orders).where(eq(orders.id, awaiting.id)).get();
    expect(stored).toMatchObject({ receiptIssueCount: 0, receiptAddressee: null, receiptIssuedAt: null });

    expect(receiptByToken("0".repeat(32))).toEqual({ kind: "not-found" });
    expect(receiptByToken("not-a-token")).toEqual({ kind: "not-found" });
    expect(receiptByToken(awaiting.statusToken.toUpperCase())).toEqual({ kind: "not-found" });
    expect(issueReceipt("0".repeat(32), "x")).toMatchObject({ ok: false, status: 404 });
  });

  it("fix the addressee at the first issue; the same addressee again changes nothing, another is refused", () => {
    const order = insertOrder();
    expect(receiptByToken(order.statusToken)).toMatchObject({ kind: "not-issued", total: 3_000 });
    expect(reissueReceipt(order.statusToken)).toEqual({
      ok: false,
      status: 409,
      message: RECEIPT_MESSAGES.notIssued,
    });

    setClock(() => Date.UTC(2025, 6, 1, 3, 0)); // 2025-07-01 12:00 in Tokyo
    expect(issueReceipt(order.statusToken, "  株式会社サンプル  ")).toEqual({ ok: true, reissue: false });
    expect(issueReceipt(order.statusToken, "株式会社サンプル")).toEqual({ ok: true, reissue: false });
    expect(issueReceipt(order.statusToken, "別の名前")).toEqual({
      ok: false,
      status: 409,
      message: RECEIPT_MESSAGES.addresseeFixed("株式会社サンプル"),
    });
    const stored = db().select().from(orders).where(eq(orders.id, order.id)).get();
    expect(stored).toMatchObject({
      receiptAddressee: "株式会社サンプル",
      receiptIssueCount: 1,
      receiptIssuedAt: new Date(Date.UTC(2025, 6, 1, 3, 0)),
    });
  });

  it("say what a Japanese 領収書 says: the tax once per receipt, the seller and its registration number", () => {
    const order = insertOrder();
    setClock(() => Date.UTC(2025, 6, 1, 15, 30)); // 2025-07-02 00:30 in Tokyo
    issueReceipt(order.statusToken, "山田 花子");
    const receipt = issued(order.statusToken);
    expect(receipt).toMatchObject({
      title: "領収書",
      qualifiedInvoice: true,
      reissue: false,
      issueCount: 1,
      issuedOn: "2025年7月2日",
      paidOn: "2025年7月1日",
      orderNumber: order.orderNumber,
      addressee: "山田 花子",
      purpose: "動画制作代として",
      total: 3_000,
      taxRatePercent: 10,
      tax: 272,
      seller: { name: env().SELLER_NAME, address: env().SELLER_ADDRESS, invoiceNumber: "T1234567890123" },
    });
    expect(receipt.lines).toHaveLength(3);
    expect(receipt.lines[0]).toMatchObject({
      numberLabel: "演奏順",
      athleteNumber: 11,
      style: "縦",
      price: 1_000,
    });
  });

  it("are not 適格簡易請求書 without a registration number", () => {
    const order = insertOrder();
    issueReceipt(order.statusToken, "");
    const configured = env().SELLER_INVOICE_NUMBER;
    env().SELLER_INVOICE_NUMBER = undefined;
    try {
      expect(issued(order.statusToken)).toMatchObject({
        qualifiedInvoice: false,
        addressee: "",
        seller: { invoiceNumber: null },
        tax: 272,
      });
    } finally {
      env().SELLER_INVOICE_NUMBER = configured;
    }
  });

  it("are marked 再発行 from the second issue on, dated the day printed, viewing counts as no issue", () => {
    const order = insertOrder();
    setClock(() => Date.UTC(2025, 6, 1, 3, 0));
    issueReceipt(order.statusToken, "山田 花子");
    // Looking at it, later, again and again: still the original, with its own date.
    setClock(() => Date.UTC(2025, 6, 10, 3, 0));
    receiptByToken(order.statusToken);
    expect(issued(order.statusToken)).toMatchObject({
      reissue: false,
      issueCount: 1,
      issuedOn: "2025年7月1日",
    });

    expect(reissueReceipt(order.statusToken)).toEqual({ ok: true, reissue: true });
    expect(issued(order.statusToken)).toMatchObject({
      reissue: true,
      issueCount: 2,
      issuedOn: "2025年7月10日",
      firstIssuedOn: "2025年7月1日",
      addressee: "山田 花子",
    });
    reissueReceipt(order.statusToken);
    expect(issued(order.statusToken).issueCount).toBe(3);
  });

  it("older paid orders without a payment time count as paid when made", () => {
    const order = insertOrder({ paidAt: null });
    issueReceipt(order.statusToken, "");
    expect(issued(order.statusToken).paidOn).toBe("2025年7月1日");
  });
});

describe("the receipt PDF", () => {
  it("embeds a Japanese font and says the seller, the registration number, the total and the tax", async () => {
    const order = insertOrder();
    issueReceipt(order.statusToken, "株式会社サンプル");
    const original = await pdfText(await receiptPdf(issued(order.statusToken)));
    // The addressee, and the seller across from it.
    expect(original).toMatch(
      new RegExp(
        `^No\\. \\d{8}\\n発行日 .+\\n領収書\\n（適格簡易請求書）\\n株式会社サンプル 様 ${env().SELLER_NAME}\\n`,
      ),
    );
    expect(original).not.toContain("再発行");
    reissueReceipt(order.statusToken);
    const bytes = await receiptPdf(issued(order.statusToken));
    expect(new TextDecoder("latin1").decode(bytes.subarray(0, 5))).toBe("%PDF-");
    // Kept for a look: .tmp/receipt-test.pdf.
    fs.mkdirSync(path.resolve(".tmp"), { recursive: true });
    fs.writeFileSync(path.resolve(".tmp", "receipt-test.pdf"), bytes);
    const text = await pdfText(bytes);
    for (const expected of [
      "領収書",
      "適格簡易請求書",
      "再発行",
      "株式会社サンプル",
      env().SELLER_NAME,
      "登録番号 T1234567890123",
      "¥3,000",
      "10%対象",
      "うち消費税 ¥272",
      "動画制作代として",
      order.orderNumber,
    ])
      expect(text).toContain(expected);
  });

  it("is served as an attachment with a Japanese file name, never cached; before the first issue it leads to the page", async () => {
    const order = insertOrder();
    const request = new Request(`http://shop.test/orders/${order.statusToken}/receipt.pdf`);
    const before = await callRoute(pdfLoader, request, { token: order.statusToken });
    expect(before).toMatchObject({ status: 302, location: `/orders/${order.statusToken}/receipt` });

    issueReceipt(order.statusToken, "山田 花子");
    const response = (await pdfLoader({
      request,
      params: { token: order.statusToken },
      context: {},
    })) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="receipt-${order.orderNumber}.pdf"; filename*=UTF-8''${encodeURIComponent(`領収書_${order.orderNumber}.pdf`)}`,
    );
    expect(await pdfText(new Uint8Array(await response.arrayBuffer()))).toContain("山田 花子");

    const unknown = await callRoute(pdfLoader, request, { token: "f".repeat(32) });
    expect(unknown.status).toBe(404);
    const unpaid = insertOrder({ paymentStatus: "awaiting", paidAt: null });
    const refused = await callRoute(pdfLoader, request, { token: unpaid.statusToken });
    expect(refused).toMatchObject({ status: 409, data: RECEIPT_MESSAGES.awaitingPayment });
  });
});

describe("the receipt page", () => {
  it("issues with the posted addressee, keeps a refused one, re-issues, and answers unknown and unpaid orders with 404 and 409", async () => {
    const order = insertOrder();
    const url = `/orders/${order.statusToken}/receipt`;
    const params = { token: order.statusToken };
    const tooLong = await callRoute(pageAction, formRequest(url, [["addressee", "あ".repeat(61)]]), params);
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.data)).toContain("宛名は60文字以内で入力してください");
    expect(receiptByToken(order.statusToken).kind).toBe("not-issued");

    const first = await callRoute(
      pageAction,
      formRequest(url, [
        ["intent", "issue"],
        ["addressee", "山田 花子"],
      ]),
      params,
    );
    expect(first).toMatchObject({ status: 303, location: url });
    const other = await callRoute(pageAction, formRequest(url, [["addressee", "別人"]]), params);
    expect(other.status).toBe(409);
    expect(JSON.stringify(other.data)).toContain("宛名は発行後に変更できません");
    const again = await callRoute(pageAction, formRequest(url, [["intent", "reissue"]]), params);
    expect(again).toMatchObject({ status: 303, location: url });
    expect(issued(order.statusToken)).toMatchObject({ reissue: true, addressee: "山田 花子" });

    const page = await callRoute(pageLoader, new Request(`http://shop.test${url}`), params);
    expect(page.status).toBe(200);
    const unknown = await callRoute(pageLoader, new Request("http://shop.test/"), { token: "nope" });
    expect(unknown.status).toBe(404);
    const unpaid = insertOrder({ paymentStatus: "awaiting", paidAt: null });
    const refused = await callRoute(pageLoader, new Request("http://shop.test/"), {
      token: unpaid.statusToken,
    });
    expect(refused.status).toBe(409);
    const posted = await callRoute(pageAction, formRequest(url, [["addressee", "x"]]), {
      token: unpaid.statusToken,
    });
    expect(posted.status).toBe(409);
  });
});
