import { and, asc, eq, ne } from "drizzle-orm";
import { db, type Tx } from "../db/client.server";
import { mediaItems } from "../db/schema";
import { removeStoredFiles } from "../files/storage.server";
import { dropJobsOf } from "./jobs/queue.server";

export type ContentMediaItem = {
  id: number;
  originalName: string;
  mediaType: "video" | "image";
  contentType: string;
  category: string;
  size: number;
  width: number | null;
  height: number | null;
  displayOrder: number;
  uploadedAt: string;
  /** The file itself, for admins (Range, cache headers). */
  fileUrl: string;
  thumbnailUrl: string | null;
};

export function adminMediaUrl(contestId: number, mediaId: number): string {
  return `/admin/contest/${contestId}/media/${mediaId}`;
}

/** The spec's thumbnail call, cache-busted by the stored name (which changes with every new thumbnail). */
export function thumbnailUrl(contestId: number, mediaId: number, thumbnailStoredName: string): string {
  const version = thumbnailStoredName
    .replace(/^thumb-/, "")
    .replace(/\.[a-z0-9]+$/, "")
    .slice(0, 12);
  return `/api/video/media/thumbnail/${contestId}/${mediaId}?v=${version}`;
}

const contentOf = (contestId: number) =>
  and(eq(mediaItems.contestId, contestId), ne(mediaItems.category, "cover-image"));

/** An item as the tab and the media API show it (its file and thumbnail as the shop's URLs). */
export function toContentItem(row: typeof mediaItems.$inferSelect): ContentMediaItem {
  return {
    id: row.id,
    originalName: row.originalName,
    mediaType: row.mediaType,
    contentType: row.contentType,
    category: row.category,
    size: row.size,
    width: row.width,
    height: row.height,
    displayOrder: row.displayOrder,
    uploadedAt: row.uploadedAt.toISOString(),
    fileUrl: adminMediaUrl(row.contestId, row.id),
    thumbnailUrl: row.thumbnailStoredName
      ? thumbnailUrl(row.contestId, row.id, row.thumbnailStoredName)
      : null,
  };
}

/** The contest's media as the コンテンツ管理 tab lists it (covers excluded), in display order. */
export function listContentMedia(contestId: number): ContentMediaItem[] {
  return db()
    .select()
    .from(mediaItems)
    .where(contentOf(contestId))
    .orderBy(asc(mediaItems.displayOrder), asc(mediaItems.id))
    .all()
    .map(toContentItem);
}

export function findContentMedia(contestId: number, mediaId: number) {
  return (
    db()
      .select()
      .from(mediaItems)
      .where(and(contentOf(contestId), eq(mediaItems.id, mediaId)))
      .get() ?? null
  );
}

/** The content items' ids in display order (inside the caller's transaction). */
function orderedIds(tx: Tx, contestId: number): number[] {
  return tx
    .select({ id: mediaItems.id })
    .from(mediaItems)
    .where(contentOf(contestId))
    .orderBy(asc(mediaItems.displayOrder), asc(mediaItems.id))
    .all()
    .map((row) => row.id);
}

/** Rewrites display orders as 0, 1, 2… in the given id order (inside the caller's transaction). */
function rewriteOrder(tx: Tx, ids: number[]) {
  ids.forEach((id, displayOrder) =>
    tx.update(mediaItems).set({ displayOrder }).where(eq(mediaItems.id, id)).run(),
  );
}

/**
 * Moves an item to a position (0-based) by swapping it with the item there, and rewrites
 * every order so they stay 0…n-1 (the spec: reorder swaps two items and rewrites all orders).
 */
export function moveMedia(contestId: number, mediaId: number, position: number): boolean {
  return db().transaction(
    (tx) => {
      const ids = orderedIds(tx, contestId);
      const from = ids.indexOf(mediaId);
      if (from < 0) return false;
      const to = Math.min(Math.max(position, 0), ids.length - 1);
      [ids[from], ids[to]] = [ids[to]!, ids[from]!];
      rewriteOrder(tx, ids);
      return true;
    },
    { behavior: "immediate" },
  );
}

/** ↑ / ↓: swaps with the neighbour; at either end nothing changes. */
export function moveMediaBy(contestId: number, mediaId: number, direction: "up" | "down"): boolean {
  const items = listContentMedia(contestId);
  const index = items.findIndex((item) => item.id === mediaId);
  if (index < 0) return false;
  return moveMedia(contestId, mediaId, direction === "up" ? index - 1 : index + 1);
}

/** Deletes the item, its file, thumbnail and poster (and its jobs), and closes the gap in the order. */
export async function deleteMedia(contestId: number, mediaId: number): Promise<boolean> {
  const row = findContentMedia(contestId, mediaId);
  if (!row) return false;
  db().transaction(
    (tx) => {
      tx.delete(mediaItems).where(eq(mediaItems.id, row.id)).run();
      dropJobsOf("sample", [row.id], tx);
      rewriteOrder(tx, orderedIds(tx, contestId));
    },
    { behavior: "immediate" },
  );
  await removeStoredFiles(row.storedName, row.thumbnailStoredName, row.posterStoredName);
  return true;
}

/** The stored file of a content item, for the admin preview. */
export function mediaFile(
  contestId: number,
  mediaId: number,
): { storedName: string; contentType: string; name: string } | null {
  const row = findContentMedia(contestId, mediaId);
  return row ? { storedName: row.storedName, contentType: row.contentType, name: row.originalName } : null;
}
