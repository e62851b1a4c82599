import type { VideoProbe } from "~/lib/rules/video-versions";
import { queueMediaJobs } from "../media/jobs/queue.server";
import crypto from "node:crypto";
import { DELIVERY_MESSAGES } from "~/lib/schemas/delivery-schemas";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { deliveryFiles, downloadPages, orderLines, orders } from "../db/schema";
import { env } from "../core/env.server";
import { siteUrl } from "../core/site-url.server";
import { deliveryMail } from "../mail/templates/delivery.server";
import { queueMail, sendQueuedMailNow, sendThroughOutbox, type OutgoingMail } from "../mail/outbox.server";
import { DAY_MS } from "~/lib/rules/tokyo-date";
import type { Orientation } from "~/lib/rules/pricing";
import { deliveryPlan } from "./delivery-plan.server";
import { matchKey } from "./file-names.server";
import { waitingFileUser } from "./file-use.server";
import { linesWithoutVideo } from "./lines-without-video.server";

/**
 * An order and its lines handled without a delivery (対応済み): no download page, no mail. 完了
 * does it, and 一括納品 for an order with no video to send that the admin ticked.
 */
export function closeAsHandled(tx: Tx, orderId: number): void {
  tx.update(orders).set({ status: "対応済み" }).where(eq(orders.id, orderId)).run();
  tx.update(orderLines).set({ status: "対応済み" }).where(eq(orderLines.orderId, orderId)).run();
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
  db().transaction((tx) => closeAsHandled(tx, orderId));
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

/** 納品 of an order whose every line is お断り or refunded: nothing to deliver, 完了 closes it. */
export const NOTHING_TO_DELIVER_MESSAGE =
  "すべての明細がお断りまたは返金済みのため、納品する動画がありません。「完了」で対応済みにしてください。";

/** 納品メールを再送信 of an order whose every line was refunded or refused since: nothing to fetch. */
export const NO_VIDEO_TO_MAIL =
  "すべての明細が返金済みまたはお断りのため、ダウンロードできる動画がありません。納品メールは送りません。";

/** Only paid orders are delivered: a konbini order waits for its store payment. */
export const UNPAID_MESSAGE = "この注文はお支払いが確認できていないため、納品できません。";

/** What 納品 tells the admin, by what became of the delivery mail (the order list's toast, the JSON call's message). */
export const DELIVERED_MESSAGES = {
  sent: "お客様にメールを送信しました。",
  queued:
    "ダウンロードURLと状態は更新されましたが、お客様へのメール送信に失敗しました。メールサーバーが復旧ししだい自動で再送します。",
  "already-sent": "納品済みです（メールは送信済みのため再送していません）。",
} as const;

type DeliverRefusal = { ok: false; status: 400 | 404 | 409; message: string };

export type DeliverResult =
  DeliverRefusal | { ok: true; mail: "sent" | "queued" | "already-sent"; pageId: string };

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
 * A line left without either takes the file the 納品ファイル tab has for its athlete and style
 * (the plan's, put to use as 一括納品 would), so a video uploaded there is not asked for again;
 * a line marked お断り or refunded is not waited for and gets no video.
 */
export async function deliverOrder(
  orderId: number,
  urls: Map<number, string>,
  files: Map<number, AttachedVideo> = new Map(),
): Promise<DeliverResult> {
  const order = db().select().from(orders).where(eq(orders.id, orderId)).get();
  if (!order) return { ok: false, status: 404, message: "注文が見つかりません" };
  if (order.paymentStatus !== "paid") return { ok: false, status: 409, message: UNPAID_MESSAGE };
  const at = now();
  // Read, checked and written in one transaction: the plan's files are the ones put to use.
  const outcome = db().transaction(
    (tx): DeliverRefusal | { ok: true; pageId: string; mailId: number | null } => {
      const lines = linesToDeliver(tx, orderId);
      if (lines.length === 0) return { ok: false, status: 409, message: NOTHING_TO_DELIVER_MESSAGE };
      const plan = order.contestId ? deliveryPlan(order.contestId, tx) : null;
      const tabFileOf = (line: DeliveredLine) =>
        plan && line.athleteId !== null
          ? plan.fileForKey.get(matchKey(line.athleteId, line.orientation))
          : undefined;
      // Every line checked before anything is written: all or nothing.
      for (const line of lines) {
        if (files.has(line.id)) continue;
        const url = urls.get(line.id)?.trim() ?? "";
        if (url && !isDownloadUrl(url)) return { ok: false, status: 400, message: DELIVERY_MESSAGES.badUrl };
        if (!url && tabFileOf(line) === undefined)
          return { ok: false, status: 400, message: DELIVERY_MESSAGES.missingUrl };
      }
      const tabFiles = waitingFileUser(tx, at);
      const deliveries = new Map<number, LineDelivery>();
      for (const line of lines) {
        const file = files.get(line.id);
        const url = urls.get(line.id)?.trim() ?? "";
        if (file) deliveries.set(line.id, { fileId: attachVideo(tx, order.contestId, line, file, at) });
        else if (url) deliveries.set(line.id, { url });
        else {
          // The tab's file, put to use as 一括納品 puts it (a corrected one takes over the lines it replaces).
          const fileId = tabFileOf(line) ?? 0;
          const waiting = plan?.waiting.find((candidate) => candidate.id === fileId);
          if (waiting) tabFiles.putToUse(waiting);
          deliveries.set(line.id, { fileId });
        }
      }
      return { ok: true, ...recordDelivery(tx, orderId, deliveries, at) };
    },
    { behavior: "immediate" },
  );
  if (!outcome.ok) return outcome;
  const { pageId, mailId } = outcome;
  if (mailId === null) return { ok: true, mail: "already-sent", pageId };
  const mail = await sendQueuedMailNow(mailId, `delivery mail for order ${orderId}`);
  return { ok: true, mail, pageId };
}

type DeliveredLine = { id: number; athleteId: number | null; orientation: Orientation };

/** The order's lines that get a video: not お断り, not refunded. */
function linesToDeliver(tx: Tx, orderId: number): DeliveredLine[] {
  const without = linesWithoutVideo([orderId], tx);
  return tx
    .select({ id: orderLines.id, athleteId: orderLines.athleteId, orientation: orderLines.orientation })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .all()
    .filter((line) => !without.has(line.id));
}

/** A video attached to one line in the order list, stored as a file of its own (retired: no other line takes it). */
function attachVideo(
  tx: Tx,
  contestId: number | null,
  line: DeliveredLine,
  file: AttachedVideo,
  at: Date,
): number {
  const row = tx
    .insert(deliveryFiles)
    .values({
      ...file,
      contestId,
      athleteId: line.athleteId,
      orientation: line.orientation,
      uploadedAt: at,
      retiredAt: at,
    })
    .returning({ id: deliveryFiles.id })
    .get();
  // Its poster and phone version come later; the download page offers the original meanwhile.
  queueMediaJobs("delivery", row.id, ["poster", "phone"], tx);
  return row.id;
}

/**
 * Records an order's delivery inside `tx`, the one place both 納品 and 一括納品 go through:
 * every line that gets a video gets its file or URL and 納品済み (a line marked お断り or
 * refunded gets none and is 対応済み), the order is 納品済み, its download page is made
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
  const without = linesWithoutVideo([orderId], tx);
  // Likewise: an order with no video to send gets no download page and no mail (完了 closes it).
  if (videoCountOf(tx, orderId, without) === 0) throw new Error(`order ${orderId} has no video to deliver`);
  for (const [lineId, delivery] of deliveries) {
    // A line marked お断り or refunded never gets a video, whatever a caller passes.
    if (without.has(lineId)) continue;
    tx.update(orderLines)
      .set(
        "fileId" in delivery
          ? { deliveryFileId: delivery.fileId, videoDownloadUrl: null, status: "納品済み" }
          : { videoDownloadUrl: delivery.url, deliveryFileId: null, status: "納品済み" },
      )
      .where(eq(orderLines.id, lineId))
      .run();
  }
  // Lines that get no video are handled (対応済み) with the order's delivery.
  tx.update(orderLines)
    .set({ status: "対応済み" })
    .where(
      and(
        eq(orderLines.orderId, orderId),
        inArray(orderLines.id, [...without.keys()]),
        eq(orderLines.status, "未対応"),
      ),
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

type Reader = Pick<Tx, "select">;

/** The videos an order's download page offers: its lines less those marked お断り or refunded. */
function videoCountOf(
  reader: Reader,
  orderId: number,
  without = linesWithoutVideo([orderId], reader),
): number {
  return reader
    .select({ id: orderLines.id })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .all()
    .filter((line) => !without.has(line.id)).length;
}

/**
 * 動画のご用意ができました for an order's download page, counting the videos it offers (not the
 * lines marked お断り or refunded); null when it offers none: such an order is never told a
 * video is ready.
 */
function deliveryMailFor(
  reader: Reader,
  orderId: number,
  page: { id: string; expiresAt: Date },
): Omit<OutgoingMail, "dedupeKey"> | null {
  const order = reader.select().from(orders).where(eq(orders.id, orderId)).get();
  if (!order) return null;
  const videoCount = videoCountOf(reader, orderId);
  if (videoCount === 0) return null;
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

/**
 * Sends the delivery mail again (the customer lost it). "queued" when SMTP refused it now: the
 * outbox retries it; "no-video" when every line was refunded or refused since: nothing to fetch.
 */
export async function resendDeliveryMail(
  orderId: number,
): Promise<"sent" | "queued" | "no-page" | "no-video"> {
  const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, orderId)).get();
  if (!page) return "no-page";
  const mail = deliveryMailFor(db(), orderId, page);
  if (!mail) return "no-video";
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
