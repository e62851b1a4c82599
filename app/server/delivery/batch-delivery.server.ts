import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { matchKey } from "~/server/delivery/file-names.server";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { deliveryFiles, orderLines, orders } from "../db/schema";
import { sendQueuedMailNow } from "../mail/outbox.server";
import { recordDelivery, resendDeliveryMail, type LineDelivery } from "./order-delivery.server";
import { retireFile } from "./delivery-files.server";
import { deliveryPlan, type DeliveryPlan } from "./delivery-plan.server";
import type { WaitingFile } from "./plan/files.server";
import type { OpenOrder } from "./plan/open-orders.server";

export type BatchDeliveryResult = {
  delivered: OpenOrder[];
  /** Orders still missing a file for a line: they stay 未対応. */
  incomplete: OpenOrder[];
  /** Delivered orders that now have a corrected file: the customer is not mailed unless the admin asks. */
  replaced: { id: number; orderNumber: string }[];
  mails: number;
};

/**
 * 一括納品: in one transaction, every waiting file that is matched for sure is put to use (a
 * corrected file takes over the lines of the delivered file it replaces, whose downloads start
 * afresh), and every open order whose lines all have a file is delivered through the same
 * recordDelivery as a single 納品 (download page made or extended, one delivery mail queued,
 * 納品済み). Running it again finds nothing open and queues no mail. The mails are sent after
 * the commit, one by one in the background; the outbox retries any the SMTP server refuses.
 */
export function deliverContest(contestId: number): BatchDeliveryResult | null {
  const at = now();
  const result = db().transaction(
    (tx) => {
      const plan = deliveryPlan(contestId, tx);
      if (!plan) return null;
      const settle = settler(tx);
      const replaced = putReplacementsToUse(tx, plan, settle, at);
      const mailIds = deliverReadyOrders(tx, plan, settle, at);
      return {
        delivered: plan.ready,
        incomplete: plan.incomplete,
        replaced: [...replaced].map(([id, orderNumber]) => ({ id, orderNumber })),
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
 * Records a waiting file's match on the file, once: a file put to use is known for sure from
 * then on, so a later rename of the athlete does not move it.
 */
function settler(tx: Tx) {
  const settled = new Set<number>();
  return (file: WaitingFile) => {
    if (file.match.kind !== "matched" || settled.has(file.id)) return;
    const { athleteId, orientation } = file.match;
    tx.update(deliveryFiles).set({ athleteId, orientation }).where(eq(deliveryFiles.id, file.id)).run();
    settled.add(file.id);
  };
}

/**
 * Each corrected file takes over the lines of the delivered file it replaces, whose downloads
 * start afresh; the old file is retired and its orders marked changed. Answers those orders
 * (id → order number), which are not mailed unless the admin asks.
 */
function putReplacementsToUse(
  tx: Tx,
  plan: DeliveryPlan,
  settle: (file: WaitingFile) => void,
  at: Date,
): Map<number, string> {
  const replaced = new Map<number, string>();
  for (const file of plan.toUse) {
    if (file.match.kind !== "matched" || !file.replaces) continue;
    settle(file);
    const moved = tx
      .update(orderLines)
      .set({ deliveryFileId: file.id, downloadStartedAt: null })
      .where(eq(orderLines.deliveryFileId, file.replaces.fileId))
      .returning({ orderId: orderLines.orderId })
      .all();
    retireFile(tx, file.replaces.fileId, at);
    const orderIds = [...new Set(moved.map((line) => line.orderId))];
    if (orderIds.length === 0) continue;
    tx.update(orders).set({ deliveryChangedAt: at }).where(inArray(orders.id, orderIds)).run();
    for (const order of tx
      .select({ id: orders.id, orderNumber: orders.orderNumber })
      .from(orders)
      .where(inArray(orders.id, orderIds))
      .all())
      replaced.set(order.id, order.orderNumber);
  }
  return replaced;
}

/**
 * Every ready order delivered through recordDelivery, each line with the file of its athlete
 * and style (a waiting file used is settled). Answers the ids of the delivery mails queued.
 */
function deliverReadyOrders(
  tx: Tx,
  plan: DeliveryPlan,
  settle: (file: WaitingFile) => void,
  at: Date,
): number[] {
  const mailIds: number[] = [];
  if (plan.ready.length === 0) return mailIds;
  const waitingById = new Map(plan.waiting.map((file) => [file.id, file]));
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
      if (line.orderId !== order.id || line.athleteId === null) continue;
      const fileId = plan.fileForKey.get(matchKey(line.athleteId, line.orientation));
      if (fileId === undefined) continue;
      deliveries.set(line.id, { fileId });
      const waiting = waitingById.get(fileId);
      if (waiting) settle(waiting);
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
): Promise<"sent" | "queued" | "no-page" | "not-found"> {
  const order = db()
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.contestId, contestId)))
    .get();
  if (!order) return "not-found";
  return resendDeliveryMail(order.id);
}
