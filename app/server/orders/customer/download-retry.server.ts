import { and, eq, gt, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { numberLabelOf } from "~/lib/rules/number-label";
import { now } from "../../core/clock.server";
import { siteUrl } from "../../core/site-url.server";
import { db } from "../../db/client.server";
import { deliveryFiles, downloadPages, orderLines, orders } from "../../db/schema";
import { queueMail, sendQueuedMailNow } from "../../mail/outbox.server";
import { downloadRetryMail } from "../../mail/templates/download-retry.server";
import { refundedLinesOf } from "../../refunds/order-refunds.server";
import { RESUME_WINDOW_MS } from "./downloads.server";

/*
 * The safety net of "each video once": a download the shop saw start and be cut
 * short, and never saw finish, within its 24 hours is offered once more, automatically: the line's
 * window starts afresh at its next request (as the back-office's リセット does), the offer is
 * recorded for the admin (`downloadRetryAt`), and a mail to the order's own address says so and
 * repeats the saving steps. Once per line: a second cut download is the parent's to ask about.
 *
 * What "finished" means is what the server can know: the answer carrying the file's last byte was
 * handed whole to the connection (Node's `finish`), not cut by the connection closing first
 * (server/index.ts gives each request `responseSent`). The page's player is not a download (a
 * video element drops its requests as it seeks), and a file served from a bucket never passes
 * through the server: neither is recorded, so neither is offered again.
 */

/** Whether an answer of the shop's file carries its last byte (a whole 200, or a Range to the end). */
function reachesLastByte(response: Response): boolean {
  if (response.status === 200) return true;
  if (response.status !== 206) return false;
  const range = /^bytes \d+-(\d+)\/(\d+)$/.exec(response.headers.get("Content-Range") ?? "");
  return !!range && Number(range[1]) === Number(range[2]) - 1;
}

/**
 * Records how a download of the line's file ended, once its answer is over: finished when the
 * part to the last byte was sent whole, cut when the connection closed first. `sent` is the
 * request's `responseSent` (absent where no server stands behind the request: nothing is known).
 */
export function watchDownload(lineId: number, response: Response, sent: Promise<boolean> | undefined): void {
  if (!sent || !response.body || (response.status !== 200 && response.status !== 206)) return;
  const toTheEnd = reachesLastByte(response);
  void sent.then((whole) => {
    if (whole && !toTheEnd) return; // a middle part sent: says nothing of the whole file
    recordDownloadEnd(lineId, whole ? "finished" : "cut");
  });
}

/** Writes a download's end on its line: only within a window (a line never started has none). */
export function recordDownloadEnd(lineId: number, end: "finished" | "cut", at: Date = now()): void {
  db()
    .update(orderLines)
    .set(end === "finished" ? { downloadFinishedAt: at } : { downloadCutAt: at })
    .where(and(eq(orderLines.id, lineId), isNotNull(orderLines.downloadStartedAt)))
    .run();
}

/**
 * Offers once more every download due at `at` (of one page `scope.pageId`, when the page itself is asked for:
 * the parent who comes back before the server's pass finds it already offered): its window over
 * while its page lives, cut short within it and never finished within it, never offered before,
 * its file still kept, its line not refunded. Each in one transaction with its mail, so a line
 * is offered, and mailed, once. Returns how many were offered.
 */
export function offerDownloadRetries(scope: { pageId?: string } = {}, at: Date = now()): number {
  const windowOver = new Date(at.getTime() - RESUME_WINDOW_MS);
  const due = db()
    .select({ line: orderLines, order: orders, pageId: downloadPages.id, pageEnd: downloadPages.expiresAt })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .innerJoin(downloadPages, eq(downloadPages.orderId, orders.id))
    .innerJoin(deliveryFiles, eq(deliveryFiles.id, orderLines.deliveryFileId))
    .where(
      and(
        // The partial index order_lines_cut_download_idx: the few lines cut short, not yet offered.
        isNotNull(orderLines.downloadCutAt),
        isNull(orderLines.downloadRetryAt),
        lte(orderLines.downloadStartedAt, windowOver),
        sql`${orderLines.downloadCutAt} >= ${orderLines.downloadStartedAt}`,
        or(
          isNull(orderLines.downloadFinishedAt),
          sql`${orderLines.downloadFinishedAt} < ${orderLines.downloadStartedAt}`,
        ),
        eq(orderLines.refused, false),
        isNull(deliveryFiles.deletedAt),
        gt(downloadPages.expiresAt, at),
        scope.pageId !== undefined ? eq(downloadPages.id, scope.pageId) : undefined,
      ),
    )
    .all();
  if (due.length === 0) return 0;
  const refunded = refundedLinesOf(due.map(({ order }) => order.id));
  let offered = 0;
  for (const { line, order, pageId, pageEnd } of due) {
    if (refunded.has(line.id)) continue;
    const mailId = db().transaction(
      (tx) => {
        // Only the window seen: a request that started it again meanwhile, or another pass, wins.
        const changed = tx
          .update(orderLines)
          .set({ downloadStartedAt: null, downloadRetryAt: at })
          .where(
            and(
              eq(orderLines.id, line.id),
              isNull(orderLines.downloadRetryAt),
              eq(orderLines.downloadStartedAt, line.downloadStartedAt!),
            ),
          )
          .run().changes;
        if (changed !== 1) return null;
        return queueMail(
          {
            to: order.customerEmail,
            dedupeKey: `download-retry:${line.id}`,
            expiresAt: pageEnd,
            mail: downloadRetryMail({
              customerName: order.customerName,
              orderNumber: order.orderNumber,
              contestName: order.contestName,
              video: `${line.category} / ${numberLabelOf(order)} ${line.athleteNumber} ${line.athleteName}（${line.style}）`,
              url: siteUrl(`/download/${pageId}`),
              expiresAt: pageEnd,
            }),
          },
          tx,
        );
      },
      { behavior: "immediate" },
    );
    if (mailId === null) continue;
    offered++;
    // Sent at once (the parent may be waiting on the page); the outbox retries it if SMTP is down.
    void sendQueuedMailNow(mailId, "download offered again");
  }
  return offered;
}
