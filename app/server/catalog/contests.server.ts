import { and, desc, eq, inArray, ne } from "drizzle-orm";
import { slugKey } from "~/lib/rules/slug";
import { now } from "../core/clock.server";
import { catalogueCached } from "./catalogue-cache.server";
import { db, type Db, type Tx } from "../db/client.server";
import { contests, mediaItems, priceDescriptions, videoFormats } from "../db/schema";
import { COVER_WIDTHS, coverVariantName, mediaUrl } from "../files/storage.server";
import { mayBeListed, storefrontPublication } from "./publication.server";

export type CoverImage = { src: string; srcSet: string; width: number; height: number };

export type StorefrontContest = {
  id: number;
  name: string;
  bibNumberLabel: string;
  onSale: boolean;
  /** Set for 公開予約 contests whose time has not come: sales start then. */
  salesStartAt: Date | null;
  cover: CoverImage | null;
  /** Its order form opens with a 合言葉 (the card shows its name and cover, and says so). */
  accessCodeRequired: boolean;
};

/** Contests for the home page: those on sale, then those scheduled to open, newest first. */
export function listStorefrontContests(at: Date = now()): StorefrontContest[] {
  const { listable, covers } = catalogueCached("storefront-contests", () => {
    const listable = db()
      .select({
        id: contests.id,
        name: contests.name,
        bibNumberLabel: contests.bibNumberLabel,
        videoPublished: contests.videoPublished,
        sitePublicStatus: contests.sitePublicStatus,
        scheduledPublishDate: contests.scheduledPublishDate,
        accessCode: contests.accessCode,
      })
      .from(contests)
      .where(mayBeListed)
      .orderBy(desc(contests.id))
      .all();
    return { listable, covers: newestCovers(listable.map((row) => row.id)) };
  });
  // Publication is decided now (a 公開予約 opens by the clock), from the kept rows.
  return listable
    .flatMap((row) => {
      const shown = storefrontPublication(row, at);
      return shown.listed ? [{ row, onSale: shown.onSale, salesStartAt: shown.salesStartAt }] : [];
    })
    .map(({ row, onSale, salesStartAt }) => ({
      id: row.id,
      name: row.name,
      bibNumberLabel: row.bibNumberLabel,
      onSale,
      salesStartAt,
      cover: covers.get(row.id) ?? null,
      accessCodeRequired: row.accessCode !== null,
    }))
    .sort((a, b) => Number(b.onSale) - Number(a.onSale));
}

/** Each contest's newest cover image (the one the storefront shows), by contest id. */
export function newestCovers(contestIds: number[]): Map<number, CoverImage> {
  const result = new Map<number, CoverImage>();
  if (contestIds.length === 0) return result;
  const rows = db()
    .select({ contestId: mediaItems.contestId, storedName: mediaItems.storedName })
    .from(mediaItems)
    .where(and(inArray(mediaItems.contestId, contestIds), eq(mediaItems.category, "cover-image")))
    .orderBy(desc(mediaItems.uploadedAt), desc(mediaItems.id))
    .all();
  for (const row of rows) {
    if (result.has(row.contestId)) continue;
    result.set(row.contestId, coverImage(row.storedName));
  }
  return result;
}

export function coverImage(storedName: string): CoverImage {
  const widest = COVER_WIDTHS[COVER_WIDTHS.length - 1] ?? 1920;
  return {
    src: mediaUrl(coverVariantName(storedName, 960)),
    srcSet: COVER_WIDTHS.map((width) => `${mediaUrl(coverVariantName(storedName, width))} ${width}w`).join(
      ", ",
    ),
    width: widest,
    height: Math.round((widest * 9) / 16),
  };
}

/** The contest a storefront slug names (hyphens ignored), whatever its publication (see publication.server). */
export function findContestBySlug(slug: string) {
  // Remix has decoded the param once; a link that encoded the name twice still finds it. What
  // is left may hold a bad escape ("%", "%E0%A4%A"): no contest has that name, so not found.
  let decoded: string;
  try {
    decoded = decodeURIComponent(slug);
  } catch {
    return null;
  }
  const key = slugKey(decoded);
  if (!key) return null;
  return catalogueCached(
    `contest-by-slug:${key}`,
    () =>
      db().select().from(contests).where(eq(contests.slugKey, key)).orderBy(desc(contests.id)).get() ?? null,
  );
}

export const DEFAULT_VIDEO_FORMATS = ["縦", "横"] as const;
export const DEFAULT_PRICE_ITEMS = [
  { name: "縦型動画", price: "3000" },
  { name: "横型動画", price: "4500" },
];

/** Why a name cannot be a contest's: its order form's address would be another contest's. */
export function contestNameTakenMessage(otherName: string): string {
  return `「${otherName}」と同じURLになるため、この大会名は使えません。別の大会名を入力してください。`;
}

/**
 * The contest (other than `exceptId`) whose order form a name's slug would lead to. Two
 * contests of one slug cannot both be reached from the storefront, so a name is refused when
 * this finds one; the unique index on the slug key backs the rule up.
 */
export function contestWithSameSlug(
  name: string,
  exceptId?: number,
  tx: Db | Tx = db(),
): { id: number; name: string } | null {
  return (
    tx
      .select({ id: contests.id, name: contests.name })
      .from(contests)
      .where(
        and(
          eq(contests.slugKey, slugKey(name.trim())),
          exceptId === undefined ? undefined : ne(contests.id, exceptId),
        ),
      )
      .get() ?? null
  );
}

export type AddContestResult = { ok: true; id: number } | { ok: false; field: "name"; message: string };

/**
 * A new contest as the back-office creates it: date 未定, no location, unpublished,
 * the default formats 縦 (0) and 横 (1) and the default price description. Refused when
 * another contest has the same slug.
 */
export function addContest(name: string): AddContestResult {
  const trimmed = name.trim();
  return db().transaction(
    (tx): AddContestResult => {
      const clash = contestWithSameSlug(trimmed, undefined, tx);
      if (clash) return { ok: false, field: "name", message: contestNameTakenMessage(clash.name) };
      const created = tx
        .insert(contests)
        .values({ name: trimmed, slugKey: slugKey(trimmed) })
        .returning({ id: contests.id })
        .get();
      tx.insert(videoFormats)
        .values(
          DEFAULT_VIDEO_FORMATS.map((format, displayOrder) => ({
            contestId: created.id,
            name: format,
            displayOrder,
          })),
        )
        .run();
      tx.insert(priceDescriptions)
        .values({ contestId: created.id, items: DEFAULT_PRICE_ITEMS, notes: "" })
        .run();
      return { ok: true, id: created.id };
    },
    { behavior: "immediate" },
  );
}

/** `addContest` for fixtures and scripts that know their name is free: throws when it is not. */
export function createContest(name: string): number {
  const result = addContest(name);
  if (!result.ok) throw new Error(result.message);
  return result.id;
}
