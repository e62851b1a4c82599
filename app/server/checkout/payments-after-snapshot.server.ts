import { eq } from "drizzle-orm";
import { formatDateTime } from "~/lib/rules/format";
import { DAY_MS } from "~/lib/rules/tokyo-date";
import { env } from "../core/env.server";
import { db } from "../db/client.server";
import { orders } from "../db/schema";
import { checkoutFromPayment, type CheckoutRefusalReason } from "../orders/checkout-from-payment.server";
import { recordPayment } from "../orders/record-payment.server";
import { paymentProvider, type PaymentIntentState } from "../payments/index.server";
import { STRAY_PAYMENTS_PATH, strayPaymentOf } from "../refunds/stray-ledger.server";
import { fileStrayPayment } from "../refunds/stray-payments.server";
import { STARTED_PAYMENT_EXPIRY_MS } from "./draft.server";

/*
 * After a restore: orders paid after the snapshot exist only at the payment provider. Each
 * payment carries what its order needs (server/payments/order-metadata.server.ts); a payment whose order is
 * missing gets its checkout back from that when the snapshot lacks it (a checkout started after
 * the snapshot), then goes through recordPayment, the one path every payment takes, which makes
 * the order once (its unique indexes make a second run a no-op) or writes the payment in the
 * ledger of stray payments. Start-up reconciliation (payment-recovery.server.ts) takes the same
 * path over the last week, so a payment taken by the old server while a restore ran is made too.
 * A payment refunded after the snapshot is still "succeeded" at the provider: it is asked how much
 * was given back first, and a refunded payment makes no order. Every payment that makes no order
 * and still holds money is in the ledger, so the admin sees it and is mailed once.
 */

/** Why a payment made no order now, for the admin. */
export type UnrecoveredReason =
  | CheckoutRefusalReason
  | "refunded"
  | "partly_refunded"
  | "already_stray"
  | "refused_by_record_payment"
  | "failed";

export type PaymentsAfterSnapshotReport = {
  /** The snapshot's time, as given. */
  since: Date;
  /** Payments were asked for from here: `since` less the longest a checkout waits to be paid. */
  searchedFrom: Date;
  /** Succeeded payments the provider has from searchedFrom on. */
  found: number;
  /** Of them, paid orders the restored database already has (made before the snapshot). */
  alreadyThere: number;
  /** Orders made now, through recordPayment. `checkoutRecreated`: its checkout came from the payment's metadata. */
  recreated: { paymentIntentId: string; orderNumber: string; amount: number; checkoutRecreated: boolean }[];
  /** Konbini orders the snapshot has waiting (入金待ち or 期限切れ) whose store payment came after it: now paid. */
  markedPaid: { paymentIntentId: string; orderNumber: string }[];
  /**
   * Payments that made no order, each with why in Japanese; `inStrayLedger`: the admin refunds it
   * from there (every one but a payment refunded in full, which holds no money).
   */
  unrecovered: {
    paymentIntentId: string;
    amount: number;
    currency: string;
    reason: UnrecoveredReason;
    message: string;
    inStrayLedger: boolean;
  }[];
};

/**
 * How far before the snapshot a payment's intent can have been made and still be paid after
 * it: a checkout with a started payment is kept STARTED_PAYMENT_EXPIRY_MS after its last change
 * because the payment may still succeed, and a konbini voucher made at its end is payable for
 * KONBINI_EXPIRES_AFTER_DAYS more (the provider lists intents by when they were made).
 */
export function paymentLookbackMs(): number {
  return STARTED_PAYMENT_EXPIRY_MS + env().KONBINI_EXPIRES_AFTER_DAYS * DAY_MS;
}

type Unrecovered = PaymentsAfterSnapshotReport["unrecovered"][number];

/**
 * Makes the orders of payments that succeeded after `since` (the restored snapshot's time) and
 * are missing from the database, and says what it did. Running it again makes nothing more.
 */
export async function recoverPaymentsAfter(since: Date): Promise<PaymentsAfterSnapshotReport> {
  return recoverPaymentsSince(new Date(since.getTime() - paymentLookbackMs()), since);
}

/**
 * The same for the payments made since `searchedFrom`: start-up reconciliation's week (a payment
 * whose order was never written, or whose checkout a restore took away) and a restore's span.
 */
export async function recoverPaymentsSince(
  searchedFrom: Date,
  since = searchedFrom,
): Promise<PaymentsAfterSnapshotReport> {
  const intents = await paymentProvider().succeededSince(searchedFrom);
  const report: PaymentsAfterSnapshotReport = {
    since,
    searchedFrom,
    found: intents.length,
    alreadyThere: 0,
    recreated: [],
    markedPaid: [],
    unrecovered: [],
  };
  for (const intent of intents) {
    try {
      await recoverPayment(intent, report);
    } catch (error) {
      console.error(`[payments] 決済 ${intent.id} の注文を復元できませんでした`, error);
      report.unrecovered.push(
        unrecovered(intent, "failed", `注文の作成中にエラーが起きました（${String(error)}）`, false),
      );
    }
  }
  return report;
}

