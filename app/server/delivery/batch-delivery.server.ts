import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { matchKey } from "~/server/delivery/file-names.server";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { orderLines, orders } from "../db/schema";
import { sendQueuedMailNow } from "../mail/outbox.server";
import {
  closeAsHandled,
  recordDelivery,
  resendDeliveryMail,
  type LineDelivery,
} from "./order-delivery.server";
import { waitingFileUser } from "./file-use.server";
import { deliveryPlan, type DeliveryPlan } from "./delivery-plan.server";
import type { WaitingFile } from "./plan/files.server";
import type { OpenOrder } from "./plan/open-orders.server";

export type BatchDeliveryResult = {
  delivered: OpenOrder[];
  /** Orders still missing a file for a line: they stay 未対応. */
  incomplete: OpenOrder[];
  /** Orders with no video to send that the admin ticked: closed as 対応済み, with no mail. */
  closed: OpenOrder[];
  /** Orders with no video to send that the admin did not tick: they stay 未対応. */
  unconfirmed: OpenOrder[];
  /** Delivered orders that now have a corrected file: the customer is not mailed unless the admin asks. */
  replaced: { id: number; orderNumber: string }[];
  mails: number;
};

/**
 * 一括納品: in one transaction, every waiting file that is matched for sure is put to use (a
 * corrected file takes over the lines of the delivered file it replaces, whose downloads start
 * afresh), and every open order whose lines that get a video all have a file is delivered
 * through the same recordDelivery as a single 納品 (download page made or extended, one delivery
 * mail queued, 納品済み; its お断り and refunded lines get no video). An order with no video to
 * send (every line お断り or refunded) is never delivered: it is closed as 対応済み, with no
 * mail, only when the admin ticked it (`closeOrderIds`, the plan's own warning), else it stays.
 * Running it again finds nothing open and queues no mail. The mails are sent after the commit,
 * one by one in the background; the outbox retries any the SMTP server refuses.
 */
export function deliverContest(
  contestId: number,
  options: { closeOrderIds?: readonly number[] } = {},
): BatchDeliveryResult | null {
  const at = now();
  const confirmed = new Set(options.closeOrderIds ?? []);
  const result = db().transaction(
    (tx) => {
      const plan = deliveryPlan(contestId, tx);
      if (!plan) return null;
      const files = waitingFileUser(tx, at);
      for (const file of plan.toUse) if (file.replaces) files.putToUse(file);
      const mailIds = deliverReadyOrders(tx, plan, files.putToUse, at);
      // Only an order the plan still has nothing to send for: one ticked on an older page that
      // got a video meanwhile, or another contest's, is not closed by the tick.
      const closed = plan.nothingToDeliver.filter((order) => confirmed.has(order.id));
      for (const order of closed) closeAsHandled(tx, order.id);
      return {
        delivered: plan.ready,
        incomplete: plan.incomplete,
        closed,
        unconfirmed: plan.nothingToDeliver.filter((order) => !confirmed.has(order.id)),
        replaced: [...files.replaced].map(([id, orderNumber]) => ({ id, orderNumber })),
        mailIds,
      };
    },
    { behavior: "immediate" },
  );
  if (!result) return null;
  void sendInTurn(result.mailIds);
  const { mailIds, ...summary } = result;
  return { ...summary, mails: mailIds.length };
}

/**
 * Every ready order delivered through recordDelivery, each line that gets a video with the file
 * of its athlete and style (a waiting file used is put to use). Answers the ids of the delivery
 * mails queued.
 */
function deliverReadyOrders(
  tx: Tx,
  plan: DeliveryPlan,
  putToUse: (file: WaitingFile) => void,
  at: Date,
): number[] {
  const mailIds: number[] = [];
  if (plan.ready.length === 0) return mailIds;
  const waitingById = new Map(plan.waiting.map((file) => [file.id, file]));
  const without = new Set(plan.ready.flatMap((order) => order.withoutVideo.map((line) => line.lineId)));
  const lines = tx
    .select({
      id: orderLines.id,
      orderId: orderLines.orderId,
      athleteId: orderLines.athleteId,
      orientation: orderLines.orientation,
    })
    .from(orderLines)
    .where(
      and(
        inArray(
          orderLines.orderId,
          plan.ready.map((order) => order.id),
        ),
        isNotNull(orderLines.athleteId),
      ),
    )
    .all();
  for (const order of plan.ready) {
    const deliveries = new Map<number, LineDelivery>();
    for (const line of lines) {
      if (line.orderId !== order.id || line.athleteId === null || without.has(line.id)) continue;
      const fileId = plan.fileForKey.get(matchKey(line.athleteId, line.orientation));
      if (fileId === undefined) continue;
      deliveries.set(line.id, { fileId });
      const waiting = waitingById.get(fileId);
      if (waiting) putToUse(waiting);
    }
    const { mailId } = recordDelivery(tx, order.id, deliveries, at);
    if (mailId !== null) mailIds.push(mailId);
  }
  return mailIds;
}

/** One SMTP conversation at a time, so a batch of 150 does not open 150 connections at once. */
async function sendInTurn(mailIds: number[]): Promise<void> {
  for (const id of mailIds) await sendQueuedMailNow(id, "delivery mail");
}

/** 納品メールを再送信 for an order of this contest whose file was replaced (the customer may fetch the corrected video). */
export async function resendAfterReplacement(
  contestId: number,
  orderId: number,
): Promise<Awaited<ReturnType<typeof resendDeliveryMail>> | "not-found"> {
  const order = db()
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.contestId, contestId)))
    .get();
  if (!order) return "not-found";
  return resendDeliveryMail(order.id);
}
