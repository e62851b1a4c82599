import crypto from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { refundedLineIds } from "~/lib/rules/refunds";
import { now } from "../../core/clock.server";
import { siteUrl } from "../../core/site-url.server";
import { db } from "../../db/client.server";
import { deliveryFiles, downloadPages, familyLinks, orders } from "../../db/schema";
import { refundsOfOrder } from "../../refunds/order-refunds.server";
import { linesOfOrder } from "../order-lines.server";

/*
 * The family link (家族に共有するリンク): a watch-only page of an order's phone versions, made by
 * the parent on the download page and shared with the family (grandparents, by LINE or mail).
 * Its token is made as the download page's id is (128 random bits, base64url) and kept as it is,
 * as every page token of the shop is (download page, 注文状況, the reminders' stop link): the
 * download page shows it again each visit, so it cannot be kept only as a hash; whoever holds the
 * database holds the download page's id, which opens more. It ends with the download page (the
 * page's own expiry, read each time, so a 納品 that extends the page extends the link) or when the
 * parent revokes it. Watching never counts as a download: this module never touches the lines'
 * `downloadStartedAt`, and its files are served by their own route, not by claimDownload.
 */

/** 128 random bits, base64url: anything else is no token (the same answer as an unknown one). */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{22}$/;

export function familyPath(token: string): string {
  return `/family/${token}`;
}

/** What the download page shows of the family link: the live link (with its views), if any. */
export type FamilyLinkPanel = {
  link: { url: string; views: number; createdAt: Date } | null;
  /** How many videos the family could watch now (phone versions made, not refunded): none, no panel. */
  videoCount: number;
};

function pageOf(pageId: string) {
  if (!TOKEN_FORMAT.test(pageId)) return null;
  return db().select().from(downloadPages).where(eq(downloadPages.id, pageId)).get() ?? null;
}

function liveLinkOf(orderId: number) {
  return (
    db()
      .select()
      .from(familyLinks)
      .where(and(eq(familyLinks.orderId, orderId), isNull(familyLinks.revokedAt)))
      .get() ?? null
  );
}

/** The family link's panel of a live download page; null for an unknown or ended page. */
export function familyLinkPanel(pageId: string): FamilyLinkPanel | null {
  const page = pageOf(pageId);
  if (!page || page.expiresAt <= now()) return null;
  const link = liveLinkOf(page.orderId);
  return {
    link: link
      ? { url: siteUrl(familyPath(link.token)), views: link.views, createdAt: link.createdAt }
      : null,
    videoCount: watchableVideos(page.orderId).size,
  };
}

export type FamilyLinkChange = { ok: true } | { ok: false; status: 404 | 410; message: string };

const PAGE_NOT_FOUND: FamilyLinkChange = {
  ok: false,
  status: 404,
  message: "ダウンロードページが見つかりません",
};

/**
 * 家族に共有するリンクを作る: the order's link, made unless one lives already (a second press, or
 * a second tab, keeps the first link, so what the family holds keeps working). Refused once the
 * download page has ended: the link would end at once.
 */
export function makeFamilyLink(pageId: string): FamilyLinkChange {
  const page = pageOf(pageId);
  if (!page) return PAGE_NOT_FOUND;
  if (page.expiresAt <= now())
    return { ok: false, status: 410, message: "ダウンロードの有効期限が切れているため、リンクは作れません" };
  db()
    .insert(familyLinks)
    .values({ orderId: page.orderId, token: crypto.randomBytes(16).toString("base64url"), createdAt: now() })
    // The partial unique index (one live link per order) keeps two presses at once to one link.
    .onConflictDoNothing()
    .run();
  return { ok: true };
}

/** リンクを無効にする: the live link stops opening at once; its row stays with its views. */
export function revokeFamilyLink(pageId: string): FamilyLinkChange {
  const page = pageOf(pageId);
  if (!page) return PAGE_NOT_FOUND;
  db()
    .update(familyLinks)
    .set({ revokedAt: now() })
    .where(and(eq(familyLinks.orderId, page.orderId), isNull(familyLinks.revokedAt)))
    .run();
  return { ok: true };
}

/** A video the family may watch: who is in it, and what its player needs. */
export type FamilyVideo = {
  lineId: number;
  contestName: string;
  category: string;
  athleteNumber: number;
  athleteName: string;
  style: string;
  hasPoster: boolean;
  frame: { width: number; height: number } | null;
};

export type FamilyWatch =
  | { state: "open"; expiresAt: Date; bibNumberLabel: string; videos: FamilyVideo[] }
  /** Revoked, or its download page has ended: the page says so (410). */
  | { state: "ended" };

type LinkRow = typeof familyLinks.$inferSelect;

