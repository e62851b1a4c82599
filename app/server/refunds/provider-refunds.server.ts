import { eq } from "drizzle-orm";
import { formatAmountIn } from "~/lib/rules/format";
import { refundTotals } from "~/lib/rules/refunds";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { orderLines, orders, refunds, strayPayments } from "../db/schema";
import { queueMail, sendQueuedMailNow } from "../mail/outbox.server";
import { refundMail, strayRefundMail } from "../mail/templates/refund.server";
import { orderStatusUrl } from "../core/site-url.server";
import { SHOP_CURRENCY, type ProviderChargeRefunds, type ProviderRefund } from "../payments/types";
import { refundMisfit, type RefundMisfit } from "./refund-fit.server";
import type { RefundRow } from "./refund-sending.server";
import { fileStrayRefund, sendStrayPaymentMails, strayPaymentOf } from "./stray-ledger.server";

/**
 * What the provider reports about refunds, from every path (its answer to the shop's request,
 * the webhook, the test provider's action), written down once: the shop's own refund moves on
 * (processing, succeeded, failed; the customer mailed once, when the provider first accepts it),
 * a refund made at the provider's dashboard is written against its order or stray payment. Every
 * report's money is checked first (refund-fit.server.ts); one that does not fit is filed in the
 * ledger of stray payments and changes no refund, so no order, receipt or sales figure.
 */

/**
 * Records what the provider reports about one of the shop's refunds, from any path; a refund
 * made at the provider's dashboard (no shop id) is written down too, so totals stay true. A
 * report whose money does not fit (refund-fit.server.ts: not the amount the shop asked for,
 * more than is left of its payment, another currency, not a whole positive amount) is filed in
 * the ledger of stray payments instead and changes no refund. Answers the row, or null when
 * the report was filed or is for a payment the shop does not know.
 */
export function recordProviderRefund(reported: ProviderRefund): RefundRow | null {
  const result = db().transaction((tx) => recordReport(tx, reported), { behavior: "immediate" });
  sendNow(result);
  return result.row;
}

/**
 * A charge.refunded report: each refund it lists is recorded as any report is; the refunds it
 * does not list come as their own refund.* events, and what can be checked of them here is the
 * charge's total refunded, against what its order was paid. Nothing is written from the total:
 * a total that does not fit is filed for the admin.
 */
export function recordChargeRefunds(report: ProviderChargeRefunds): void {
  for (const refund of report.refunds) recordProviderRefund(refund);
  const listed = report.refunds
    .filter((refund) => refund.status !== "failed")
    .reduce((sum, refund) => sum + refund.amount, 0);
  if (report.listsEveryRefund && listed === report.amountRefunded) return;
  const result = db().transaction((tx) => checkChargeTotal(tx, report), { behavior: "immediate" });
  sendNow(result);
}

type Recorded = { row: RefundRow | null; refundMailId: number | null; adminMailIds: number[] };

const NOTHING: Recorded = { row: null, refundMailId: null, adminMailIds: [] };

function sendNow(result: Recorded) {
  if (result.refundMailId !== null && result.row)
    void sendQueuedMailNow(result.refundMailId, `refund mail for refund ${result.row.id}`);
  sendStrayPaymentMails(result.adminMailIds);
}

function recordReport(tx: Tx, reported: ProviderRefund): Recorded {
  const row = findRefund(tx, reported);
  if (!row) return refundMadeElsewhere(tx, reported);
  // The refund this report is about was written with its amount: anything else is not it.
  const misfit = refundMisfit(reported, { rule: "asked", amount: row.amount, currency: row.currency });
  if (misfit) return fileReport(tx, reported, misfit, row);
  return applyProviderRefund(tx, row, reported);
}

function applyProviderRefund(tx: Tx, row: RefundRow, reported: ProviderRefund): Recorded {
  // Events can arrive out of order: a refund once succeeded is not taken back to processing.
  const status =
    row.status === "succeeded" && reported.status === "processing" ? row.status : reported.status;
  const updated = tx
    .update(refunds)
    .set({
      providerRefundId: reported.id,
      status,
      method: reported.method,
      failureReason:
        status === "failed" ? (reported.failureReason ?? "決済サービスが返金できませんでした") : null,
      succeededAt: status === "succeeded" ? (row.succeededAt ?? now()) : row.succeededAt,
    })
    .where(eq(refunds.id, row.id))
    .returning()
    .get();
  // The customer hears once, when the provider first accepts the refund.
  const accepted = row.status === "requested" && status !== "failed";
  return { row: updated, refundMailId: accepted ? queueRefundMail(tx, updated) : null, adminMailIds: [] };
}

/** The shop's refund the report is about: by the provider's id, or by the shop's id on the same payment. */
function findRefund(tx: Tx, reported: ProviderRefund): RefundRow | undefined {
  const byProviderId = tx.select().from(refunds).where(eq(refunds.providerRefundId, reported.id)).get();
  if (byProviderId) return byProviderId;
  if (reported.shopRefundId === null) return undefined;
  const byShopId = tx.select().from(refunds).where(eq(refunds.id, reported.shopRefundId)).get();
  // Ids restart after a restore (decision 0037): a shop id on another payment is not that refund.
  return byShopId?.paymentIntentId === reported.paymentIntentId ? byShopId : undefined;
}

/**
 * A refund the shop did not ask for (made at the provider's dashboard, or one the shop asked for
 * before a restore lost its row): written down against its order or stray payment if it fits
 * what is left of it, filed in the ledger if not.
 */
