import { formatAmountIn } from "~/lib/rules/format";
import { and, count, eq, inArray, isNull, notExists, sql } from "drizzle-orm";
import { countsAsRefund, REFUND_STATUS_LABELS, REFUND_STATUSES } from "~/lib/rules/refunds";
import { strayPaymentStepSchema } from "~/lib/schemas/stray-payment-schemas";
import { db } from "../db/client.server";
import { orders, refunds, strayPayments } from "../db/schema";
import type { Toast } from "../http/session.server";
import { sendRefund, type RefundRow } from "./refund-sending.server";
import { STRAY_PAYMENT_REASON_LABELS } from "./stray-ledger.server";
import { refundStrayPayment, strayPaymentList } from "./stray-payments.server";

/**
 * The back-office's view of the ledger of stray payments (the ledger itself, and the refund that
 * gives one back, are the refund core's: refunds/stray-payments.server.ts): each payment with the
 * order it duplicates and its refund's state, the count the admin menu shows, and the page's posts.
 */

export type StrayLedgerEntry = {
  id: number;
  createdAt: number;
  amountLabel: string;
  reasonLabel: string;
  detail: string;
  paymentIntentId: string;
  /**
   * Set for a refund the provider reported that fits no order (its id, or its charge's): money
   * said to have gone out, which the admin checks at the provider; nothing to refund here.
   */
  providerRefundId: string | null;
  checkoutId: string | null;
  customerEmail: string | null;
  /** The order a second payment duplicates, or the one a refund report named. */
  orderNumber: string | null;
  refund: {
    status: RefundRow["status"];
    statusLabel: string;
    failureReason: string | null;
    createdAt: number;
    succeededAt: number | null;
  } | null;
  /** No refund that counts yet (none, or only a failed one): 全額返金 is offered. */
  refundable: boolean;
  /** The refund id to send again: written, but the payment service was not reached. */
  resendableRefundId: number | null;
};

/** Newest first, as strayPaymentList gives them. */
export function strayPaymentLedger(): StrayLedgerEntry[] {
  const rows = strayPaymentList();
  const orderIds = [...new Set(rows.flatMap((row) => (row.orderId === null ? [] : [row.orderId])))];
  const orderNumbers = new Map(
    orderIds.length === 0
      ? []
      : db()
          .select({ id: orders.id, orderNumber: orders.orderNumber })
          .from(orders)
          .where(inArray(orders.id, orderIds))
          .all()
          .map((order) => [order.id, order.orderNumber]),
  );
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt.getTime(),
    amountLabel: formatAmountIn(row.amount, row.currency),
    reasonLabel: STRAY_PAYMENT_REASON_LABELS[row.reason],
    detail: row.detail,
    paymentIntentId: row.paymentIntentId,
    providerRefundId: row.providerRefundId,
    checkoutId: row.checkoutId,
    customerEmail: row.customerEmail,
    orderNumber: row.orderId === null ? null : (orderNumbers.get(row.orderId) ?? null),
    refund: row.refund && {
      status: row.refund.status,
      statusLabel: REFUND_STATUS_LABELS[row.refund.status],
      failureReason: row.refund.failureReason,
      createdAt: row.refund.createdAt.getTime(),
      succeededAt: row.refund.succeededAt?.getTime() ?? null,
    },
    refundable: row.providerRefundId === null && (!row.refund || !countsAsRefund(row.refund.status)),
    resendableRefundId: row.refund?.status === "requested" ? row.refund.id : null,
  }));
}

const COUNTED = REFUND_STATUSES.filter(countsAsRefund);

/**
 * Stray payments with no refund that counts: the admin menu's badge (one small indexed query).
 * Refund reports are not counted: there is nothing to give back, and their mail said so.
 */
export function unrefundedStrayPaymentCount(): number {
  const refunded = db()
    .select({ one: sql`1` })
    .from(refunds)
    .where(and(eq(refunds.strayPaymentId, strayPayments.id), inArray(refunds.status, COUNTED)));
  return (
    db()
      .select({ n: count() })
      .from(strayPayments)
      .where(and(isNull(strayPayments.providerRefundId), notExists(refunded)))
      .get()?.n ?? 0
  );
}

export type StrayLedgerOutcome =
  { done: true; toast: Toast } | { done: false; status: number; message: string };

/** 全額返金 or 再送信, from the page's form; a refusal is a 4xx with the reason in Japanese. */
export async function strayPaymentStep(adminUserId: number, form: FormData): Promise<StrayLedgerOutcome> {
  const parsed = strayPaymentStepSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return {
      done: false,
      status: 400,
      message: parsed.error.issues[0]?.message ?? "画面を再読み込みしてください。",
    };
  const step = parsed.data;
  if (step.intent === "refund") {
    const result = await refundStrayPayment({
      strayPaymentId: step.strayPaymentId,
      requestKey: step.requestKey,
      adminUserId,
    });
    if (!result.ok) return { done: false, status: result.status, message: result.message };
    return { done: true, toast: refundToast(result.refund) };
  }
  const refund = db().select().from(refunds).where(eq(refunds.id, step.refundId)).get();
  if (!refund || refund.strayPaymentId === null)
    return { done: false, status: 404, message: "返金が見つかりません。画面を再読み込みしてください。" };
  if (refund.status !== "requested")
    return { done: false, status: 409, message: "この返金は決済サービスに届いています。再送信は不要です。" };
  return { done: true, toast: refundToast(await sendRefund(refund.id)) };
}

/** What became of the refund, as the admin needs to know it. */
function refundToast(refund: RefundRow): Toast {
  const amount = formatAmountIn(refund.amount, refund.currency);
  switch (refund.status) {
    case "succeeded":
      return {
        kind: "success",
        title: "返金しました",
        description: `${amount}を返金しました（${refund.paymentIntentId}）。`,
      };
    case "processing":
      return {
        kind: "success",
        title: "返金を受け付けました",
        description: `${amount}の返金は決済サービスで手続き中です。コンビニ払いの返金は、お客様が受け取り口座を登録すると完了します。`,
      };
    case "requested":
      return {
        kind: "error",
        title: "決済サービスに届きませんでした",
        description: `${amount}の返金は記録しました。しばらくしてから「再送信」を押してください。`,
      };
    case "failed":
      return {
        kind: "error",
        title: "返金できませんでした",
        description: refund.failureReason ?? "決済サービスが返金を受け付けませんでした。",
      };
  }
}
