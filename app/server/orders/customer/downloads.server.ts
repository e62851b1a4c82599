import { and, eq, isNull } from "drizzle-orm";
import { now } from "../../core/clock.server";
import { db } from "../../db/client.server";
import { deliveryFiles, downloadPages, orderLines, orders } from "../../db/schema";
import { lineRefundState, refundedLineIds } from "~/lib/rules/refunds";
import { refundsOfOrder } from "../../refunds/order-refunds.server";
import { boughtLine, isDelivered, linesOfOrder, refusalNoteOf } from "../order-lines.server";
import { downloadVideosOf, phoneJobsPending } from "./download-videos.server";
import { DAY_MS } from "~/lib/rules/tokyo-date";

/** A started download may be resumed for 24 hours without counting again (a phone's connection drops). */
export const RESUME_WINDOW_MS = DAY_MS;

export type DownloadFormat = "horizontal" | "vertical";

/**
 * The versions of a delivered video a parent may fetch: the original as uploaded, or the 720p
 * phone version (media job `phone`). Either counts as the video's download.
 */
export type VideoVersion = "original" | "phone";

/** The download page of an id, or null. The id is 128 random bits: guessing one is hopeless. */
export function downloadPage(id: string) {
  if (!/^[A-Za-z0-9_-]{22}$/.test(id)) return null;
  const page = db().select().from(downloadPages).where(eq(downloadPages.id, id)).get();
  if (!page) return null;
  const order = db().select().from(orders).where(eq(orders.id, page.orderId)).get();
  if (!order) return null;
  const at = now();
  const expired = page.expiresAt <= at;
  const refunds = refundsOfOrder(order.id);
  const lines = linesOfOrder(order.id);
  // A refunded line's video is not the customer's any more: neither offered nor fetched.
  const refunded = refundedLineIds(
    { totalAmount: order.totalAmount, lineIds: lines.map((line) => line.id) },
    refunds,
  );
  const videos = downloadVideosOf(
    lines.flatMap((line) => (line.deliveryFileId && !refunded.has(line.id) ? [line.deliveryFileId] : [])),
  );
  return {
    id: page.id,
    orderNumber: order.orderNumber,
    createdAt: page.createdAt,
    expiresAt: page.expiresAt,
    expired,
    bibNumberLabel: order.bibNumberLabel,
    lines: lines.map((line) => ({
      ...boughtLine(line),
      orientation: line.orientation,
      delivered: isDelivered(line) && !refunded.has(line.id),
      /** Its money is given back (or on its way): no video to fetch, whatever was delivered. */
      refunded: refunded.has(line.id),
      /** The shop's file (poster, duration, versions); null for a video at a URL, not delivered yet, or refunded. */
      video: (line.deliveryFileId && videos.get(line.deliveryFileId)) || null,
      /** お断り: the shop's note; the line has no video. */
      refusalNote: refusalNoteOf(line),
      /** Its refund (返金済み / 返金手続き中), so a refused line no longer promises one to come. */
      refundState: lineRefundState(line.id, refunds),
      downloaded:
        line.downloadStartedAt !== null &&
        at.getTime() - line.downloadStartedAt.getTime() >= RESUME_WINDOW_MS,
      /** Offered once more (its download was cut short) and not started again since. */
      offeredAgain: line.downloadRetryAt !== null && line.downloadStartedAt === null,
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

/** Why a line cannot be fetched: the page answers each in words, with the way to get help. */
export type DownloadRefusalReason =
  | "not-found"
  | "wrong-format"
  | "no-phone-version"
  | "phone-preparing"
  | "page-expired"
  | "file-removed"
  | "downloaded"
  | "refunded";

export type DownloadRefusal = {
  ok: false;
  status: 404 | 410;
  reason: DownloadRefusalReason;
  message: string;
};

export type DownloadDecision =
  | { ok: true; kind: "redirect"; url: string }
  | {
      ok: true;
      kind: "file";
      version: VideoVersion;
      storedName: string;
      contentType: string;
      fileName: string;
    }
  | DownloadRefusal;

function refused(reason: DownloadRefusalReason): DownloadRefusal {
  switch (reason) {
    case "not-found":
      return {
        ok: false,
        status: 404,
        reason,
        message: "ダウンロードページが見つからないか、有効期限が切れています",
      };
    case "wrong-format":
      return { ok: false, status: 404, reason, message: "この形式の動画はありません" };
    case "no-phone-version":
      return {
        ok: false,
        status: 404,
        reason,
        message: "この動画にはスマホ用がありません。オリジナルをダウンロードしてください。",
      };
    case "phone-preparing":
      return {
        ok: false,
        status: 404,
        reason,
        message:
          "スマホ用の動画はまだ準備中です。オリジナルをダウンロードするか、しばらくしてからページを開き直してください。",
      };
    case "page-expired":
      return { ok: false, status: 410, reason, message: "ダウンロードの有効期限が切れています" };
    case "file-removed":
      return {
        ok: false,
        status: 410,
        reason,
        message: "この動画の保存期間は終了しました。再度必要な場合はお問い合わせください。",
      };
    case "refunded":
      return {
        ok: false,
        status: 410,
        reason,
        message:
          "この動画はご返金の対象となったため、ダウンロードできません。ご不明な点はお問い合わせください。",
      };
    case "downloaded":
      return {
        ok: false,
        status: 410,
        reason,
        message: "この動画はダウンロード済みです。再度必要な場合はお問い合わせください。",
      };
  }
}

/**
 * The line of a page as a download would see it: refused (and why), or what to fetch.
 * Counts nothing, so the download page can say why a download was refused.
 */
function inspectDownload(pageId: string, lineId: number, format: string, version: VideoVersion) {
  const page = downloadPage(pageId);
  const line = page ? db().select().from(orderLines).where(eq(orderLines.id, lineId)).get() : undefined;
  const pageLine = page?.lines.find((l) => l.id === lineId);
  if (!page || !line || !pageLine) return refused("not-found");
  if (pageLine.refunded) return refused("refunded");
  if (page.expired) return refused("page-expired");
  if (line.orientation !== format || !(line.videoDownloadUrl || line.deliveryFileId))
    return refused("wrong-format");
  const file = line.deliveryFileId
    ? db()
        .select({
          storedName: deliveryFiles.storedName,
          contentType: deliveryFiles.contentType,
          deletedAt: deliveryFiles.deletedAt,
          phoneStoredName: deliveryFiles.phoneStoredName,
          posterStoredName: deliveryFiles.posterStoredName,
        })
        .from(deliveryFiles)
        .where(eq(deliveryFiles.id, line.deliveryFileId))
        .get()
    : undefined;
  if (file?.deletedAt) return refused("file-removed");
  if (line.downloadStartedAt && now().getTime() - line.downloadStartedAt.getTime() >= RESUME_WINDOW_MS)
    return refused("downloaded");
  // A phone version is asked for only by the page's button or player, shown once it exists; a
  // link kept from before it was made, or one made up, is told in words.
  if (version === "phone" && !file?.phoneStoredName)
    return refused(
      line.deliveryFileId && phoneJobsPending([line.deliveryFileId]).size > 0
        ? "phone-preparing"
        : "no-phone-version",
    );
  return { ok: true as const, line, file };
}

/**
 * Why a line of a page would be refused now (an expired page, a video already downloaded,
 * its file removed), or null when it would not be (nothing is counted). For the download
 * page's notice after a browser was turned away.
 */
export function downloadRefusal(pageId: string, lineId: number): DownloadRefusal | null {
  const line = db()
    .select({ orientation: orderLines.orientation })
    .from(orderLines)
    .where(eq(orderLines.id, lineId))
    .get();
  if (!line) return null;
  const inspected = inspectDownload(pageId, lineId, line.orientation, "original");
  return inspected.ok || inspected.status !== 410 ? null : inspected;
}

/**
 * Whether a line may be fetched now, counting the download: the first request starts
 * the 24-hour window, requests inside it (resumes, Range requests) are free, later
 * ones are refused. Only the line's own format, only before the page expires. Either version
 * (and the page's player, which asks for the same bytes) starts the same window, so the other
 * version stays available within it.
 */
export function claimDownload(
  pageId: string,
  lineId: number,
  format: string,
  version: VideoVersion = "original",
): DownloadDecision {
  const inspected = inspectDownload(pageId, lineId, format, version);
  if (!inspected.ok) return inspected;
  const { line, file } = inspected;
  if (!line.downloadStartedAt) {
    // Atomic: of two first requests at once, one starts the window and both proceed inside it.
    db()
      .update(orderLines)
      .set({ downloadStartedAt: now() })
      .where(and(eq(orderLines.id, lineId), isNull(orderLines.downloadStartedAt)))
      .run();
  }
  if (file && version === "phone" && file.phoneStoredName)
    return {
      ok: true,
      kind: "file",
      version,
      storedName: file.phoneStoredName,
      contentType: "video/mp4",
      fileName: phoneVideoFileName(line),
    };
  if (file)
    return {
      ok: true,
      kind: "file",
      version: "original",
      storedName: file.storedName,
      contentType: file.contentType,
      fileName: videoFileName(line, file.storedName),
    };
  return { ok: true, kind: "redirect", url: line.videoDownloadUrl ?? "" };
}

/**
 * The poster of a line's video, for its download page's player: asked for by the page's own
 * link (its 128-bit id), only while the video may be fetched; counts nothing. Null otherwise.
 */
export function downloadPoster(pageId: string, lineId: number, format: string): string | null {
  const inspected = inspectDownload(pageId, lineId, format, "original");
  return (inspected.ok && inspected.file?.posterStoredName) || null;
}

/**
 * The name a delivered video is saved under on the customer's phone: the contest, the athlete's
 * number and name and the style (「春の発表会_12_山田花子_縦.mp4」), with the stored file's extension.
 */
export function videoFileName(
  line: { contestName: string; athleteNumber: number; athleteName: string; style: string },
  storedName: string,
): string {
  const extension = /\.([a-z0-9]+)$/.exec(storedName)?.[1] ?? "mp4";
  const parts = [line.contestName, String(line.athleteNumber), line.athleteName, line.style]
    .map((part) => part.replace(/\s+/g, "").trim())
    .filter(Boolean);
  return `${parts.join("_").slice(0, 150)}.${extension}`;
}

/** The phone version's name: the original's with 「_スマホ用」 before `.mp4` (「春の発表会_12_山田花子_縦_スマホ用.mp4」). */
export function phoneVideoFileName(line: Parameters<typeof videoFileName>[0]): string {
  return videoFileName(line, "phone.mp4").replace(/\.mp4$/, "_スマホ用.mp4");
}