async function recoverPayment(intent: PaymentIntentState, report: PaymentsAfterSnapshotReport) {
  const existing = db()
    .select({ orderNumber: orders.orderNumber, paymentStatus: orders.paymentStatus })
    .from(orders)
    .where(eq(orders.paymentIntentId, intent.id))
    .get();
  if (existing?.paymentStatus === "paid") {
    report.alreadyThere++;
    return;
  }
  if (inStrayLedger(intent.id)) {
    report.unrecovered.push(
      unrecovered(
        intent,
        "already_stray",
        `注文にならなかった決済として記録済みです（${STRAY_PAYMENTS_PATH}）`,
        true,
      ),
    );
    return;
  }
  // Stripe leaves a refunded intent "succeeded": the refund, made after the snapshot, is only there.
  const refunded = await paymentProvider().refundedAmount(intent.id);
  if (refunded > 0) {
    report.unrecovered.push(refundedPayment(intent, refunded));
    return;
  }
  const restored = existing
    ? null
    : db().transaction((tx) => checkoutFromPayment(tx, intent), { behavior: "immediate" });
  if (restored && !restored.ok) {
    if (restored.checkoutExists)
      // recordPayment would make the database's checkout into an order, not what was paid for.
      fileStrayPayment({
        intent,
        reason: "order_not_restorable",
        detail: restored.message,
        customerEmail: intent.carriedOrder.order?.customerEmail ?? null,
      });
    // Without a checkout recordPayment refuses it and writes it in the ledger, as for any path.
    else recordPayment(intent);
    report.unrecovered.push(unrecovered(intent, restored.reason, restored.message, inStrayLedger(intent.id)));
    return;
  }
  const made = recordPayment(intent);
  if (!made.ok) {
    report.unrecovered.push(unrecovered(intent, "refused_by_record_payment", made.detail, true));
  } else if (made.secondPayment) {
    report.unrecovered.push(
      unrecovered(
        intent,
        "refused_by_record_payment",
        `注文 ${made.order.orderNumber} は別の決済 ${made.order.paymentIntentId} で作成済みです（同じ注文手続きの 2 回目の決済）`,
        true,
      ),
    );
  } else if (made.paidNow) {
    report.markedPaid.push({ paymentIntentId: intent.id, orderNumber: made.order.orderNumber });
  } else if (made.created) {
    report.recreated.push({
      paymentIntentId: intent.id,
      orderNumber: made.order.orderNumber,
      amount: made.order.totalAmount,
      checkoutRecreated: restored?.recreated ?? false,
    });
  } else {
    report.alreadyThere++;
  }
}

/**
 * A payment refunded (in full or in part) makes no order: its customer was told it was given
 * back. Refunded in full it holds no money, so it is only listed; in part, the rest is the
 * admin's to judge (refund it or make the order by hand), so it is written in the ledger with
 * what is left as its amount (the ledger's one-click refund gives back exactly that).
 */
function refundedPayment(intent: PaymentIntentState, refunded: number): Unrecovered {
  if (refunded >= intent.amount)
    return unrecovered(
      intent,
      "refunded",
      `返金済み ${refunded} 円（全額）のため注文にしませんでした`,
      false,
    );
  const rest = intent.amount - refunded;
  const message = `返金済み ${refunded} 円（決済額 ${intent.amount} 円のうち）のため注文にしませんでした。残り ${rest} 円は返金するか注文にするか判断してください`;
  fileStrayPayment({
    intent,
    reason: "partly_refunded",
    detail: message,
    customerEmail: intent.carriedOrder.order?.customerEmail ?? null,
    amount: rest,
  });
  return unrecovered(intent, "partly_refunded", message, true);
}

function inStrayLedger(paymentIntentId: string): boolean {
  // The payment's own entry: a refund reported about it is not the payment in the ledger.
  return !!strayPaymentOf(db(), paymentIntentId);
}

function unrecovered(
  intent: PaymentIntentState,
  reason: UnrecoveredReason,
  message: string,
  inStrayLedger: boolean,
): Unrecovered {
  return {
    paymentIntentId: intent.id,
    amount: intent.amount,
    currency: intent.currency,
    reason,
    message,
    inStrayLedger,
  };
}

/** The report as lines to print (npm run restore, the drill's log), in Japanese. */
export function describePaymentsAfterSnapshot(report: PaymentsAfterSnapshotReport): string[] {
  const missing = report.found - report.alreadyThere;
  const lines = [
    `スナップショット（${formatDateTime(report.since)}）の ${Math.round((report.since.getTime() - report.searchedFrom.getTime()) / DAY_MS)} 日前（${formatDateTime(report.searchedFrom)}）以降に作られ、決済代行で支払われた決済 ${report.found} 件のうち、注文が復元したデータベースになかったもの ${missing} 件`,
    `  注文を作り直しました: ${report.recreated.length} 件`,
    ...report.recreated.map(
      (row) =>
        `    ${row.paymentIntentId} → 注文 ${row.orderNumber}（${row.amount} 円${row.checkoutRecreated ? "、注文手続きも決済の記録から復元" : ""}）`,
    ),
    `  入金済みにした入金待ちの注文: ${report.markedPaid.length} 件`,
    ...report.markedPaid.map((row) => `    ${row.paymentIntentId} → 注文 ${row.orderNumber}`),
    `  注文を作れなかった決済: ${report.unrecovered.length} 件`,
    ...report.unrecovered.map(
      (row) =>
        `    ${row.paymentIntentId}（${row.amount} ${row.currency}）: ${row.message}${row.inStrayLedger ? `。管理画面の ${STRAY_PAYMENTS_PATH} に記録しました（確認し、必要なら返金してください）` : ""}`,
    ),
  ];
  return lines;
}
