import { and, eq, inArray } from "drizzle-orm";
import type { CarriedOrder } from "~/lib/rules/order-metadata";
import { formatDateTime } from "~/lib/rules/format";
import { DAY_MS } from "~/lib/rules/tokyo-date";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { db } from "../db/client.server";
import { athletes, checkouts, contests, orders, strayPayments } from "../db/schema";
import { recordPayment } from "../orders/record-payment.server";
import { paymentProvider, type PaymentIntentState } from "../payments/index.server";
import { STRAY_PAYMENTS_PATH } from "../refunds/stray-payments.server";
import { STARTED_PAYMENT_EXPIRY_MS } from "./draft.server";

/*
 * After a restore: orders paid after the snapshot exist only at the payment provider. Each
 * payment carries what its order needs (lib/rules/order-metadata.ts); a payment whose order is
 * missing gets its checkout back from that when the snapshot lacks it (a checkout started after
 * the snapshot), then goes through recordPayment, the one path every payment takes, which makes
 * the order once (its unique indexes make a second run a no-op) or writes the payment in the
 * ledger of stray payments. Start-up reconciliation (payment-recovery.server.ts) takes the same
 * path over the last week, so a payment taken by the old server while a restore ran is made too.
 */

/** Why a payment made no order now, for the admin. */
export type UnrecoveredReason =
  | "no_order_metadata"
  | "incomplete_order_metadata"
  | "invalid_order_metadata"
  | "contest_gone"
  | "athlete_gone"
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
  /** Payments that made no order, each with why in Japanese; `inStrayLedger`: the admin refunds it from there. */
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
      recoverPayment(intent, report);
    } catch (error) {
      console.error(`[payments] 決済 ${intent.id} の注文を復元できませんでした`, error);
      report.unrecovered.push(
        unrecovered(intent, "failed", `注文の作成中にエラーが起きました（${String(error)}）`, false),
      );
    }
  }
  return report;
}

function recoverPayment(intent: PaymentIntentState, report: PaymentsAfterSnapshotReport): void {
  const existing = db()
    .select({ orderNumber: orders.orderNumber, paymentStatus: orders.paymentStatus })
    .from(orders)
    .where(eq(orders.paymentIntentId, intent.id))
    .get();
  if (existing?.paymentStatus === "paid") {
    report.alreadyThere++;
    return;
  }
  if (!existing && inStrayLedger(intent.id)) {
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
  const restored = existing ? null : restoreCheckout(intent);
  if (restored && !restored.ok) {
    // Without a checkout no order can be made: recordPayment writes it in the ledger for the
    // admin (no usable checkout). A checkout the snapshot has is left for the admin to judge.
    const strayNow = !restored.checkoutExists && !recordPayment(intent).ok;
    report.unrecovered.push(unrecovered(intent, restored.reason, restored.message, strayNow));
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

function inStrayLedger(paymentIntentId: string): boolean {
  return !!db()
    .select({ id: strayPayments.id })
    .from(strayPayments)
    .where(eq(strayPayments.paymentIntentId, paymentIntentId))
    .get();
}

type RestoredCheckout =
  | { ok: true; recreated: boolean }
  | { ok: false; reason: UnrecoveredReason; message: string; checkoutExists: boolean };

/**
 * The checkout as the payment was made for it. The snapshot's own checkout (started before it)
 * is used as it is when the payment carries no order; when it does, the checkout takes the
 * carried lines and customer, which preparePayment wrote to both and the provider got first.
 * A checkout the snapshot lacks is made from the carried order: verified, as preparePayment
 * leaves it, without an auto-login account (its password never left the shop).
 */
function restoreCheckout(intent: PaymentIntentState): RestoredCheckout {
  const checkout = intent.checkoutId
    ? db().select().from(checkouts).where(eq(checkouts.id, intent.checkoutId)).get()
    : undefined;
  const { order, problem } = intent.carriedOrder;
  if (!order) {
    if (checkout) return { ok: true, recreated: false };
    const reason =
      problem.reason === "incomplete"
        ? "incomplete_order_metadata"
        : problem.reason === "invalid"
          ? "invalid_order_metadata"
          : "no_order_metadata";
    return { ok: false, reason, message: problem.message, checkoutExists: false };
  }
  const refusal = orderRefusal(order);
  if (refusal) return { ok: false, ...refusal, checkoutExists: !!checkout };
  const values = {
    contestId: order.contestId,
    customerEmail: order.customerEmail,
    customerName: order.customerName,
    pricedLines: order.pricedLines,
    amount: order.pricedLines.reduce((sum, line) => sum + line.price, 0),
    paymentIntentId: intent.id,
    updatedAt: now(),
  };
  if (checkout) {
    if (checkout.status !== "paid")
      db().update(checkouts).set(values).where(eq(checkouts.id, checkout.id)).run();
    return { ok: true, recreated: false };
  }
  if (!intent.checkoutId)
    return {
      ok: false,
      reason: "invalid_order_metadata",
      message: "決済に注文手続きの番号（checkoutId）がありません",
      checkoutExists: false,
    };
  db()
    .insert(checkouts)
    .values({
      ...values,
      id: intent.checkoutId,
      items: order.pricedLines.map(({ category, athleteId, formatId }) => ({
        category,
        athleteId,
        formatId,
      })),
      autoLogin: false,
      emailVerifiedAt: now(),
      status: "verified",
    })
    .onConflictDoNothing()
    .run();
  return { ok: true, recreated: true };
}

/** A carried order the restored database cannot hold: its contest or an athlete is not in it. */
function orderRefusal(order: CarriedOrder): { reason: UnrecoveredReason; message: string } | null {
  const contest = db()
    .select({ id: contests.id })
    .from(contests)
    .where(eq(contests.id, order.contestId))
    .get();
  if (!contest)
    return {
      reason: "contest_gone",
      message: `大会（ID ${order.contestId}）が復元したデータベースにありません`,
    };
  const ids = [...new Set(order.pricedLines.map((line) => line.athleteId))];
  const found = new Set(
    db()
      .select({ id: athletes.id })
      .from(athletes)
      .where(and(eq(athletes.contestId, order.contestId), inArray(athletes.id, ids)))
      .all()
      .map((row) => row.id),
  );
  const missing = order.pricedLines.find((line) => !found.has(line.athleteId));
  if (missing)
    return {
      reason: "athlete_gone",
      message: `選手「${missing.athleteNumber} ${missing.athleteName}」（ID ${missing.athleteId}）が復元したデータベースの大会にありません`,
    };
  return null;
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
