import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { formatDateLong } from "~/lib/rules/format";
import { orderBreakdown, regularPrice } from "~/lib/rules/order-discounts";
import type { Discount } from "~/lib/rules/promotions";
import { includedTax, STANDARD_TAX_RATE_PERCENT } from "~/lib/rules/receipt";
import { now } from "../core/clock.server";
import { sellerInfo } from "../core/seller.server";
import { db } from "../db/client.server";
import { orders } from "../db/schema";
import { refundsOfOrder } from "../refunds/order-refunds.server";
import { boughtLine, linesOfOrder, type BoughtLine } from "../orders/order-lines.server";
import { orderByStatusToken } from "../orders/orders.server";
import {
  amountKept,
  lineRefundedOn,
  RECEIPT_REFUND_MESSAGES,
  receiptRefund,
  refundsAsOf,
  type ReceiptRefund,
} from "./receipt-refunds.server";

/**
 * 領収書 (receipts) of paid orders, reached with the order's status page token.
 *
 * What counts as an issue: pressing 領収書を発行する (the first issue, which fixes the addressee)
 * or 再発行する. Each adds one to `receiptIssueCount`; the first also sets `receiptIssuedAt`.
 * Looking at the receipt (the HTML page, printing it, downloading its PDF) shows the current
 * issue and counts nothing, so the page and the PDF of one issue are the same document, and a
 * receipt is marked 再発行 only when it was issued again on purpose (count > 1).
 *
 * The addressee (宛名) is given once, at the first issue, and then fixed: a receipt cannot be
 * issued to one name and later to another. An empty addressee is allowed (see receipt-schemas).
 */

export const RECEIPT_MESSAGES = {
  awaitingPayment: "領収書はお支払いの確認後に発行できます。",
  expired: "このご注文はお支払い期限が過ぎたため、領収書を発行できません。",
  notFound: "ご注文が見つかりません。メールに記載のURLをご確認ください。",
  addresseeFixed: (issued: string) =>
    `宛名は発行後に変更できません。発行済みの宛名（${issued === "" ? "空欄" : issued}）で発行しています。`,
  notIssued: "領収書はまだ発行されていません。",
} as const;

/** What a receipt is for, as a Japanese receipt says it (但し…として). */
export const RECEIPT_PURPOSE = "動画制作代として";

export type ReceiptLine = BoughtLine & {
  numberLabel: string;
  /** What the receipt lists the line at: its list price (its discounts are 割引 rows under the items). */
  listPrice: number;
  /** Refunded by this copy's date: marked 返金済み (its price stays what was paid). */
  refunded: boolean;
};

export type Receipt = {
  title: "領収書";
  /** With the seller's registration number: the receipt is a 適格簡易請求書 and says so. */
  qualifiedInvoice: boolean;
  /** Issued more than once: this copy is marked 再発行. */
  reissue: boolean;
  issueCount: number;
  /** The date this copy is issued on: the first issue's day, or (a 再発行) today, in Tokyo. */
  issuedOn: string;
  firstIssuedOn: string;
  orderNumber: string;
  paidOn: string;
  /** As entered (trimmed); empty when the customer left it blank. */
  addressee: string;
  purpose: string;
  lines: ReceiptLine[];
  /** The lines at their list prices (= paid when nothing came off). */
  listTotal: number;
  /** Each discount by name, written as a negative 割引 row; empty for an order without one. */
  discounts: Discount[];
  /** What was paid: the lines' sum, after their discounts. */
  paid: number;
  /** Refunds made by this copy's date (see receipt-refunds.server.ts), oldest first. */
  refunds: ReceiptRefund[];
  /** 領収金額: what was paid less those refunds. */
  total: number;
  taxRatePercent: number;
  /**
   * The consumption tax included in the total (after discounts and refunds: what was paid and
   * kept), rounded down once for the whole receipt.
   */
  tax: number;
  seller: { name: string; address: string; invoiceNumber: string | null };
};

export type ReceiptState =
  | { kind: "not-found" }
  | { kind: "unpaid"; orderNumber: string; message: string }
  /** Given back whole: no receipt, and the refunds that did it. */
  | { kind: "refunded"; orderNumber: string; message: string; refunds: ReceiptRefund[] }
  /** `total`: what the receipt will say, after `refunded`. */
  | { kind: "not-issued"; orderNumber: string; total: number; refunded: number; paidOn: string }
  /** `laterRefund`: a first issue made before a refund, told so on the page (not on the sheet). */
  | { kind: "issued"; receipt: Receipt; laterRefund: string | null };

export type IssueResult = { ok: true; reissue: boolean } | { ok: false; status: 404 | 409; message: string };

type OrderRow = NonNullable<ReturnType<typeof orderByStatusToken>>;

/**
 * Only a paid order has a receipt: a konbini voucher not yet paid, or expired, has none; nor has
 * an order refunded whole (a receipt for 0円 would certify nothing).
 */
function refusal(order: OrderRow, rows = refundsOfOrder(order.id)): string | null {
  if (order.paymentStatus === "awaiting") return RECEIPT_MESSAGES.awaitingPayment;
  if (order.paymentStatus === "expired") return RECEIPT_MESSAGES.expired;
  if (amountKept(order.totalAmount, rows) <= 0) return RECEIPT_REFUND_MESSAGES.fullyRefunded;
  return null;
}

