import { and, asc, eq, inArray, like } from "drizzle-orm";
import { isOnSale, storefrontPublication } from "../catalog/publication.server";
import { now } from "../core/clock.server";
import { catalogueCached } from "../catalog/catalogue-cache.server";
import { db } from "../db/client.server";
import { contests, mediaItems } from "../db/schema";
import { thumbnailUrl } from "./library.server";
import { mediaUrl, PUBLIC_MEDIA_CATEGORIES, type PublicMediaItem } from "../files/storage.server";
import type { Audience } from "../files/store.server";

function toPublic(row: typeof mediaItems.$inferSelect): PublicMediaItem {
  return {
    id: row.id,
    contestId: row.contestId,
    url: mediaUrl(row.storedName),
    originalName: row.originalName,
    category: row.category,
    mediaType: row.mediaType,
    displayOrder: row.displayOrder,
    // Thumbnails are served by the spec's thumbnail call, which checks the item is public.
    thumbnailUrl: row.thumbnailStoredName
      ? thumbnailUrl(row.contestId, row.id, row.thumbnailStoredName)
      : null,
    uploadedAt: row.uploadedAt,
  };
}

/** A contest's media: everything for an admin; for anyone else only the public media of a contest on sale. */
export function listContestMedia(contestId: number, viewer: { isAdmin: boolean }): PublicMediaItem[] | null {
  const contest = db().select().from(contests).where(eq(contests.id, contestId)).get();
  if (!contest) return null;
  if (!viewer.isAdmin && !isOnSale(contest, now())) return null;
  const where = viewer.isAdmin
    ? eq(mediaItems.contestId, contestId)
    : and(eq(mediaItems.contestId, contestId), inArray(mediaItems.category, [...PUBLIC_MEDIA_CATEGORIES]));
  return db()
    .select()
    .from(mediaItems)
    .where(where)
    .orderBy(asc(mediaItems.displayOrder), asc(mediaItems.id))
    .all()
    .map(toPublic);
}

/**
 * Who a stored file the storefront serves (/media/…, a public media item's thumbnail) is for, or
 * null when it is not served to a visitor. Samples: public while their contest is on sale, not
 * served otherwise. Covers and their variants are always served (the back-office shows them),
 * but public (cached by shared caches, redirected to S3_PUBLIC_BASE_URL's CDN) only while their
 * contest is listed on the storefront: an unpublished contest's cover is private, as is a cover
 * file no contest shows.
 */
export function storefrontAudience(storedName: string): Audience | null {
  if (storedName.startsWith("cover-")) return coverIsListed(storedName) ? "public" : "private";
  return isPubliclyServable(storedName) ? "public" : null;
}

/** Whether the cover (or cover variant) `storedName` is the cover of a contest the storefront lists. */
function coverIsListed(storedName: string): boolean {
  // A variant is named after its cover (coverVariantName): cover-<random>-w960.webp of cover-<random>.jpg.
  const cover = /^(cover-[a-f0-9]+)(-w\d+)?\.[a-z0-9]+$/.exec(storedName)?.[1];
  if (!cover) return false;
  const row = db()
    .select({ contest: contests })
    .from(mediaItems)
    .innerJoin(contests, eq(contests.id, mediaItems.contestId))
    .where(and(eq(mediaItems.category, "cover-image"), like(mediaItems.storedName, `${cover}.%`)))
    .get();
  return row ? storefrontPublication(row.contest, now()).listed : false;
}

/**
 * Whether a stored file may be served to a visitor: public media of a contest on sale and their
 * posters (covers always).
 */
export function isPubliclyServable(storedName: string): boolean {
  // A sample's poster is served under the sample's own rule; a delivery file's poster is in no media row.
  const poster = storedName.startsWith("poster-");
  const row = db()
    .select({
      category: mediaItems.category,
      contestId: mediaItems.contestId,
    })
    .from(mediaItems)
    .where(eq(poster ? mediaItems.posterStoredName : mediaItems.storedName, storedName))
    .get();
  if (!row) return false;
  if (!PUBLIC_MEDIA_CATEGORIES.some((category) => category === row.category)) return false;
  if (row.category === "cover-image") return true;
  const contest = db().select().from(contests).where(eq(contests.id, row.contestId)).get();
  return contest ? isOnSale(contest, now()) : false;
}

/** A sample of a contest as its order form shows it: a poster or thumbnail first, the file only on a tap. */
export type ContestSample = {
  id: number;
  kind: "video" | "image";
  url: string;
  /** The square thumbnail (THUMBNAIL_PIXELS), when the admin set one. */
  thumbnailUrl: string | null;
  /** A video's poster frame (media job `poster`), shown where no thumbnail was set and in the player. */
  posterUrl: string | null;
  width: number | null;
  height: number | null;
};

/**
 * The サンプル（ショップに表示） media of a contest, for its order form: only that contest's
 * media of the sample category, only while the contest is on sale (the files are served
 * under the same rule, `isPubliclyServable`), in the admin's display order.
 */
export function contestSamples(contestId: number): ContestSample[] {
  const { contest, samples } = catalogueCached(`samples:${contestId}`, () => ({
    contest: db().select().from(contests).where(eq(contests.id, contestId)).get(),
    samples: readContestSamples(contestId),
  }));
  return contest && isOnSale(contest, now()) ? samples : [];
}

function readContestSamples(contestId: number): ContestSample[] {
  return db()
    .select()
    .from(mediaItems)
    .where(and(eq(mediaItems.contestId, contestId), eq(mediaItems.category, "sample")))
    .orderBy(asc(mediaItems.displayOrder), asc(mediaItems.id))
    .all()
    .map((row) => ({
      id: row.id,
      kind: row.mediaType,
      url: mediaUrl(row.storedName),
      thumbnailUrl: row.thumbnailStoredName
        ? thumbnailUrl(row.contestId, row.id, row.thumbnailStoredName)
        : null,
      posterUrl: row.posterStoredName ? mediaUrl(row.posterStoredName) : null,
      width: row.width,
      height: row.height,
    }));
}
