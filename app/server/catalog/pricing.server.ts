import { and, asc, eq } from "drizzle-orm";
import {
  FALLBACK_PRICE,
  ORIENTATION_LABELS,
  ORIENTATIONS,
  orientationAt,
  type Orientation,
} from "~/lib/rules/pricing";
import { catalogueCached } from "./catalogue-cache.server";
import { db, type Tx } from "../db/client.server";
import { athletes, categories, videoFormats } from "../db/schema";

/**
 * The server's side of the price rule (app/lib/rules/pricing.ts): it reads the athletes' prices and
 * the contest's formats from the database: what the order form offers, at the athletes' own prices.
 * What an order costs, promotions applied, is priceItems' (promotions/order-pricing.server.ts).
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