/** The link of a token with its download page's end; null for a token nobody was given. */
function linkOf(token: string): { link: LinkRow; expiresAt: Date; ended: boolean } | null {
  if (!TOKEN_FORMAT.test(token)) return null;
  const row = db()
    .select({ link: familyLinks, expiresAt: downloadPages.expiresAt })
    .from(familyLinks)
    .innerJoin(downloadPages, eq(downloadPages.orderId, familyLinks.orderId))
    .where(eq(familyLinks.token, token))
    .get();
  if (!row) return null;
  return { ...row, ended: row.link.revokedAt !== null || row.expiresAt <= now() };
}

/**
 * The videos the family may watch: delivered as a file of the shop whose phone version exists and
 * whose bytes are kept; never a refunded line (its video is not the customer's any more), a line
 * delivered by URL (no phone version), or one still waiting for its phone version.
 */
function watchableVideos(
  orderId: number,
): Map<number, FamilyVideo & { phone: string; poster: string | null }> {
  const order = db()
    .select({ totalAmount: orders.totalAmount })
    .from(orders)
    .where(eq(orders.id, orderId))
    .get();
  const lines = linesOfOrder(orderId);
  const refunded = refundedLineIds(
    { totalAmount: order?.totalAmount ?? 0, lineIds: lines.map((line) => line.id) },
    refundsOfOrder(orderId),
  );
  const shown = lines.filter((line) => line.deliveryFileId && !line.refused && !refunded.has(line.id));
  const fileIds = shown.map((line) => line.deliveryFileId!);
  const files = new Map(
    (fileIds.length === 0
      ? []
      : db()
          .select({
            id: deliveryFiles.id,
            deletedAt: deliveryFiles.deletedAt,
            phone: deliveryFiles.phoneStoredName,
            phoneVideo: deliveryFiles.phoneVideo,
            poster: deliveryFiles.posterStoredName,
          })
          .from(deliveryFiles)
          .where(inArray(deliveryFiles.id, fileIds))
          .all()
    ).map((file) => [file.id, file]),
  );
  const videos = new Map<number, FamilyVideo & { phone: string; poster: string | null }>();
  for (const line of shown) {
    const file = files.get(line.deliveryFileId!);
    if (!file?.phone || file.deletedAt) continue;
    videos.set(line.id, {
      lineId: line.id,
      contestName: line.contestName,
      category: line.category,
      athleteNumber: line.athleteNumber,
      athleteName: line.athleteName,
      style: line.style,
      hasPoster: file.poster !== null,
      frame: file.phoneVideo ? { width: file.phoneVideo.width, height: file.phoneVideo.height } : null,
      phone: file.phone,
      poster: file.poster,
    });
  }
  return videos;
}

/**
 * The watch page of a token, counting the view when the link is open (`countView`: a person
 * opened the page; the player's Range requests go to familyFile and count nothing). Null for a
 * token nobody was given.
 */
export function openFamilyWatch(token: string, options: { countView: boolean }): FamilyWatch | null {
  const found = linkOf(token);
  if (!found) return null;
  if (found.ended) return { state: "ended" };
  if (options.countView)
    db()
      .update(familyLinks)
      .set({ views: sql`${familyLinks.views} + 1`, lastViewedAt: now() })
      .where(eq(familyLinks.id, found.link.id))
      .run();
  const order = db()
    .select({ bibNumberLabel: orders.bibNumberLabel })
    .from(orders)
    .where(eq(orders.id, found.link.orderId))
    .get();
  return {
    state: "open",
    expiresAt: found.expiresAt,
    bibNumberLabel: order?.bibNumberLabel ?? "ゼッケン番号",
    videos: [...watchableVideos(found.link.orderId).values()].map(
      ({ phone: _phone, poster: _poster, ...video }) => video,
    ),
  };
}

export type FamilyFile =
  { ok: true; storedName: string; contentType: string } | { ok: false; status: 404 | 410 };

/**
 * A file of the watch page: a line's phone version (`video`) or its poster. Only while the link
 * is open and only a line the page shows; counts nothing, neither a view nor a download.
 */
export function familyFile(token: string, lineId: number, kind: "video" | "poster"): FamilyFile {
  const found = linkOf(token);
  if (!found) return { ok: false, status: 404 };
  if (found.ended) return { ok: false, status: 410 };
  const video = watchableVideos(found.link.orderId).get(lineId);
  if (!video) return { ok: false, status: 404 };
  if (kind === "poster")
    return video.poster
      ? { ok: true, storedName: video.poster, contentType: "image/jpeg" }
      : { ok: false, status: 404 };
  return { ok: true, storedName: video.phone, contentType: "video/mp4" };
}
