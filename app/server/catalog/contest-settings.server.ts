import { and, asc, count, eq, ne } from "drizzle-orm";
import { slugKey } from "~/lib/rules/slug";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { contestNameTakenMessage, contestWithSameSlug } from "./contests.server";
import {
  athletes,
  categories,
  contests,
  priceDescriptions,
  videoFormats,
  type PriceItem,
} from "../db/schema";

/**
 * The 大会設定 tab's rules: name and number label, categories, video formats and the price
 * description (its 公開設定 is publication.server's). The storefront reads these same rows on
 * every request, so a change shows there at once.
 */

/** New categories take these in order (the first one not in use), then random colours. */
export const CATEGORY_PALETTE = [
  "#ef4444",
  "#f97316",
  "#eab308",
  "#22c55e",
  "#14b8a6",
  "#3b82f6",
  "#8b5cf6",
  "#ec4899",
  "#06b6d4",
  "#84cc16",
  "#f59e0b",
  "#6366f1",
  "#d946ef",
  "#10b981",
  "#64748b",
] as const;

export type SettingsResult = { ok: true } | { ok: false; field: string; message: string };

const fail = (field: string, message: string): SettingsResult => ({ ok: false, field, message });
const OK: SettingsResult = { ok: true };

export function contestSettings(contestId: number) {
  const athleteCounts = new Map(
    db()
      .select({ category: athletes.category, athletes: count() })
      .from(athletes)
      .where(and(eq(athletes.contestId, contestId), eq(athletes.isDeleted, false)))
      .groupBy(athletes.category)
      .all()
      .map((row) => [row.category, row.athletes]),
  );
  return {
    categories: listCategories(contestId).map(({ id, name, color }) => ({
      id,
      name,
      color,
      athletes: athleteCounts.get(name) ?? 0,
    })),
    formats: listFormats(contestId).map(({ id, name, displayOrder }) => ({ id, name, displayOrder })),
    priceDescription: priceDescriptionOf(contestId),
  };
}

/** A contest's categories, oldest first (the order the settings tab and the order form show). */
export function listCategories(contestId: number) {
  return db()
    .select({
      id: categories.id,
      contestId: categories.contestId,
      name: categories.name,
      color: categories.color,
      createdAt: categories.createdAt,
    })
    .from(categories)
    .where(eq(categories.contestId, contestId))
    .orderBy(asc(categories.id))
    .all();
}

/** A contest's video formats in their order: the first is priced as 縦, the second as 横. */
export function listFormats(contestId: number) {
  return db()
    .select({
      id: videoFormats.id,
      contestId: videoFormats.contestId,
      name: videoFormats.name,
      displayOrder: videoFormats.displayOrder,
    })
    .from(videoFormats)
    .where(eq(videoFormats.contestId, contestId))
    .orderBy(asc(videoFormats.displayOrder), asc(videoFormats.id))
    .all();
}

/** The price description a contest has saved, or null (the order form then shows none). */
export function savedPriceDescription(contestId: number): { items: PriceItem[]; notes: string } | null {
  const description = db()
    .select({ items: priceDescriptions.items, notes: priceDescriptions.notes })
    .from(priceDescriptions)
    .where(eq(priceDescriptions.contestId, contestId))
    .get();
  return description ?? null;
}

/** The price description as the settings tab and the API edit it: empty when none is saved. */
export function priceDescriptionOf(contestId: number): { items: PriceItem[]; notes: string } {
  return savedPriceDescription(contestId) ?? { items: [], notes: "" };
}

/**
 * The name also moves the storefront's slug, so the order form's URL follows the new name;
 * a name whose slug is another contest's is refused (its order form could not be reached).
 */
export function updateBasicInfo(
  contestId: number,
  value: { name: string; bibNumberLabel: string },
): SettingsResult {
  return db().transaction(
    (tx) => {
      const clash = contestWithSameSlug(value.name, contestId, tx);
      if (clash) return fail("name", contestNameTakenMessage(clash.name));
      tx.update(contests)
        .set({
          name: value.name,
          slugKey: slugKey(value.name),
          bibNumberLabel: value.bibNumberLabel,
          updatedAt: now(),
        })
        .where(eq(contests.id, contestId))
        .run();
      return OK;
    },
    { behavior: "immediate" },
  );
}

/**
 * 合言葉と選手名. A new code takes effect at once: an order form opened with the old one closes
 * again (sessions remember the code they opened with, `contestOpen`), as does a draft's checkout.
 */
export function saveAccessSettings(contestId: number, value: { accessCode: string; namesHidden: boolean }) {
  db()
    .update(contests)
    .set({ accessCode: value.accessCode || null, namesHidden: value.namesHidden, updatedAt: now() })
    .where(eq(contests.id, contestId))
    .run();
}

export function nextCategoryColor(used: string[], random: () => number = Math.random): string {
  const inUse = new Set(used.map((color) => color.toLowerCase()));
  const free = CATEGORY_PALETTE.find((color) => !inUse.has(color));
  if (free) return free;
  return `hsl(${Math.floor(random() * 360)}, 65%, 50%)`;
}

/** Athletes name their category by its name, so two categories of one name could not be told apart. */
export function addCategory(contestId: number, name: string): SettingsResult {
  return db().transaction(
    (tx) => {
      const existing = tx
        .select({ name: categories.name, color: categories.color })
        .from(categories)
        .where(eq(categories.contestId, contestId))
        .all();
      if (existing.some((row) => row.name === name)) return fail("name", "同じ名前の部門がすでにあります");
      tx.insert(categories)
        .values({ contestId, name, color: nextCategoryColor(existing.map((row) => row.color)) })
        .run();
      return OK;
    },
    { behavior: "immediate" },
  );
}

