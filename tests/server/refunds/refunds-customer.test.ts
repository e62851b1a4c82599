import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import * as ordersRoute from "~/routes/api/account/orders";
import * as adminListRoute from "~/routes/api/orders/list";
import { loader as statusLoader } from "~/routes/storefront/order-status";
import { loader as receiptLoader } from "~/routes/storefront/receipt";
import { loader as pdfLoader } from "~/routes/storefront/receipt-pdf";
import { purchaseHistory } from "~/server/orders/customer/purchase-history.server";
import { db } from "~/server/db/client.server";
import { orderLines } from "~/server/db/schema";
import { REFUND_ARRIVAL } from "~/server/mail/templates/refund.server";
import { orderStatusByToken } from "~/server/orders/customer/order-status.server";
import { receiptPdf } from "~/server/receipts/receipt-pdf.server";
import { RECEIPT_REFUND_MESSAGES } from "~/server/receipts/receipt-refunds.server";
import {
  issueReceipt,
  receiptByToken,
  reissueReceipt,
  type Receipt,
} from "~/server/receipts/receipts.server";
import { completeTestKonbiniRefund } from "~/server/payments/test-refunds.server";
import { refundOrder } from "~/server/refunds/order-refunds.server";
import { recordProviderRefund } from "~/server/refunds/provider-refunds.server";
import * as loginRoute from "~/routes/api/account/login";
import { formatDateLong } from "~/lib/rules/format";
import { createUser } from "../../helpers/accounts";
import { adminWithToken, apiCall } from "../../helpers/api";
import { paidTestOrder, refundAdmin } from "../../helpers/refund-orders";
import { callRoute, sessionOf } from "../../helpers/route";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

// The seller is registered for the invoice system: receipts are 適格簡易請求書 (read when env() first runs).
process.env.SELLER_INVOICE_NUMBER = "T1234567890123";

// refundOrder mails the 返金のお知らせ.
smtpServerForThisFile();

let key = 0;

/** A real refund through the test provider, as the back-office makes it. */
async function refund(orderId: number, what: { lineIds?: number[]; amount?: number }) {
  const result = await refundOrder({
    orderId,
    lineIds: what.lineIds ?? [],
    amount: what.amount ?? null,
    reason: "撮影できなかったため",
    requestKey: `customer-refund-${process.pid}-${++key}-${Math.random()}`,
    adminUserId: refundAdmin().id,
  });
  if (!result.ok) throw new Error(result.message);
  return result.refund;
}

