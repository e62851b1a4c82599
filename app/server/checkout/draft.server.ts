import crypto from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { athletes, categories, checkouts, contests, videoFormats, type CheckoutItem, type PricedLine } from "../db/schema";
import type { ShopSession } from "../http/session.server";

/** Shown when an athlete has no price for the chosen format. */
export const FALLBACK_PRICE = 3500;

/** Only the first two formats have a price (vertical, horizontal), so only they can be ordered. */
const ORIENTATIONS = ["vertical", "horizontal"] as const;

export type OrderFormAthlete = {
  id: number;
  number: number;
  name: string;
  category: string;
  verticalPrice: number;
  horizontalPrice: number;
};

export type OrderFormFormat = { id: number; name: string; orientation: (typeof ORIENTATIONS)[number] };

/** What the order form offers: the contest's categories, its orderable formats and its athletes on sale. */
export function orderFormOptions(contestId: number) {
  const categoryRows = db()
    .select({ name: categories.name, color: categories.color })
    .from(categories)
    .where(eq(categories.contestId, contestId))
    .orderBy(asc(categories.id))
    .all();
  const formats: OrderFormFormat[] = db()
    .select({ id: videoFormats.id, name: videoFormats.name })
    .from(videoFormats)
    .where(eq(videoFormats.contestId, contestId))
    .orderBy(asc(videoFormats.displayOrder), asc(videoFormats.id))
    .limit(ORIENTATIONS.length)
    .all()
    .map((format, index) => ({ ...format, orientation: ORIENTATIONS[index] ?? "vertical" }));
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
    .where(and(eq(athletes.contestId, contestId), eq(athletes.isDeleted, false), eq(athletes.videoStatus, "販売中")))
    .orderBy(asc(athletes.athleteNumber))
    .all()
    .map((row) => ({
      ...row,
      category: row.category || "未分類",
      verticalPrice: row.verticalPrice ?? FALLBACK_PRICE,
      horizontalPrice: row.horizontalPrice ?? FALLBACK_PRICE,
    }));
  // Categories named by athletes but never created (e.g. 未分類) are offered too.
  const names = new Set(categoryRows.map((c) => c.name));
  const extra = [...new Set(athleteRows.map((a) => a.category))].filter((name) => !names.has(name));
  return { categories: [...categoryRows.map((c) => c.name), ...extra], formats, athletes: athleteRows };
}

export type PricingResult = { ok: true; lines: PricedLine[]; total: number } | { ok: false; message: string; index: number };

/**
 * Prices a complete order on the server from the athletes' current prices. Refuses an
 * athlete of another contest, one not on sale, a category that does not match, or a
 * format that cannot be ordered: a tampered form gets a message, never a price it chose.
 */
export function priceItems(contestId: number, items: { category: string; athleteId: number; formatId: number }[]): PricingResult {
  const options = orderFormOptions(contestId);
  const lines: PricedLine[] = [];
  for (const [index, item] of items.entries()) {
    const athlete = options.athletes.find((a) => a.id === item.athleteId);
    if (!athlete) return { ok: false, index, message: "選択された選手は現在ご注文いただけません" };
    if (athlete.category !== item.category) return { ok: false, index, message: "選手と部門の組み合わせが正しくありません" };
    const format = options.formats.find((f) => f.id === item.formatId);
    if (!format) return { ok: false, index, message: "選択された動画スタイルはご注文いただけません" };
    lines.push({
      category: athlete.category,
      athleteId: athlete.id,
      athleteNumber: athlete.number,
      athleteName: athlete.name,
      formatId: format.id,
      style: format.name,
      orientation: format.orientation,
      price: format.orientation === "vertical" ? athlete.verticalPrice : athlete.horizontalPrice,
    });
  }
  return { ok: true, lines, total: lines.reduce((sum, line) => sum + line.price, 0) };
}

export type Checkout = typeof checkouts.$inferSelect;

/** The session's open checkout (not yet paid), if any. */
export function currentCheckout(session: ShopSession): Checkout | null {
  const id = session.get("checkoutId");
  if (!id) return null;
  const row = db().select().from(checkouts).where(eq(checkouts.id, id)).get();
  return row && row.status !== "paid" && row.status !== "closed" ? row : null;
}

/**
 * Saves the order form's items as the session's draft for this contest. A draft of
 * another contest is replaced. Any change to the items sends the customer back
 * through e-mail verification's price check (the payment snapshot is dropped).
 */
export function saveDraft(session: ShopSession, contestId: number, items: CheckoutItem[]): Checkout {
  const existing = currentCheckout(session);
  const at = now();
  if (existing) {
    const sameContest = existing.contestId === contestId;
    return db()
      .update(checkouts)
      .set({
        contestId,
        items,
        pricedLines: null,
        amount: null,
        updatedAt: at,
        ...(sameContest ? {} : { customerEmail: null, customerName: null, emailVerifiedAt: null, status: "draft" as const }),
      })
      .where(eq(checkouts.id, existing.id))
      .returning()
      .get();
  }
  const created = db()
    .insert(checkouts)
    .values({ id: crypto.randomBytes(16).toString("base64url"), contestId, items, createdAt: at, updatedAt: at })
    .returning()
    .get();
  session.set("checkoutId", created.id);
  return created;
}

/** The draft's items that are complete, typed for pricing. */
export function completeItems(items: CheckoutItem[]) {
  return items.flatMap((item) =>
    item.category && item.athleteId && item.formatId ? [{ category: item.category, athleteId: item.athleteId, formatId: item.formatId }] : [],
  );
}

export function checkoutContest(checkout: Checkout) {
  if (!checkout.contestId) return null;
  return db().select().from(contests).where(eq(contests.id, checkout.contestId)).get() ?? null;
}

export function updateCheckout(id: string, values: Partial<typeof checkouts.$inferInsert>) {
  return db()
    .update(checkouts)
    .set({ ...values, updatedAt: now() })
    .where(eq(checkouts.id, id))
    .returning()
    .get();
}
