import { and, asc, eq, inArray, like } from "drizzle-orm";
import { isOnSale, storefrontPublication } from "../catalog/publication.server";
import { now } from "../core/clock.server";
import { catalogueCached } from "../catalog/catalogue-cache.server";
import { db } from "../db/client.server";
import { contests, mediaItems } from "../db/schema";
import { thumbnailUrl } from "./library.server";
import { mediaUrl, PUBLIC_MEDIA_CATEGORIES, type PublicMediaItem } from "../files/storage.server";
import type { Audience } from "../files/store.server";
import { contestOpen, hasAccessCode } from "../catalog/contest-access.server";
import { getSession } from "../http/session.server";

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
export function listContestMedia(
  contestId: number,
  viewer: { isAdmin: boolean; opened?: OpenedContest },
): PublicMediaItem[] | null {
  const contest = db().select().from(contests).where(eq(contests.id, contestId)).get();
  if (!contest) return null;
  if (!viewer.isAdmin && !isOnSale(contest, now())) return null;
  // Behind a 合言葉 its samples are listed only to whoever entered it: as a contest not found.
  if (!viewer.isAdmin && hasAccessCode(contest) && !(viewer.opened ?? NOTHING_OPENED)(contest)) return null;
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
 * served otherwise; behind the contest's 合言葉, private and only to a visitor who entered it. Covers and their variants are always served (the back-office shows them),
 * but public (cached by shared caches, redirected to S3_PUBLIC_BASE_URL's CDN) only while their
 * contest is listed on the storefront: an unpublished contest's cover is private, as is a cover
 * file no contest shows.
 */
export async function storefrontAudience(request: Request, storedName: string): Promise<Audience | null> {
  if (storedName.startsWith("cover-")) return coverIsListed(storedName) ? "public" : "private";
  const sample = servableSample(storedName);
  if (!sample) return null;
  if (!hasAccessCode(sample.contest)) return "public";
  // Behind a 合言葉: only to a visitor who entered it (the session is read only for these), and
  // never kept by a shared cache or the CDN.
  return contestOpen(await getSession(request), sample.contest) ? "private" : null;
}

/** Whether the visitor asking has opened a contest behind a 合言葉 (her session's `contestOpen`). */
export type OpenedContest = (contest: { id: number; accessCode: string | null }) => boolean;
const NOTHING_OPENED: OpenedContest = () => false;

/** The visitor's opened contests, for the calls that list a contest's samples. */
export async function openedContestsOf(request: Request): Promise<OpenedContest> {
  const session = await getSession(request);
  return (contest) => contestOpen(session, contest);
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
  return servableSample(storedName) !== null;
}

/** The public media row a stored file is (or is the poster of), with its contest, while a visitor may have it. */
function servableSample(storedName: string): { contest: typeof contests.$inferSelect } | null {
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
  if (!row) return null;
  if (!PUBLIC_MEDIA_CATEGORIES.some((category) => category === row.category)) return null;
  const contest = db().select().from(contests).where(eq(contests.id, row.contestId)).get();
  if (!contest) return null;
  // A cover is the card's, shown to all (its contest's code aside); a sample only while on sale.
  if (row.category === "cover-image") return { contest: { ...contest, accessCode: null } };
  return isOnSale(contest, now()) ? { contest } : null;
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
