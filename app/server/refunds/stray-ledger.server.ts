import { and, eq, isNull } from "drizzle-orm";
import { formatAmountIn } from "~/lib/rules/format";
import { env } from "../core/env.server";
import type { Db, Tx } from "../db/client.server";
import { strayPayments, users, type StrayPaymentReason } from "../db/schema";
import type { RenderedMail } from "../mail/layout.server";
import { queueMail, sendQueuedMailNow } from "../mail/outbox.server";
import { strayRefundReportMail } from "../mail/templates/stray-payment.server";
import type { RefundMisfit } from "./refund-fit.server";

/**
 * What the ledger of stray payments says and how its entries reach the admins, apart from the
 * refunds made from it (stray-payments.server.ts), so that recording a provider's refund report
 * (refund-sending.server.ts) can file one here without a loop between the two.
 */

export const STRAY_PAYMENT_REASON_LABELS: Record<StrayPaymentReason, string> = {
  second_payment: "同じ注文手続きの2回目の決済",
  no_checkout: "注文手続きが見つからない決済",
  amount: "金額が注文の合計と違う決済",
  currency: "円以外の通貨の決済",
  order_not_restorable: "注文を作り直せない決済（大会・選手がない）",
  partly_refunded: "一部返金済みのため注文にしなかった決済",
  refund_over: "返金できる残りより多い返金の報告（注文には記録していません）",
  refund_currency: "通貨の違う返金の報告（注文には記録していません）",
  refund_amount: "金額が正しくない返金の報告（注文には記録していません）",
};

/** The page where the admin sees them (its address is made here, and only here). */
export const STRAY_PAYMENTS_PATH = "/admin/stray-payments";

export function strayLedgerUrl(): string {
  return `${env().SITE_URL}${STRAY_PAYMENTS_PATH}`;
}

/** Queues `mail` to every admin, once each under `dedupeKey(adminId)`; answers the mail ids to send. */
export function queueAdminMails(
  tx: Tx,
  dedupeKey: (adminId: number) => string,
  mail: RenderedMail,
): number[] {
  const admins = tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.isAdmin, true))
    .all();
  return admins.flatMap((admin) => {
    const id = queueMail({ to: admin.email, dedupeKey: dedupeKey(admin.id), mail }, tx);
    return id === null ? [] : [id];
  });
}

export function sendStrayPaymentMails(mailIds: number[]): void {
  for (const id of mailIds) void sendQueuedMailNow(id, "stray payment mail");
}

/**
 * Files a refund report that fits no order: once per reported refund (or charge) however often it
 * is reported, with the order or stray payment it named, and mails the admins once. Answers the
 * mail ids to send (none when the report was filed before).
 */
export function fileStrayRefund(
  tx: Tx,
  input: {
    /** The provider's refund id, or the charge's for a charge total. */
    providerRefundId: string;
    paymentIntentId: string;
    amount: number;
    currency: string;
    misfit: RefundMisfit;
    orderId: number | null;
    customerEmail: string | null;
  },
): number[] {
  const row = tx
    .insert(strayPayments)
    .values({
      paymentIntentId: input.paymentIntentId,
      providerRefundId: input.providerRefundId,
      reason: input.misfit.reason,
      // As reported (a fraction of a yen or a negative amount is what the admin must see); a
      // value that is no number at all is written as 0, its detail saying what came.
      amount: Number.isFinite(input.amount) ? input.amount : 0,
      currency: input.currency,
      orderId: input.orderId,
      customerEmail: input.customerEmail,
      detail: input.misfit.detail,
    })
    .onConflictDoNothing()
    .returning()
    .get();
  if (!row) return [];
  console.error(
    `[refunds] 決済 ${input.paymentIntentId} の返金 ${input.providerRefundId} は注文に合わないため、注文にならなかった決済に記録しました: ${input.misfit.detail}`,
  );
  const mail = strayRefundReportMail({
    providerRefundId: input.providerRefundId,
    paymentIntentId: row.paymentIntentId,
    amountLabel: formatAmountIn(row.amount, row.currency),
    reasonLabel: STRAY_PAYMENT_REASON_LABELS[row.reason],
    detail: row.detail,
    ledgerUrl: strayLedgerUrl(),
  });
  return queueAdminMails(tx, (adminId) => `stray-refund:${input.providerRefundId}:${adminId}`, mail);
}

/** The payment's own entry in the ledger, if it has one (not a refund report about it). */
export function strayPaymentOf(tx: Tx | Db, paymentIntentId: string) {
  return tx
    .select()
    .from(strayPayments)
    .where(and(eq(strayPayments.paymentIntentId, paymentIntentId), isNull(strayPayments.providerRefundId)))
    .get();
}
