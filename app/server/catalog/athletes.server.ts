import { and, asc, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { db } from "../db/client.server";
import { paramSlices } from "../db/param-slices.server";
import { athletes } from "../db/schema";
import { containsPattern } from "../db/sql-like.server";
import { listCategories } from "./contest-settings.server";

/**
 * Reading a contest's athletes: the 選手管理 tab's pages, one athlete, and the JSON API's lists.
 * Their changes are in athlete-edits.server.ts (one athlete) and athlete-bulk.server.ts (a
 * selection), the numbering rule in athlete-numbers.server.ts.
 */

export const ATHLETES_PAGE_SIZE = 50;

export type AthleteView = "active" | "deleted";

export type AthleteListQuery = { view: AthleteView; page: number; q: string; category: string | null };

export type AthleteRow = {
  id: number;
  athleteNumber: number;
  name: string;
  category: string;
  videoStatus: string;
  photoStatus: string;
  verticalVideoPrice: number | null;
  horizontalVideoPrice: number | null;
  updatedAt: number;
};

/** Filters of the list, all in SQL: view, category (empty string = 未分類), and number-or-name search. */
function listWhere(contestId: number, query: AthleteListQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    eq(athletes.contestId, contestId),
    eq(athletes.isDeleted, query.view === "deleted"),
  ];
  if (query.category !== null) conditions.push(eq(athletes.category, query.category));
  const q = query.q.trim();
  if (q) {
    const byName = sql`${athletes.name} like ${containsPattern(q)} escape '\\'`;
    conditions.push(/^\d{1,9}$/.test(q) ? or(eq(athletes.athleteNumber, Number(q)), byName) : byName);
  }
  return and(...conditions);
}

/** One page of a contest's athletes, in number order, with the counts the tabs show. */
export function listAthletes(contestId: number, query: AthleteListQuery) {
  const where = listWhere(contestId, query);
  const matching = db().select({ n: count() }).from(athletes).where(where).get()?.n ?? 0;
  const pages = Math.max(1, Math.ceil(matching / ATHLETES_PAGE_SIZE));
  const page = Math.min(query.page, pages);
  const rows: AthleteRow[] = db()
    .select({
      id: athletes.id,
      athleteNumber: athletes.athleteNumber,
      name: athletes.name,
      category: athletes.category,
      videoStatus: athletes.videoStatus,
      photoStatus: athletes.photoStatus,
      verticalVideoPrice: athletes.verticalVideoPrice,
      horizontalVideoPrice: athletes.horizontalVideoPrice,
      updatedAt: athletes.updatedAt,
      createdAt: athletes.createdAt,
    })
    .from(athletes)
    .where(where)
    .orderBy(asc(athletes.athleteNumber), asc(athletes.id))
    .limit(ATHLETES_PAGE_SIZE)
    .offset((page - 1) * ATHLETES_PAGE_SIZE)
    .all()
    .map(({ createdAt, updatedAt, ...row }) => ({ ...row, updatedAt: (updatedAt ?? createdAt).getTime() }));
  const counts = db()
    .select({ isDeleted: athletes.isDeleted, n: count() })
    .from(athletes)
    .where(eq(athletes.contestId, contestId))
    .groupBy(athletes.isDeleted)
    .all();
  return {
    rows,
    page,
    pages,
    matching,
    activeCount: counts.find((c) => !c.isDeleted)?.n ?? 0,
    deletedCount: counts.find((c) => c.isDeleted)?.n ?? 0,
  };
}

/** The names a row's 部門 select offers: the contest's categories in the order they were made. */
export function contestCategoryNames(contestId: number): string[] {
  return listCategories(contestId).map((category) => category.name);
}

export function findAthleteOfContest(contestId: number, id: number) {
  return (
    db()
      .select()
      .from(athletes)
      .where(and(eq(athletes.id, id), eq(athletes.contestId, contestId)))
      .get() ?? null
  );
}

/** An athlete by id, whatever its contest (the JSON API's addresses name no contest). */
export function findAthlete(id: number) {
  return db().select().from(athletes).where(eq(athletes.id, id)).get() ?? null;
}

/** Every athlete of a contest in number order (the JSON API's list), deleted ones only when asked. */
export function contestAthletes(contestId: number, options: { includeDeleted: boolean }) {
  return db()
    .select()
    .from(athletes)
    .where(
      and(
        eq(athletes.contestId, contestId),
        options.includeDeleted ? undefined : eq(athletes.isDeleted, false),
      ),
    )
    .orderBy(asc(athletes.athleteNumber), asc(athletes.id))
    .all();
}

/**
 * The contest a selection of athletes belongs to, by its first id that names an athlete (null
 * when none does). The bulk actions then hold every id to that contest, as the screen's bar
 * holds them to the contest it shows.
 */
export function contestOfSelection(ids: number[]): number | null {
  const found = contestsOfAthletes(ids);
  const first = ids.find((id) => found.has(id));
  return first === undefined ? null : (found.get(first) ?? null);
}

/** The contest of each athlete the ids name (and `where` keeps). */
export function contestsOfAthletes(ids: number[], where?: SQL): Map<number, number> {
  const found = new Map<number, number>();
  for (const slice of paramSlices(ids))
    for (const row of db()
      .select({ id: athletes.id, contestId: athletes.contestId })
      .from(athletes)
      .where(and(inArray(athletes.id, slice), where))
      .all())
      found.set(row.id, row.contestId);
  return found;
}