function refundMadeElsewhere(tx: Tx, reported: ProviderRefund): Recorded {
  // A failed refund moved no money: nothing to write down, nor to check.
  if (!reported.paymentIntentId || reported.status === "failed") return NOTHING;
  const order = tx.select().from(orders).where(eq(orders.paymentIntentId, reported.paymentIntentId)).get();
  const stray = order ? undefined : strayPaymentOf(tx, reported.paymentIntentId);
  if (!order && !stray) {
    console.error(
      `[refunds] 決済 ${reported.paymentIntentId} の返金 ${reported.id} は、ショップの注文にも記録済みの決済にもありません`,
    );
    return NOTHING;
  }
  const made = tx
    .select()
    .from(refunds)
    .where(order ? eq(refunds.orderId, order.id) : eq(refunds.strayPaymentId, stray?.id ?? 0))
    .all();
  const misfit = refundMisfit(reported, {
    rule: "left",
    left: refundTotals(order ? order.totalAmount : (stray?.amount ?? 0), made).net,
    currency: order ? SHOP_CURRENCY : (stray?.currency ?? SHOP_CURRENCY),
    of: order ? `注文 ${order.orderNumber}` : "この決済",
  });
  if (misfit)
    return fileReport(tx, reported, misfit, {
      orderId: order?.id ?? null,
      paymentIntentId: reported.paymentIntentId,
    });
  const row = tx
    .insert(refunds)
    .values({
      orderId: order?.id ?? null,
      strayPaymentId: stray?.id ?? null,
      paymentIntentId: reported.paymentIntentId,
      amount: reported.amount,
      currency: reported.currency,
      method: reported.method,
      reason:
        reported.shopRefundId === null
          ? "決済サービスの管理画面で返金されました"
          : "決済サービスから報告された返金です（ショップの記録にありませんでした）",
      requestKey: `provider:${reported.id}`,
    })
    .returning()
    .get();
  return applyProviderRefund(tx, row, reported);
}

/** A charge's total refunded, checked against what its order was paid (see recordChargeRefunds). */
function checkChargeTotal(tx: Tx, report: ProviderChargeRefunds): Recorded {
  if (!report.paymentIntentId) return NOTHING;
  // A stray payment's figures are the ledger's own, and no total is written anywhere: its
  // refunds are checked one by one as they are reported.
  const order = tx.select().from(orders).where(eq(orders.paymentIntentId, report.paymentIntentId)).get();
  if (!order) return NOTHING;
  const misfit = refundMisfit(
    { amount: report.amountRefunded, currency: report.currency },
    { rule: "total", paid: order.totalAmount, currency: SHOP_CURRENCY, of: `注文 ${order.orderNumber}` },
  );
  if (!misfit) return NOTHING;
  return {
    ...NOTHING,
    adminMailIds: fileStrayRefund(tx, {
      providerRefundId: report.chargeId,
      paymentIntentId: report.paymentIntentId,
      amount: report.amountRefunded,
      currency: report.currency,
      misfit,
      orderId: order.id,
      customerEmail: order.customerEmail,
    }),
  };
}

/** A report that fits no order, filed in the ledger (once per refund) with the payment and order it named. */
function fileReport(
  tx: Tx,
  reported: ProviderRefund,
  misfit: RefundMisfit,
  named: { orderId: number | null; paymentIntentId: string },
): Recorded {
  const order =
    named.orderId === null ? undefined : tx.select().from(orders).where(eq(orders.id, named.orderId)).get();
  return {
    ...NOTHING,
    adminMailIds: fileStrayRefund(tx, {
      providerRefundId: reported.id,
      paymentIntentId: reported.paymentIntentId ?? named.paymentIntentId,
      amount: reported.amount,
      currency: reported.currency,
      misfit,
      orderId: order?.id ?? null,
      customerEmail: order?.customerEmail ?? null,
    }),
  };
}

function queueRefundMail(tx: Tx, row: RefundRow): number | null {
  if (row.strayPaymentId !== null) return queueStrayRefundMail(tx, row);
  if (row.orderId === null) return null;
  const order = tx.select().from(orders).where(eq(orders.id, row.orderId)).get();
  if (!order) return null;
  const lines = row.lineIds.length
    ? tx.select().from(orderLines).where(eq(orderLines.orderId, order.id)).all()
    : [];
  return queueMail(
    {
      to: order.customerEmail,
      dedupeKey: `refund:${row.id}`,
      mail: refundMail({
        customerName: order.customerName,
        orderNumber: order.orderNumber,
        contestName: order.contestName,
        amount: row.amount,
        method: row.method ?? order.paymentMethod,
        reason: row.reason,
        lineLabels: lines
          .filter((line) => row.lineIds.includes(line.id))
          .map((line) => `${order.bibNumberLabel} ${line.athleteNumber} ${line.athleteName}・${line.style}`),
        statusUrl: orderStatusUrl(order.statusToken),
      }),
    },
    tx,
  );
}

/** A stray payment's payer hears of its refund at the checkout's verified address, when there is one. */
function queueStrayRefundMail(tx: Tx, row: RefundRow): number | null {
  const stray = tx
    .select()
    .from(strayPayments)
    .where(eq(strayPayments.id, row.strayPaymentId ?? 0))
    .get();
  if (!stray?.customerEmail) return null;
  return queueMail(
    {
      to: stray.customerEmail,
      dedupeKey: `refund:${row.id}`,
      mail: strayRefundMail({
        amountLabel: formatAmountIn(row.amount, row.currency),
        secondPayment: stray.reason === "second_payment",
        method: row.method ?? "card",
      }),
    },
    tx,
  );
}
