import type { VideoProbe } from "~/lib/rules/video-versions";
import { queueMediaJobs } from "../media/jobs/queue.server";
import crypto from "node:crypto";
import { DELIVERY_MESSAGES } from "~/lib/schemas/delivery-schemas";
import { and, count, eq, isNull } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { deliveryFiles, downloadPages, orderLines, orders, type OrderStatus } from "../db/schema";
import { env } from "../core/env.server";
import { siteUrl } from "../core/site-url.server";
import { deliveryMail } from "../mail/templates/delivery.server";
import { queueMail, sendQueuedMailNow, sendThroughOutbox, type OutgoingMail } from "../mail/outbox.server";
import { DAY_MS } from "~/lib/rules/tokyo-date";

function setStatus(orderId: number, status: OrderStatus) {
  db().transaction((tx) => {
    tx.update(orders).set({ status }).where(eq(orders.id, orderId)).run();
    tx.update(orderLines).set({ status }).where(eq(orderLines.orderId, orderId)).run();
  });
}

/** 完了: the group is handled without a delivery (e.g. refused, or delivered by hand). */
export function completeOrder(orderId: number): boolean {
  const order = db()
    .select({ id: orders.id, paymentStatus: orders.paymentStatus })
    .from(orders)
    .where(eq(orders.id, orderId))
    .get();
  // An order whose money is not in (入金待ち, 期限切れ) is neither made nor closed as handled.
  if (!order || order.paymentStatus !== "paid") return false;
  setStatus(orderId, "対応済み");
  return true;
}

export function isDownloadUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && value.length <= 2000;
  } catch {
    return false;
  }
}

/** 納品 of an order whose every line is お断り: nothing to deliver, 完了 closes it. */
export const ALL_REFUSED_MESSAGE =
  "すべての明細がお断りのため、納品する動画がありません。「完了」で対応済みにしてください。";

/** Only paid orders are delivered: a konbini order waits for its store payment. */
export const UNPAID_MESSAGE = "この注文はお支払いが確認できていないため、納品できません。";

/** What 納品 tells the admin, by what became of the delivery mail (the order list's toast, the JSON call's message). */
export const DELIVERED_MESSAGES = {
  sent: "お客様にメールを送信しました。",
  queued:
    "ダウンロードURLと状態は更新されましたが、お客様へのメール送信に失敗しました。メールサーバーが復旧ししだい自動で再送します。",
  "already-sent": "納品済みです（メールは送信済みのため再送していません）。",
} as const;

export type DeliverResult =
  | { ok: false; status: 400 | 404 | 409; message: string }
  | { ok: true; mail: "sent" | "queued" | "already-sent"; pageId: string };

/** A video attached to one line in the order list, already probed and stored under the shop's name. */
export type AttachedVideo = {
  storedName: string;
  originalName: string;
  contentType: string;
  size: number;
  video: VideoProbe;
};

/** What one order line is delivered with: a file of the shop, or a URL elsewhere. */
export type LineDelivery = { fileId: number } | { url: string };

/**
 * 納品: saves every line's URL or attached video (all or nothing), makes the order's download
 * page, moves the order to handled, and mails the customer once. "Once" holds for a double
 * click, a resubmitted form and two admins: the first delivery marks the order and queues the
 * mail in one transaction; a mail the SMTP server refuses now is retried by the outbox.
 * An attached video is a one-off for its line: it is not offered to other orders of the athlete.
 */
export async function deliverOrder(
  orderId: number,
  urls: Map<number, string>,
  files: Map<number, AttachedVideo> = new Map(),
): Promise<DeliverResult> {
  const order = db().select().from(orders).where(eq(orders.id, orderId)).get();
  if (!order) return { ok: false, status: 404, message: "注文が見つかりません" };
  if (order.paymentStatus !== "paid") return { ok: false, status: 409, message: UNPAID_MESSAGE };
  // A line marked お断り is not waited for: the others are delivered without it.
  const lines = db()
    .select({ id: orderLines.id, athleteId: orderLines.athleteId, orientation: orderLines.orientation })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), eq(orderLines.refused, false)))
    .all();
  if (lines.length === 0) return { ok: false, status: 409, message: ALL_REFUSED_MESSAGE };
  for (const line of lines) {
    const url = urls.get(line.id)?.trim() ?? "";
    if (files.has(line.id)) continue;
    if (!url) return { ok: false, status: 400, message: DELIVERY_MESSAGES.missingUrl };
    if (!isDownloadUrl(url)) return { ok: false, status: 400, message: DELIVERY_MESSAGES.badUrl };
  }
  const at = now();
  const { pageId, mailId } = db().transaction(
    (tx) => {
      const deliveries = new Map<number, LineDelivery>();
      for (const line of lines) {
        const file = files.get(line.id);
        if (!file) {
          deliveries.set(line.id, { url: urls.get(line.id)?.trim() ?? "" });
          continue;
        }
        const row = tx
          .insert(deliveryFiles)
          .values({
            ...file,
            contestId: order.contestId,
            athleteId: line.athleteId,
            orientation: line.orientation,
            uploadedAt: at,
            retiredAt: at,
          })
          .returning({ id: deliveryFiles.id })
          .get();
        // Its poster and phone version come later; the download page offers the original meanwhile.
        queueMediaJobs("delivery", row.id, ["poster", "phone"], tx);
        deliveries.set(line.id, { fileId: row.id });
      }
      return recordDelivery(tx, orderId, deliveries, at);
    },
    { behavior: "immediate" },
  );
  if (mailId === null) return { ok: true, mail: "already-sent", pageId };
  const mail = await sendQueuedMailNow(mailId, `delivery mail for order ${orderId}`);
  return { ok: true, mail, pageId };
}

