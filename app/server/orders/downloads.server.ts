import { and, asc, eq, isNull } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { deliveryFiles, downloadPages, orderLines, orders } from "../db/schema";

/** A started download may be resumed for 24 hours without counting again (a phone's connection drops). */
export const RESUME_WINDOW_MS = 24 * 3600_000;

export type DownloadFormat = "horizontal" | "vertical";

/** The download page of an id, or null. The id is 128 random bits: guessing one is hopeless. */
export function downloadPage(id: string) {
  if (!/^[A-Za-z0-9_-]{22}$/.test(id)) return null;
  const page = db().select().from(downloadPages).where(eq(downloadPages.id, id)).get();
  if (!page) return null;
  const order = db().select().from(orders).where(eq(orders.id, page.orderId)).get();
  if (!order) return null;
  const lines = db()
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.id))
    .all();
  const at = now();
  const expired = page.expiresAt <= at;
  return {
    id: page.id,
    orderNumber: order.orderNumber,
    createdAt: page.createdAt,
    expiresAt: page.expiresAt,
    expired,
    bibNumberLabel: order.bibNumberLabel || "ゼッケン番号",
    lines: lines.map((line) => ({
      id: line.id,
      contestName: line.contestName,
      category: line.category,
      athleteNumber: line.athleteNumber,
      athleteName: line.athleteName,
      style: line.style,
      orientation: line.orientation,
      price: line.price,
      delivered: Boolean(line.videoDownloadUrl || line.deliveryFileId),
      /** お断り: the shop's note; the line has no video. */
      refusalNote: line.productionPossible ? (line.refusalNote ?? "") : null,
      downloaded:
        line.downloadStartedAt !== null &&
        at.getTime() - line.downloadStartedAt.getTime() >= RESUME_WINDOW_MS,
      // Resuming ends with the page: an expired page promises nothing, a page expiring first ends the window.
      resumableUntil:
        !expired &&
        line.downloadStartedAt &&
        at.getTime() - line.downloadStartedAt.getTime() < RESUME_WINDOW_MS
          ? new Date(Math.min(line.downloadStartedAt.getTime() + RESUME_WINDOW_MS, page.expiresAt.getTime()))
          : null,
    })),
  };
}

export type DownloadDecision =
  | { ok: true; kind: "redirect"; url: string }
  | { ok: true; kind: "file"; storedName: string }
  | { ok: false; status: 404 | 410; message: string };

/**
 * Whether a line may be fetched now, counting the download: the first request starts
 * the 24-hour window, requests inside it (resumes, Range requests) are free, later
 * ones are refused. Only the line's own format, only before the page expires.
 */
export function claimDownload(pageId: string, lineId: number, format: string): DownloadDecision {
  const page = downloadPage(pageId);
  const line = page ? db().select().from(orderLines).where(eq(orderLines.id, lineId)).get() : undefined;
  if (!page || !line || !page.lines.some((l) => l.id === lineId))
    return { ok: false, status: 404, message: "ダウンロードページが見つからないか、有効期限が切れています" };
  if (page.expired) return { ok: false, status: 410, message: "ダウンロードの有効期限が切れています" };
  if (line.orientation !== format || !(line.videoDownloadUrl || line.deliveryFileId))
    return { ok: false, status: 404, message: "この形式の動画はありません" };
  const file = line.deliveryFileId
    ? db()
        .select({ storedName: deliveryFiles.storedName, deletedAt: deliveryFiles.deletedAt })
        .from(deliveryFiles)
        .where(eq(deliveryFiles.id, line.deliveryFileId))
        .get()
    : undefined;
  if (file?.deletedAt)
    return {
      ok: false,
      status: 410,
      message: "この動画の保存期間は終了しました。再度必要な場合はお問い合わせください。",
    };
  const at = now();
  if (line.downloadStartedAt && at.getTime() - line.downloadStartedAt.getTime() >= RESUME_WINDOW_MS) {
    return {
      ok: false,
      status: 410,
      message: "この動画はダウンロード済みです。再度必要な場合はお問い合わせください。",
    };
  }
  if (!line.downloadStartedAt) {
    // Atomic: of two first requests at once, one starts the window and both proceed inside it.
    db()
      .update(orderLines)
      .set({ downloadStartedAt: at })
      .where(and(eq(orderLines.id, lineId), isNull(orderLines.downloadStartedAt)))
      .run();
  }
  if (file) return { ok: true, kind: "file", storedName: file.storedName };
  return { ok: true, kind: "redirect", url: line.videoDownloadUrl ?? "" };
}