/** When the money came in; orders from before payment times were kept were paid when made. */
function paidAt(order: OrderRow): Date {
  return order.paidAt ?? order.createdAt;
}

export function receiptByToken(token: string): ReceiptState {
  const order = orderByStatusToken(token);
  if (!order) return { kind: "not-found" };
  const rows = refundsOfOrder(order.id);
  const refused = refusal(order, rows);
  if (refused === RECEIPT_REFUND_MESSAGES.fullyRefunded)
    return {
      kind: "refunded",
      orderNumber: order.orderNumber,
      message: refused,
      refunds: refundsAsOf(rows, null).map(receiptRefund),
    };
  if (refused) return { kind: "unpaid", orderNumber: order.orderNumber, message: refused };
  if (order.receiptIssueCount === 0 || order.receiptAddressee === null || !order.receiptIssuedAt) {
    const total = amountKept(order.totalAmount, rows);
    return {
      kind: "not-issued",
      orderNumber: order.orderNumber,
      total,
      refunded: order.totalAmount - total,
      paidOn: formatDateLong(paidAt(order)),
    };
  }
  const seller = sellerInfo();
  const reissue = order.receiptIssueCount > 1;
  // The original shows what was refunded by its day; a 再発行, dated today, everything.
  const shown = refundsAsOf(rows, reissue ? null : order.receiptIssuedAt);
  const later = refundsAsOf(rows, null).filter((row) => !shown.includes(row));
  const total = amountKept(order.totalAmount, shown);
  const breakdown = orderBreakdown(order);
  return {
    kind: "issued",
    laterRefund:
      later.length > 0
        ? RECEIPT_REFUND_MESSAGES.laterRefund(later.map((row) => receiptRefund(row).sentence))
        : null,
    receipt: {
      title: "領収書",
      qualifiedInvoice: seller.invoiceNumber !== null,
      reissue,
      issueCount: order.receiptIssueCount,
      // The original keeps its date however often it is looked at; a 再発行 is dated the day it is printed.
      issuedOn: formatDateLong(reissue ? now() : order.receiptIssuedAt),
      firstIssuedOn: formatDateLong(order.receiptIssuedAt),
      orderNumber: order.orderNumber,
      paidOn: formatDateLong(paidAt(order)),
      addressee: order.receiptAddressee,
      purpose: RECEIPT_PURPOSE,
      lines: linesOfOrder(order.id).map((line) => ({
        ...boughtLine(line),
        numberLabel: order.bibNumberLabel,
        listPrice: regularPrice(line),
        refunded: lineRefundedOn(line.id, shown),
      })),
      listTotal: breakdown?.listTotal ?? order.totalAmount,
      discounts: breakdown?.discounts ?? [],
      paid: order.totalAmount,
      refunds: shown.map(receiptRefund),
      total,
      taxRatePercent: STANDARD_TAX_RATE_PERCENT,
      tax: includedTax(total),
      seller: { name: seller.name, address: seller.address, invoiceNumber: seller.invoiceNumber },
    },
  };
}

type Refusal = Extract<IssueResult, { ok: false }>;

/** The paid order behind a token, or why no receipt can be issued for it. */
function paidOrder(token: string): { order: OrderRow; refusal?: never } | { refusal: Refusal } {
  const order = orderByStatusToken(token);
  if (!order) return { refusal: { ok: false, status: 404, message: RECEIPT_MESSAGES.notFound } };
  const message = refusal(order);
  return message ? { refusal: { ok: false, status: 409, message } } : { order };
}

/**
 * 領収書を発行する: the first issue, which fixes the addressee. Sent again with the same
 * addressee (a second tab, a double submit without JavaScript) it changes nothing, so the
 * customer's own receipt is not marked 再発行 by accident; with another addressee it is refused.
 */
export function issueReceipt(token: string, addressee: string): IssueResult {
  const name = addressee.trim();
  const found = paidOrder(token);
  if (found.refusal) return found.refusal;
  // One statement decides: of two first issues at once, only one fixes its addressee.
  const updated = db()
    .update(orders)
    .set({ receiptAddressee: name, receiptIssuedAt: now(), receiptIssueCount: 1 })
    .where(
      and(eq(orders.id, found.order.id), isNull(orders.receiptAddressee), eq(orders.paymentStatus, "paid")),
    )
    .run();
  if (updated.changes === 1) return { ok: true, reissue: false };
  const current = orderByStatusToken(token);
  const issued = current?.receiptAddressee ?? null;
  if (issued === null) return { ok: false, status: 409, message: RECEIPT_MESSAGES.notIssued };
  if (issued !== name) return { ok: false, status: 409, message: RECEIPT_MESSAGES.addresseeFixed(issued) };
  return { ok: true, reissue: (current?.receiptIssueCount ?? 0) > 1 };
}

/** 再発行する: another issue of an issued receipt, to the same addressee; it is marked 再発行. */
export function reissueReceipt(token: string): IssueResult {
  const found = paidOrder(token);
  if (found.refusal) return found.refusal;
  const updated = db()
    .update(orders)
    .set({ receiptIssueCount: sql`${orders.receiptIssueCount} + 1` })
    .where(
      and(eq(orders.id, found.order.id), eq(orders.paymentStatus, "paid"), gt(orders.receiptIssueCount, 0)),
    )
    .run();
  if (updated.changes !== 1) return { ok: false, status: 409, message: RECEIPT_MESSAGES.notIssued };
  return { ok: true, reissue: true };
}