/**
 * Records an order's delivery inside `tx`, the one place both 納品 and 一括納品 go through:
 * every line gets its file or URL and 納品済み, the order is 納品済み, its download page is made
 * or, when it has one, kept open at least the usual days from now, and the delivery mail is
 * queued the first time only.
 * Returns the page and the queued mail (null: the customer was mailed before).
 */
export function recordDelivery(
  tx: Tx,
  orderId: number,
  deliveries: Map<number, LineDelivery>,
  at: Date,
): { pageId: string; mailId: number | null } {
  // The last line of defence, under every delivery path: an unpaid order gets no download page.
  const payment = tx
    .select({ status: orders.paymentStatus })
    .from(orders)
    .where(eq(orders.id, orderId))
    .get();
  if (payment?.status !== "paid") throw new Error(`order ${orderId} is not paid and cannot be delivered`);
  for (const [lineId, delivery] of deliveries) {
    tx.update(orderLines)
      .set(
        "fileId" in delivery
          ? { deliveryFileId: delivery.fileId, videoDownloadUrl: null, status: "納品済み" }
          : { videoDownloadUrl: delivery.url, deliveryFileId: null, status: "納品済み" },
      )
      .where(eq(orderLines.id, lineId))
      .run();
  }
  // Lines marked お断り get no video: they are handled (対応済み) with the order's delivery.
  tx.update(orderLines)
    .set({ status: "対応済み" })
    .where(
      and(eq(orderLines.orderId, orderId), eq(orderLines.refused, true), eq(orderLines.status, "未対応")),
    )
    .run();
  tx.update(orders).set({ status: "納品済み" }).where(eq(orders.id, orderId)).run();
  const expiresAt = new Date(at.getTime() + env().DOWNLOAD_EXPIRY_DAYS * DAY_MS);
  let page = tx.select().from(downloadPages).where(eq(downloadPages.orderId, orderId)).get();
  if (!page) {
    page = tx
      .insert(downloadPages)
      .values({ id: crypto.randomBytes(16).toString("base64url"), orderId, createdAt: at, expiresAt })
      .returning()
      .get();
  } else if (page.expiresAt < expiresAt) {
    page = tx.update(downloadPages).set({ expiresAt }).where(eq(downloadPages.id, page.id)).returning().get();
  }
  const firstDelivery =
    tx
      .update(orders)
      .set({ deliveryMailSentAt: at })
      .where(and(eq(orders.id, orderId), isNull(orders.deliveryMailSentAt)))
      .run().changes === 1;
  const mail = firstDelivery ? deliveryMailFor(tx, orderId, page) : null;
  return {
    pageId: page.id,
    mailId: mail ? queueMail({ ...mail, dedupeKey: `delivery:${orderId}` }, tx) : null,
  };
}

type Reader = Pick<ReturnType<typeof db>, "select">;

function deliveryMailFor(
  reader: Reader,
  orderId: number,
  page: { id: string; expiresAt: Date },
): Omit<OutgoingMail, "dedupeKey"> | null {
  const order = reader.select().from(orders).where(eq(orders.id, orderId)).get();
  if (!order) return null;
  const videoCount =
    reader
      .select({ n: count() })
      .from(orderLines)
      .where(and(eq(orderLines.orderId, orderId), eq(orderLines.refused, false)))
      .get()?.n ?? 0;
  return {
    to: order.customerEmail,
    // A resend replaces a delivery mail still waiting for SMTP, so the customer gets one, not two.
    topic: `delivery:${orderId}`,
    mail: deliveryMail({
      customerName: order.customerName,
      orderNumber: order.orderNumber,
      contestName: order.contestName,
      url: siteUrl(`/download/${page.id}`),
      expiresAt: page.expiresAt,
      videoCount,
    }),
  };
}

/** Sends the delivery mail again (the customer lost it). "queued" when SMTP refused it now: the outbox retries it. */
export async function resendDeliveryMail(orderId: number): Promise<"sent" | "queued" | "no-page"> {
  const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, orderId)).get();
  const mail = page ? deliveryMailFor(db(), orderId, page) : null;
  if (!mail) return "no-page";
  const sent = await sendThroughOutbox(mail);
  if (sent) db().update(orders).set({ deliveryMailSentAt: now() }).where(eq(orders.id, orderId)).run();
  return sent ? "sent" : "queued";
}

/** Lets a line be downloaded again (a broken file, a lost phone). */
export function resetLineDownload(orderId: number, lineId: number): boolean {
  return (
    db()
      .update(orderLines)
      .set({ downloadStartedAt: null })
      .where(and(eq(orderLines.id, lineId), eq(orderLines.orderId, orderId)))
      .run().changes === 1
  );
}

/** Moves the download page's expiry N days past the later of now and the current expiry. */
export function extendDownloadPage(orderId: number, days: number): Date | null {
  const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, orderId)).get();
  if (!page) return null;
  const from = Math.max(page.expiresAt.getTime(), now().getTime());
  const expiresAt = new Date(from + days * DAY_MS);
  db().update(downloadPages).set({ expiresAt }).where(eq(downloadPages.id, page.id)).run();
  return expiresAt;
}
