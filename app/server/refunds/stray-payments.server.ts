import { desc, eq, isNotNull } from "drizzle-orm";
import { formatAmountIn } from "~/lib/rules/format";
import { countsAsRefund } from "~/lib/rules/refunds";
import { db, type Tx } from "../db/client.server";
import { refunds, strayPayments, type StrayPaymentReason } from "../db/schema";
import { strayPaymentMail } from "../mail/templates/stray-payment.server";
import type { PaymentIntentState } from "../payments/types";
import type { RefundMisfitReason } from "./refund-fit.server";
import { sendRefund, type RefundRow } from "./refund-sending.server";
import {
  queueAdminMails,
  sendStrayPaymentMails,
  STRAY_PAYMENT_REASON_LABELS,
  strayLedgerUrl,
} from "./stray-ledger.server";

/**
 * The ledger of stray payments: money that came in without becoming an order. Each is written
 * once (unique per payment), whichever path reports it, in the transaction that decided it is
 * stray; each admin is mailed once; the back-office lists them with a one-click full refund.
 */

/** Writes a stray payment and queues the admins' mails; answers the mail ids to send (none if already written). */
export function recordStrayPayment(
  tx: Tx,
  input: {
    intent: PaymentIntentState;
    /** A payment's reason; refund reports are filed by stray-ledger.server.ts's fileStrayRefund. */
    reason: Exclude<StrayPaymentReason, RefundMisfitReason>;
    detail: string;
    orderId?: number | null;
    customerEmail?: string | null;
    /** What is left to give back, when part of the payment already was (partly_refunded). */
    amount?: number;
  },
): number[] {
  const row = tx
    .insert(strayPayments)
    .values({
      paymentIntentId: input.intent.id,
      reason: input.reason,
      amount: input.amount ?? input.intent.amount,
      currency: input.intent.currency,
      checkoutId: input.intent.checkoutId,
      orderId: input.orderId ?? null,
      customerEmail: input.customerEmail ?? null,
      detail: input.detail,
    })
    .onConflictDoNothing()
    .returning()
    .get();
  if (!row) return [];
  const mail = strayPaymentMail({
    paymentIntentId: row.paymentIntentId,
    amountLabel: formatAmountIn(row.amount, row.currency),
    reasonLabel: STRAY_PAYMENT_REASON_LABELS[row.reason],
    detail: row.detail,
    ledgerUrl: strayLedgerUrl(),
  });
  return queueAdminMails(tx, (adminId) => `stray-payment:${row.paymentIntentId}:${adminId}`, mail);
}

/**
 * Writes a payment the recovery after a restore cannot make into an order, when recordPayment
 * does not see it (its checkout is there, but not what was paid for; or it was partly refunded),
 * and mails the admins; a payment already written stays as it was and mails nobody again.
 */
export function fileStrayPayment(input: Parameters<typeof recordStrayPayment>[1]): void {
  const mailIds = db().transaction((tx) => recordStrayPayment(tx, input), { behavior: "immediate" });
  sendStrayPaymentMails(mailIds);
}

export type StrayPaymentRow = typeof strayPayments.$inferSelect & { refund: RefundRow | null };

/** The ledger, newest first, each with its refund (the latest that counts, else the latest failed one). */
export function strayPaymentList(): StrayPaymentRow[] {
  const rows = db()
    .select()
    .from(strayPayments)
    .orderBy(desc(strayPayments.createdAt), desc(strayPayments.id))
    .all();
  // Only the ledger's own refunds (by refunds_stray_payment_idx), not every order's.
  const refundRows = db().select().from(refunds).where(isNotNull(refunds.strayPaymentId)).all();
  return rows.map((row) => {
    const own = refundRows.filter((refund) => refund.strayPaymentId === row.id).reverse();
    return { ...row, refund: own.find((refund) => countsAsRefund(refund.status)) ?? own[0] ?? null };
  });
}

export type StrayRefundResult =
  { ok: true; refund: RefundRow; replayed: boolean } | { ok: false; status: 404 | 409; message: string };

/** One click: the whole payment back. Once: a payment with a refund that counts is refused. */
export async function refundStrayPayment(input: {
  strayPaymentId: number;
  requestKey: string;
  adminUserId: number;
}): Promise<StrayRefundResult> {
  const written = db().transaction(
    (tx): StrayRefundResult => {
      const earlier = tx.select().from(refunds).where(eq(refunds.requestKey, input.requestKey)).get();
      if (earlier?.strayPaymentId === input.strayPaymentId)
        return { ok: true, refund: earlier, replayed: true };
      const stray = tx.select().from(strayPayments).where(eq(strayPayments.id, input.strayPaymentId)).get();
      if (!stray)
        return { ok: false, status: 404, message: "決済が見つかりません。画面を再読み込みしてください。" };
      // A refund report is money that (the provider says) already went out: nothing to give back.
      if (stray.providerRefundId !== null)
        return {
          ok: false,
          status: 409,
          message: "これは決済サービスから報告された返金の記録です。ここから返金するものではありません。",
        };
      const made = tx.select().from(refunds).where(eq(refunds.strayPaymentId, stray.id)).all();
      if (earlier || made.some((refund) => countsAsRefund(refund.status)))
        return { ok: false, status: 409, message: "この決済は返金済み（または返金手続き中）です。" };
      const refund = tx
        .insert(refunds)
        .values({
          strayPaymentId: stray.id,
          paymentIntentId: stray.paymentIntentId,
          amount: stray.amount,
          currency: stray.currency,
          reason: STRAY_PAYMENT_REASON_LABELS[stray.reason],
          requestKey: input.requestKey,
          adminUserId: input.adminUserId,
        })
        .returning()
        .get();
      return { ok: true, refund, replayed: false };
    },
    { behavior: "immediate" },
  );
  if (!written.ok) return written;
  return { ...written, refund: await sendRefund(written.refund.id) };
}