/** The case: an 8,000円 order whose 5,000円 line is refused, then refunded by card. */
async function refusedAndRefunded() {
  const { order, lines } = await paidTestOrder({ prices: [3000, 5000] });
  db()
    .update(orderLines)
    .set({ refused: true, refusalNote: "演技の映像が撮影できませんでした。" })
    .where(eq(orderLines.id, lines[1]!.id))
    .run();
  const made = await refund(order.id, { lineIds: [lines[1]!.id] });
  expect(made.status).toBe("succeeded");
  return { order, lines, refund: made };
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

const today = () => formatDateLong(new Date());

let ip = 0;
/** The order's customer, with an account under its address, logged in through the API. */
async function customerCookie(email: string): Promise<string> {
  await createUser(email, "Customer-Pass-1234");
  const answer = await apiCall(loginRoute, "POST", "/api/login", {
    json: { email, password: "Customer-Pass-1234" },
    ip: `198.18.30.${++ip}`,
  });
  expect(answer.status).toBe(200);
  return sessionOf(answer);
}

describe("a refund as the parent sees it", () => {
  it("the status page: the line 返金済み with its amount, 返金 −5,000円 and お支払い額（返金後） 3,000円, when it arrives", async () => {
    const { order, lines } = await refusedAndRefunded();
    const page = await callRoute(statusLoader, new Request(`http://shop.test/orders/${order.statusToken}`), {
      token: order.statusToken,
    });
    expect(page.status).toBe(200);
    const view = (page.data as { order: ReturnType<typeof orderStatusByToken> }).order!;
    expect(view.lines.map((line) => [line.id, line.refundState, line.refundedAmount])).toEqual([
      [lines[0]!.id, null, 0],
      [lines[1]!.id, "返金済み", 5000],
    ]);
    expect(view.lines[1]!.refusalNote).toBe("演技の映像が撮影できませんでした。");
    expect(view.totalAmount).toBe(8000);
    // One line is still being made: the page still promises its day.
    expect(view.nothingToMake).toBe(false);
    expect(view.expectedDeliveryDay).not.toBeNull();
    expect(view.refunds).toMatchObject({
      refunded: 5000,
      inProgress: 0,
      net: 3000,
      arrival: REFUND_ARRIVAL.card,
      refunds: [{ amount: 5000, state: "返金済み", reason: "撮影できなかったため" }],
    });
  });

  it("every line refused and refunded: the page says nothing is on its way and promises no day", async () => {
    const { order, lines } = await paidTestOrder({ prices: [3000, 5000] });
    db()
      .update(orderLines)
      .set({ refused: true, refusalNote: "撮影できませんでした。" })
      .where(eq(orderLines.orderId, order.id))
      .run();
    expect(orderStatusByToken(order.statusToken)).toMatchObject({
      nothingToMake: true,
      expectedDeliveryDay: null,
    });
    await refund(order.id, { lineIds: [lines[0]!.id] });
    const view = orderStatusByToken(order.statusToken)!;
    expect(view.lines.map((line) => line.refundState)).toEqual(["返金済み", null]);
    expect(view).toMatchObject({ nothingToMake: true, refunds: { net: 5000 } });
  });

  it("a konbini refund reads 返金手続き中 until the transfer is made, then 返金済み", async () => {
    const { order, lines } = await paidTestOrder({ prices: [3000, 5000], konbini: true });
    const made = await refund(order.id, { lineIds: [lines[0]!.id] });
    expect(made.status).toBe("processing");
    const during = orderStatusByToken(order.statusToken)!;
    expect(during.lines[0]).toMatchObject({ refundState: "返金手続き中", refundedAmount: 3000 });
    expect(during.refunds).toMatchObject({ refunded: 0, inProgress: 3000, net: 5000 });
    expect(during.refunds.arrival).toBe(REFUND_ARRIVAL.konbini);
    // The test provider's action, reported as the webhook would (the mail's bank transfer done).
    recordProviderRefund((await completeTestKonbiniRefund(made.providerRefundId!))!);
    const after = orderStatusByToken(order.statusToken)!;
    expect(after.lines[0]).toMatchObject({ refundState: "返金済み", refundedAmount: 3000 });
    expect(after.refunds).toMatchObject({ refunded: 3000, inProgress: 0, net: 5000 });
    expect(after.refunds.arrival).toBe("ご登録いただいた口座へのお振込みが完了しました。");
  });

  it("purchase history: the refused and refunded line is お断り and 返金済み (not 納品待ち), the order 3,000円 after refunds", async () => {
    const { order, lines } = await refusedAndRefunded();
    const history = purchaseHistory(order.customerEmail, 1);
    const shown = history.orders.find((entry) => entry.orderNumber === order.orderNumber)!;
    expect(shown.totalAmount).toBe(8000);
    expect(shown.refunds).toEqual({ refunded: 5000, inProgress: 0, net: 3000 });
    expect(shown.lines.map((line) => [line.id, line.refused, line.refundState, line.refundedAmount])).toEqual(
      [
        [lines[0]!.id, false, null, 0],
        [lines[1]!.id, true, "返金済み", 5000],
      ],
    );
    expect(shown.receiptUrl).not.toBeNull();
  });

  it("GET /api/user/orders: productionPossible, refundStatus and refundedAmount per line, the order's amounts after refunds", async () => {
    const { order } = await refusedAndRefunded();
    const cookie = await customerCookie(order.customerEmail);
    const answer = await apiCall(ordersRoute, "GET", "/api/user/orders", { cookie });
    expect(answer.status).toBe(200);
    const entries = (answer.data as { orders: Record<string, unknown>[] }).orders;
    const order_ = { orderTotalAmount: 8000, orderRefundedAmount: 5000, orderNetAmount: 3000 };
    expect(entries).toEqual([
      expect.objectContaining({
        price: 3000,
        productionPossible: false,
        refundStatus: null,
        refundedAmount: 0,
        ...order_,
      }),
      expect.objectContaining({
        price: 5000,
        productionPossible: true,
        refundStatus: "succeeded",
        refundedAmount: 5000,
        ...order_,
      }),
    ]);
    const konbini = await paidTestOrder({ prices: [4000], konbini: true });
    await refund(konbini.order.id, { lineIds: [konbini.lines[0]!.id] });
    const processing = await apiCall(ordersRoute, "GET", "/api/user/orders", {
      cookie: await customerCookie(konbini.order.customerEmail),
    });
    expect((processing.data as { orders: Record<string, unknown>[] }).orders[0]).toMatchObject({
      refundStatus: "processing",
      refundedAmount: 4000,
      orderRefundedAmount: 4000,
      orderNetAmount: 0,
    });
  });

  it("GET /api/video/orders (the admin's list) carries the same per line and per order", async () => {
    const { order, lines } = await refusedAndRefunded();
    const { token } = adminWithToken("read");
    const answer = await apiCall(adminListRoute, "GET", `/api/video/orders?q=${order.orderNumber}`, {
      token,
    });
    expect(answer.status).toBe(200);
    const entries = (answer.data as { orderLines: Record<string, unknown>[] }).orderLines;
    const order_ = { orderTotalAmount: 8000, orderRefundedAmount: 5000, orderNetAmount: 3000 };
    expect(entries).toEqual([
      expect.objectContaining({ id: lines[0]!.id, refundStatus: null, refundedAmount: 0, ...order_ }),
      expect.objectContaining({
        id: lines[1]!.id,
        productionPossible: true,
        refundStatus: "succeeded",
        refundedAmount: 5000,
        ...order_,
      }),
    ]);
  });

  it("a receipt issued after the refund says 3,000円 received, its tax, the refund, and the PDF says the same", async () => {
    const { order } = await refusedAndRefunded();
    expect(receiptByToken(order.statusToken)).toMatchObject({
      kind: "not-issued",
      total: 3000,
      refunded: 5000,
    });
    expect(issueReceipt(order.statusToken, "返金 花子")).toEqual({ ok: true, reissue: false });
    const receipt = issued(order.statusToken);
    const sentence = `${today()}に5,000円を返金しました。`;
    expect(receipt).toMatchObject({
      paid: 8000,
      total: 3000,
      // 3,000 × 10 / 110 = 272.7…, rounded down: the tax of what was kept, not of the 8,000円 paid.
      tax: 272,
      qualifiedInvoice: true,
      refunds: [{ amount: 5000, done: true, sentence }],
    });
    expect(receipt.lines.map((line) => line.refunded)).toEqual([false, true]);
    const text = await pdfText(await receiptPdf(receipt));
    for (const words of [sentence, "小計", "¥8,000", "−¥5,000", "¥3,000", "うち消費税 ¥272", "（返金済み）"])
      expect(text).toContain(words);
    expect(text).not.toContain("¥727");
  });

  it("a receipt first issued before the refund stays as issued (the page says so); its 再発行 says the refund and the net", async () => {
    const { order, lines } = await paidTestOrder({ prices: [3000, 5000] });
    expect(issueReceipt(order.statusToken, "返金 花子").ok).toBe(true);
    await refund(order.id, { lineIds: [lines[1]!.id] });
    const original = receiptByToken(order.statusToken);
    expect(original).toMatchObject({ kind: "issued", receipt: { total: 8000, refunds: [] } });
    const sentence = `${today()}に5,000円を返金しました。`;
    expect(original.kind === "issued" && original.laterRefund).toBe(
      RECEIPT_REFUND_MESSAGES.laterRefund([sentence]),
    );
    expect(reissueReceipt(order.statusToken)).toEqual({ ok: true, reissue: true });
    const again = receiptByToken(order.statusToken);
    expect(again).toMatchObject({
      kind: "issued",
      laterRefund: null,
      receipt: { reissue: true, total: 3000, tax: 272, refunds: [{ sentence }] },
    });
    const request = new Request(`http://shop.test/orders/${order.statusToken}/receipt.pdf`);
    const response = (await pdfLoader({
      request,
      params: { token: order.statusToken },
      context: {},
    })) as Response;
    const text = await pdfText(new Uint8Array(await response.arrayBuffer()));
    expect(text).toContain("再発行");
    expect(text).toContain(sentence);
    expect(text).toContain("¥3,000-");
  });

  it("an order refunded whole has no receipt: 409 with the reason and the refunds, page, PDF, issue and 再発行 alike", async () => {
    const { order } = await paidTestOrder({ prices: [3000, 5000] });
    await refund(order.id, { amount: 8000 });
    const token = order.statusToken;
    const page = await callRoute(receiptLoader, new Request(`http://shop.test/orders/${token}/receipt`), {
      token,
    });
    expect(page.status).toBe(409);
    expect((page.data as { state: unknown }).state).toEqual({
      kind: "refunded",
      orderNumber: order.orderNumber,
      message: RECEIPT_REFUND_MESSAGES.fullyRefunded,
      refunds: [expect.objectContaining({ amount: 8000, sentence: `${today()}に8,000円を返金しました。` })],
    });
    const pdf = await callRoute(pdfLoader, new Request(`http://shop.test/orders/${token}/receipt.pdf`), {
      token,
    });
    expect(pdf).toMatchObject({ status: 409, data: RECEIPT_REFUND_MESSAGES.fullyRefunded });
    expect(issueReceipt(token, "返金 花子")).toEqual({
      ok: false,
      status: 409,
      message: RECEIPT_REFUND_MESSAGES.fullyRefunded,
    });
    expect(reissueReceipt(token)).toMatchObject({ ok: false, status: 409 });
    // The status page and the history offer no receipt for it either; nothing is being made, and
    // the order reads 返金済み rather than 制作中.
    expect(orderStatusByToken(token)).toMatchObject({
      progress: "返金済み",
      refunds: { net: 0 },
      nothingToMake: true,
      expectedDeliveryDay: null,
    });
    const shown = purchaseHistory(order.customerEmail, 1).orders[0]!;
    expect(shown).toMatchObject({
      progress: "返金済み",
      receiptUrl: null,
      refunds: { refunded: 8000, net: 0 },
    });
    // A typed amount names no line: the lines keep no refund state of their own.
    expect(shown.lines.map((line) => line.refundState)).toEqual([null, null]);
  });
});
