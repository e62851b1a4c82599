import { eq } from "drizzle-orm";
import { NO_PROMOTIONS, type ContestPromotions } from "~/lib/rules/promotions";
import { catalogueCached } from "../catalog/catalogue-cache.server";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { contestPromotions } from "../db/schema";

/**
 * A contest's promotions (大会設定), read for pricing and the order form. Kept with the catalogue:
 * the order form is opened by hundreds of parents at once, and the triggers of migration 0022
 * count every write here in the catalogue's version.
 */

type PromotionsRow = typeof contestPromotions.$inferSelect;

/** The rule's shape of a row (lib/rules/promotions.ts): a promotion missing any part is off. */
export function promotionsOf(row: PromotionsRow | undefined): ContestPromotions {
  if (!row) return NO_PROMOTIONS;
  const early = { vertical: row.earlyBirdVerticalPrice, horizontal: row.earlyBirdHorizontalPrice };
  return {
    earlyBird:
      row.earlyBirdEndsAt && (early.vertical !== null || early.horizontal !== null)
        ? { prices: early, endsAt: row.earlyBirdEndsAt.getTime() }
        : null,
    setDiscount: row.setDiscount && row.setDiscount > 0 ? row.setDiscount : null,
    quantity:
      row.quantityMinItems && row.quantityDiscountKind && row.quantityDiscountValue
        ? { minItems: row.quantityMinItems, kind: row.quantityDiscountKind, value: row.quantityDiscountValue }
        : null,
  };
}

/** The contest's promotions as the rule takes them. */
export function contestPromotionsOf(contestId: number): ContestPromotions {
  return catalogueCached(`contest-promotions:${contestId}`, () => promotionsOf(promotionsRow(contestId)));
}

/** The row as stored (the settings form shows it), or undefined when the contest has none. */
export function promotionsRow(contestId: number, reader: Pick<Tx, "select"> = db()) {
  return reader.select().from(contestPromotions).where(eq(contestPromotions.contestId, contestId)).get();
}

export type PromotionsValues = Omit<PromotionsRow, "contestId" | "updatedAt">;

/** Saves the contest's promotions (the settings form's values, already validated). */
export function saveContestPromotions(
  contestId: number,
  values: PromotionsValues,
  writer: Pick<Tx, "insert"> = db(),
) {
  const row = { ...values, updatedAt: now() };
  writer
    .insert(contestPromotions)
    .values({ contestId, ...row })
    .onConflictDoUpdate({ target: contestPromotions.contestId, set: row })
    .run();
}