/**
 * Deletes a category. Its athletes are kept and become 未分類 (an empty category), so
 * nothing already filmed disappears from the shop; they can be given another category later.
 */
export function deleteCategory(
  contestId: number,
  categoryId: number,
): { ok: true; name: string; movedAthletes: number } | { ok: false } {
  return db().transaction(
    (tx) => {
      const category = tx
        .select({ name: categories.name })
        .from(categories)
        .where(and(eq(categories.id, categoryId), eq(categories.contestId, contestId)))
        .get();
      if (!category) return { ok: false as const };
      tx.delete(categories).where(eq(categories.id, categoryId)).run();
      const moved = tx
        .update(athletes)
        .set({ category: "", updatedAt: now() })
        .where(and(eq(athletes.contestId, contestId), eq(athletes.category, category.name)))
        .run();
      return { ok: true as const, name: category.name, movedAthletes: moved.changes };
    },
    { behavior: "immediate" },
  );
}

function formatNameTaken(
  tx: Pick<ReturnType<typeof db>, "select">,
  contestId: number,
  name: string,
  except?: number,
): boolean {
  const conditions = [eq(videoFormats.contestId, contestId), eq(videoFormats.name, name)];
  if (except !== undefined) conditions.push(ne(videoFormats.id, except));
  return (
    tx
      .select({ id: videoFormats.id })
      .from(videoFormats)
      .where(and(...conditions))
      .get() !== undefined
  );
}

export function addFormat(contestId: number, name: string): SettingsResult {
  return db().transaction(
    (tx) => {
      if (formatNameTaken(tx, contestId, name)) return fail("name", "同じ名前の動画形式がすでにあります");
      const formats = tx
        .select({ order: videoFormats.displayOrder })
        .from(videoFormats)
        .where(eq(videoFormats.contestId, contestId))
        .all();
      const displayOrder = formats.reduce((max, row) => Math.max(max, row.order + 1), 0);
      tx.insert(videoFormats).values({ contestId, name, displayOrder }).run();
      return OK;
    },
    { behavior: "immediate" },
  );
}

export function renameFormat(contestId: number, formatId: number, name: string): SettingsResult {
  return db().transaction(
    (tx) => {
      if (formatNameTaken(tx, contestId, name, formatId))
        return fail("name", "同じ名前の動画形式がすでにあります");
      const result = tx
        .update(videoFormats)
        .set({ name })
        .where(and(eq(videoFormats.id, formatId), eq(videoFormats.contestId, contestId)))
        .run();
      return result.changes === 0 ? fail("name", "動画形式が見つかりません") : OK;
    },
    { behavior: "immediate" },
  );
}

/** Writes 0, 1, 2… in the given order, so "first" and "second" (縦 and 横 prices) stay unambiguous. */
function renumber(tx: Pick<ReturnType<typeof db>, "update">, ids: number[]) {
  ids.forEach((id, displayOrder) =>
    tx.update(videoFormats).set({ displayOrder }).where(eq(videoFormats.id, id)).run(),
  );
}

/** The last format cannot go: without one, nothing of the contest could be ordered. */
export function deleteFormat(contestId: number, formatId: number): SettingsResult {
  return db().transaction(
    (tx) => {
      const formats = tx
        .select({ id: videoFormats.id })
        .from(videoFormats)
        .where(eq(videoFormats.contestId, contestId))
        .orderBy(asc(videoFormats.displayOrder), asc(videoFormats.id))
        .all();
      if (!formats.some((row) => row.id === formatId)) return fail("format", "動画形式が見つかりません");
      if (formats.length <= 1) return fail("format", "動画形式は1つ以上必要です");
      tx.delete(videoFormats).where(eq(videoFormats.id, formatId)).run();
      renumber(
        tx,
        formats.filter((row) => row.id !== formatId).map((row) => row.id),
      );
      return OK;
    },
    { behavior: "immediate" },
  );
}

export function moveFormat(contestId: number, formatId: number, direction: "up" | "down"): SettingsResult {
  return reorderFormat(contestId, formatId, (index) => (direction === "up" ? index - 1 : index + 1));
}

/**
 * Puts a format at a place of the list (0 first; past the end is last), the others keeping
 * their order: the JSON API's displayOrder, the same renumbering as 上へ / 下へ.
 */
export function placeFormat(contestId: number, formatId: number, position: number): SettingsResult {
  return reorderFormat(contestId, formatId, (_, last) => Math.min(position, last));
}

function reorderFormat(
  contestId: number,
  formatId: number,
  targetOf: (index: number, last: number) => number,
): SettingsResult {
  return db().transaction(
    (tx) => {
      const ids = tx
        .select({ id: videoFormats.id })
        .from(videoFormats)
        .where(eq(videoFormats.contestId, contestId))
        .orderBy(asc(videoFormats.displayOrder), asc(videoFormats.id))
        .all()
        .map((row) => row.id);
      const index = ids.indexOf(formatId);
      if (index < 0) return fail("format", "動画形式が見つかりません");
      const target = targetOf(index, ids.length - 1);
      // Moving the first up or the last down moves nothing.
      if (target < 0 || target >= ids.length) return OK;
      ids.splice(index, 1);
      ids.splice(target, 0, formatId);
      renumber(tx, ids);
      return OK;
    },
    { behavior: "immediate" },
  );
}

export function savePriceDescription(contestId: number, items: PriceItem[], notes: string): SettingsResult {
  db()
    .insert(priceDescriptions)
    .values({ contestId, items, notes })
    .onConflictDoUpdate({ target: priceDescriptions.contestId, set: { items, notes } })
    .run();
  return OK;
}
