import { and, asc, eq } from "drizzle-orm";
import {
  FALLBACK_PRICE,
  matchItem,
  ORIENTATION_LABELS,
  ORIENTATIONS,
  orientationAt,
  type Orientation,
} from "~/lib/rules/pricing";
import { applyPromotions, type CouponOffer, type PromotionPricing } from "~/lib/rules/promotions";
import { catalogueCached } from "./catalogue-cache.server";
import { now } from "../core/clock.server";
import { contestPromotionsOf } from "../promotions/contest-promotions.server";
import { db, type Tx } from "../db/client.server";
import { athletes, categories, videoFormats, type CheckoutItem, type PricedLine } from "../db/schema";

/**
 * The server's side of the price rule (app/lib/rules/pricing.ts): it reads the athletes' prices and
 * the contest's formats from the database and prices a checkout. The browser's total is only a
 * preview; what an order costs is decided here, from the current rows.
 */

export type OrderFormAthlete = {
  id: number;
  number: number;
  name: string;
  category: string;
  verticalPrice: number;
  horizontalPrice: number;
};

export type OrderFormFormat = { id: number; name: string; orientation: Orientation };

/** The contest's formats that have a price (the first two, in display order), with the orientation each sells at. */
export function pricedFormats(contestId: number, reader: Pick<Tx, "select"> = db()): OrderFormFormat[] {
  return reader
    .select({ id: videoFormats.id, name: videoFormats.name })
    .from(videoFormats)
    .where(eq(videoFormats.contestId, contestId))
    .orderBy(asc(videoFormats.displayOrder), asc(videoFormats.id))
    .limit(ORIENTATIONS.length)
    .all()
    .flatMap((format, index) => {
      const orientation = orientationAt(index);
      return orientation ? [{ ...format, orientation }] : [];
    });
}

/** The column labels of the two prices in the athlete table: the names of the formats sold at them. */
export function priceColumnNames(contestId: number): [string, string] {
  const formats = pricedFormats(contestId);
  return [formats[0]?.name ?? ORIENTATION_LABELS.vertical, formats[1]?.name ?? ORIENTATION_LABELS.horizontal];
}

/** What the order form offers: the contest's categories with athletes on sale, its orderable formats and those athletes. */
export function orderFormOptions(contestId: number) {
  return catalogueCached(`order-form-options:${contestId}`, () => readOrderFormOptions(contestId));
}

function readOrderFormOptions(contestId: number) {
  const categoryRows = db()
    .select({ name: categories.name, color: categories.color })
    .from(categories)
    .where(eq(categories.contestId, contestId))
    .orderBy(asc(categories.id))
    .all();
  const formats = pricedFormats(contestId);
  const athleteRows: OrderFormAthlete[] = db()
    .select({
      id: athletes.id,
      number: athletes.athleteNumber,
      name: athletes.name,
      category: athletes.category,
      verticalPrice: athletes.verticalVideoPrice,
      horizontalPrice: athletes.horizontalVideoPrice,
    })
    .from(athletes)
    .where(
      and(
        eq(athletes.contestId, contestId),
        eq(athletes.isDeleted, false),
        eq(athletes.videoStatus, "販売中"),
      ),
    )
    .orderBy(asc(athletes.athleteNumber))
    .all()
    .map((row) => ({
      ...row,
      category: row.category || "未分類",
      verticalPrice: row.verticalPrice ?? FALLBACK_PRICE,
      horizontalPrice: row.horizontalPrice ?? FALLBACK_PRICE,
    }));
  // Only categories with something on sale are offered (one with none has nothing to choose);
  // categories named by athletes but never created (e.g. 未分類) are offered too.
  const onSale = new Set(athleteRows.map((a) => a.category));
  const names = new Set(categoryRows.map((c) => c.name));
  const extra = [...onSale].filter((name) => !names.has(name));
  return {
    categories: [...categoryRows.map((c) => c.name).filter((name) => onSale.has(name)), ...extra],
    formats,
    athletes: athleteRows,
  };
}

export type PricingResult =
  | ({ ok: true } & Omit<PromotionPricing<PricedLine>, "lines"> & { lines: PricedLine[] })
  | { ok: false; message: string; index: number };

const REFUSALS = {
  athlete: "選択された選手は現在ご注文いただけません",
  category: "選手と部門の組み合わせが正しくありません",
  format: "選択された動画スタイルはご注文いただけません",
} as const;

/**
 * Prices a complete order on the server from the athletes' current prices and the contest's
 * promotions at `at` (lib/rules/promotions.ts), with the coupon when one is given (already
 * checked: promotions/coupons.server.ts). Refuses an athlete of another contest, one not on
 * sale, a category that does not match, or a format that cannot be ordered: a tampered form
 * gets a message, never a price it chose.
 */
export function priceItems(
  contestId: number,
  items: { category: string; athleteId: number; formatId: number }[],
  { at = now(), coupon = null }: { at?: Date; coupon?: CouponOffer | null } = {},
): PricingResult {
  const options = orderFormOptions(contestId);
  const lines: Omit<PricedLine, "price" | "discounts">[] = [];
  for (const [index, item] of items.entries()) {
    const match = matchItem(options, item);
    if (!match.ok) return { ok: false, index, message: REFUSALS[match.problem] };
    const { athlete, format } = match;
    lines.push({
      category: athlete.category,
      athleteId: athlete.id,
      athleteNumber: athlete.number,
      athleteName: athlete.name,
      formatId: format.id,
      style: format.name,
      orientation: format.orientation,
      listPrice: match.price,
    });
  }
  return { ok: true, ...applyPromotions(lines, contestPromotionsOf(contestId), at.getTime(), coupon) };
}

/** The draft's items that are complete, typed for pricing. */
export function completeItems(items: CheckoutItem[]) {
  return items.flatMap((item) =>
    item.category && item.athleteId && item.formatId
      ? [{ category: item.category, athleteId: item.athleteId, formatId: item.formatId }]
      : [],
  );
}
