import { and, eq } from "drizzle-orm";
import { lineRefundState } from "~/lib/rules/refunds";
import { now } from "../../core/clock.server";
import { db, type Db, type Tx } from "../../db/client.server";
import { orderLines, orders, refunds } from "../../db/schema";
import { queueMail, sendQueuedMailNow } from "../../mail/outbox.server";
import { lineRefusalWithdrawnMail, lineRefusedMail } from "../../mail/templates/line-refusal.server";
import { refundOrder, refundsOfOrder, type OrderRefundResult } from "../../refunds/order-refunds.server";
import { orderStatusUrl } from "../../core/site-url.server";

/**
 * お断り: the shop cannot make one line of an order (the athlete was not filmed, the video
 * failed). The admin marks the line in the order list with a note, the customer is mailed
 * through the outbox and sees the line as お断り with the note on the status and download
 * pages. A refused line is not waited for: 納品 delivers the other lines without it, and 完了
 * closes the order with it. The line's refund is offered in the same step (refuseLine with
 * `refund`): the line is refused first, then refunded at its paid price with the note as the
 * reason, and the mail says the refund is made (a 返金のお知らせ follows) only when it was;
 * without it the mail says the shop will be in touch about the refund. Only lines of a paid order
 * still in the 未対応 tab can be refused or un-refused, and a refunded line stays refused: once
 * an order is delivered or closed, or the money is on its way back, what the customer was told is final.
 */

export type RefusalResult =
  | {
      ok: true;
      mail: "sent" | "queued";
      /** Only when the refund was asked for. */ refund?: OrderRefundResult;
    }
  | { ok: false; status: 404 | 409; message: string };

/** The line's refund made with its お断り: the form's one-time key, and the admin who refunds. */
export type RefusalRefund = { requestKey: string; adminUserId: number };

const NOT_FOUND = "明細が見つかりません。画面を再読み込みしてください。";
const NOT_OPEN = "納品済み・対応済みの注文の明細は変更できません。";

function openLine(tx: Tx, orderId: number, lineId: number) {
  const order = tx.select().from(orders).where(eq(orders.id, orderId)).get();
  const line = order
    ? tx
        .select()
        .from(orderLines)
        .where(and(eq(orderLines.id, lineId), eq(orderLines.orderId, orderId)))
        .get()
    : undefined;
  if (!order || !line) return { ok: false, status: 404, message: NOT_FOUND } as const;
  if (order.paymentStatus !== "paid" || order.status !== "未対応" || line.status !== "未対応")
    return { ok: false, status: 409, message: NOT_OPEN } as const;
  return { ok: true, order, line } as const;
}

function mailInput(order: typeof orders.$inferSelect, line: typeof orderLines.$inferSelect) {
  return {
    customerName: order.customerName,
    orderNumber: order.orderNumber,
    contestName: order.contestName,
    lineLabel: `${order.bibNumberLabel} ${line.athleteNumber} ${line.athleteName}・${line.style}`,
    statusUrl: orderStatusUrl(order.statusToken),
  };
}

async function send(mailId: number | null): Promise<"sent" | "queued"> {
  if (mailId === null) return "queued";
  return sendQueuedMailNow(mailId, "line refusal mail");
}

/**
 * Marks a line お断り with the note for the customer (a changed note replaces the earlier one),
 * refunds it when asked (`refund`), and mails them.
 */
export async function refuseLine(
  orderId: number,
  lineId: number,
  note: string,
  refund?: RefusalRefund,
): Promise<RefusalResult> {
  const at = now();
  const outcome = db().transaction(
    (tx) => {
      const found = openLine(tx, orderId, lineId);
      if (!found.ok) return found;
      tx.update(orderLines)
        .set({ refused: true, refusalNote: note, refusedAt: at })
        .where(eq(orderLines.id, lineId))
        .run();
      // With a refund the mail waits for its outcome, so it says what really happened; a line
      // refunded before (from the order page) is said to be refunded too.
      const refundedBefore =
        lineRefundState(lineId, tx.select().from(refunds).where(eq(refunds.orderId, orderId)).all()) !== null;
      const mailId = refund
        ? null
        : queueRefusalMail(tx, found, note, at, refundedBefore ? found.line.price : null);
      return { ...found, mailId };
    },
    { behavior: "immediate" },
  );
  if (!outcome.ok) return outcome;
  if (!refund) return { ok: true, mail: await send(outcome.mailId) };
  const refunded = await refundOrder({
    orderId,
    lineIds: [lineId],
    amount: null,
    reason: note,
    requestKey: refund.requestKey,
    adminUserId: refund.adminUserId,
  });
  // Refunded now, or before (from the order page): either way the customer gets their money back.
  const made = lineRefundState(lineId, refundsOfOrder(orderId)) !== null;
  const mailId = queueRefusalMail(db(), outcome, note, at, made ? outcome.line.price : null);
  return { ok: true, mail: await send(mailId), refund: refunded };
}

function queueRefusalMail(
  tx: Tx | Db,
  { order, line }: { order: typeof orders.$inferSelect; line: typeof orderLines.$inferSelect },
  note: string,
  at: Date,
  refundedAmount: number | null,
) {
  return queueMail(
    {
      to: order.customerEmail,
      // A later mail about the same line (a corrected note, an undo) replaces one not yet sent.
      topic: `line-refusal:${line.id}`,
      dedupeKey: `line-refusal:${line.id}:${at.getTime()}`,
      mail: lineRefusedMail({ ...mailInput(order, line), note, refundedAmount }),
    },
    tx,
  );
}

/** Undoes お断り (set by mistake, or the video can be made after all) and tells the customer. */
export async function withdrawRefusal(orderId: number, lineId: number): Promise<RefusalResult> {
  const at = now();
  const outcome = db().transaction(
    (tx) => {
      const found = openLine(tx, orderId, lineId);
      if (!found.ok) return found;
      if (!found.line.refused)
        return { ok: false, status: 409, message: "この明細はお断りになっていません。" } as const;
      const made = tx.select().from(refunds).where(eq(refunds.orderId, orderId)).all();
      if (lineRefundState(lineId, made))
        return {
          ok: false,
          status: 409,
          message: "この明細は返金済み（または返金手続き中）のため、お断りを取り消せません。",
        } as const;
      tx.update(orderLines)
        .set({ refused: false, refusalNote: null, refusedAt: null })
        .where(eq(orderLines.id, lineId))
        .run();
      const mailId = queueMail(
        {
          to: found.order.customerEmail,
          topic: `line-refusal:${lineId}`,
          dedupeKey: `line-refusal-withdrawn:${lineId}:${at.getTime()}`,
          mail: lineRefusalWithdrawnMail(mailInput(found.order, found.line)),
        },
        tx,
      );
      return { ok: true, mailId } as const;
    },
    { behavior: "immediate" },
  );
  if (!outcome.ok) return outcome;
  return { ok: true, mail: await send(outcome.mailId) };
}
