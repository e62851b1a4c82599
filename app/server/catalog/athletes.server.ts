import { and, asc, count, eq, inArray, max, or, sql, type SQL } from "drizzle-orm";
import {
  DEFAULT_ATHLETE_PRICE,
  isLegacyStatus,
  type AthleteRowInput,
  type BulkAthletesInput,
  type NewAthleteInput,
} from "~/lib/schemas/athlete-schemas";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { athletes, categories, type AthleteStatus } from "../db/schema";
import { containsPattern } from "../db/sql-like.server";
import { listCategories } from "./contest-settings.server";

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

/**
 * Adds `count` athletes numbered from the contest's highest number + 1 (deleted ones
 * included, so a restored athlete never shares a number with a new one), named 選手{n},
 * 5000 yen per format, statuses 未撮影. One write transaction, so two admins adding at
 * once get distinct numbers.
 */
export function addAthletes(contestId: number, howMany: number): { first: number; last: number } {
  return db().transaction(
    (tx) => {
      const first = nextAthleteNumber(tx, contestId);
      const values = Array.from({ length: howMany }, (_, i) => newAthleteValues(contestId, first + i));
      // SQLite caps bound parameters per statement; 100 rows of 7 stays well below it.
      for (let i = 0; i < values.length; i += 100)
        tx.insert(athletes)
          .values(values.slice(i, i + 100))
          .run();
      return { first, last: first + howMany - 1 };
    },
    { behavior: "immediate" },
  );
}

/** The number 選手追加 gives next: the contest's highest, deleted athletes included, + 1. */
function nextAthleteNumber(tx: Tx, contestId: number): number {
  return (
    (tx
      .select({ n: max(athletes.athleteNumber) })
      .from(athletes)
      .where(eq(athletes.contestId, contestId))
      .get()?.n ?? 0) + 1
  );
}

/** A new athlete as 選手追加 makes one: 選手{n}, 5000 yen per format, statuses 未撮影. */
function newAthleteValues(contestId: number, athleteNumber: number) {
  return {
    contestId,
    athleteNumber,
    name: `選手${athleteNumber}`,
    verticalVideoPrice: DEFAULT_ATHLETE_PRICE,
    horizontalVideoPrice: DEFAULT_ATHLETE_PRICE,
    videoStatus: NEW_ATHLETE_STATUS,
    photoStatus: NEW_ATHLETE_STATUS,
  };
}

const NEW_ATHLETE_STATUS: AthleteStatus = "未撮影";

export type AthleteChangeResult =
  | { ok: true; count: number }
  | { ok: false; status: 400 | 404 | 409; message: string; field?: keyof AthleteRowInput };

/** The row edit's message when another active athlete of the contest has the number. */
export function athleteNumberTakenMessage(athleteNumber: number, holder: string): string {
  return `番号${athleteNumber}は「${holder}」が使用中です`;
}

/**
 * Active athletes of the contest with one of these numbers, other than `exceptIds`: two
 * athletes of one number could not be told apart on the order form, the production list or
 * a delivery file's name. Deleted athletes keep their number but do not count until
 * restored. The database's triggers (migration 0011) back the rule up.
 */
function activeHoldersOf(
  tx: Tx,
  contestId: number,
  numbers: number[],
  exceptIds: number[] = [],
): { id: number; athleteNumber: number; name: string }[] {
  const holders: { id: number; athleteNumber: number; name: string }[] = [];
  const unique = [...new Set(numbers)];
  for (let i = 0; i < unique.length; i += 500) {
    holders.push(
      ...tx
        .select({ id: athletes.id, athleteNumber: athletes.athleteNumber, name: athletes.name })
        .from(athletes)
        .where(
          and(
            eq(athletes.contestId, contestId),
            eq(athletes.isDeleted, false),
            inArray(athletes.athleteNumber, unique.slice(i, i + 500)),
          ),
        )
        .all(),
    );
  }
  const except = new Set(exceptIds);
  return holders.filter((holder) => !except.has(holder.id));
}

const NOT_IN_CONTEST =
  "この大会の選手ではない、または既に削除された選手が含まれています。画面を再読み込みしてください。";

/**
 * Saves one row. The athlete must be an active one of this contest, and the values pass
 * `rowRefusal` (statuses, number, category).
 */
export function updateAthlete(contestId: number, input: AthleteRowInput): AthleteChangeResult {
  return db().transaction(
    (tx) => {
      const current = tx
        .select()
        .from(athletes)
        .where(
          and(eq(athletes.id, input.id), eq(athletes.contestId, contestId), eq(athletes.isDeleted, false)),
        )
        .get();
      if (!current)
        return {
          ok: false,
          status: 404,
          message: "選手が見つかりません。削除されたか、この大会の選手ではありません。",
        } as const;
      const refusal = rowRefusal(tx, contestId, input, current);
      if (refusal) return refusal;
      tx.update(athletes)
        .set({
          athleteNumber: input.athleteNumber,
          name: input.name,
          category: input.category,
          verticalVideoPrice: input.verticalVideoPrice,
          horizontalVideoPrice: input.horizontalVideoPrice,
          videoStatus: input.videoStatus as AthleteStatus,
          photoStatus: input.photoStatus as AthleteStatus,
          updatedAt: now(),
        })
        .where(eq(athletes.id, current.id))
        .run();
      return { ok: true, count: 1 } as const;
    },
    { behavior: "immediate" },
  );
}

type HeldValues = Pick<typeof athletes.$inferSelect, "id" | "category" | "videoStatus" | "photoStatus">;

/**
 * Why a row's values cannot be saved (null when they can), for the row edit and the API's
 * create alike. A legacy status (未撮影 and the like, shown as 確認中) is accepted only when it is
 * what the row already holds (a new athlete holds 未撮影, as 選手追加 gives it), so saving a row
 * keeps it; a category must be one of the contest's, 未分類, or the name the athlete already
 * has; the number must be no other active athlete's of the contest.
 */
function rowRefusal(
  tx: Tx,
  contestId: number,
  input: Pick<AthleteRowInput, "athleteNumber" | "category" | "videoStatus" | "photoStatus">,
  held: HeldValues | null,
): Extract<AthleteChangeResult, { ok: false }> | null {
  const heldValues = held ?? {
    id: 0,
    category: "",
    videoStatus: NEW_ATHLETE_STATUS,
    photoStatus: NEW_ATHLETE_STATUS,
  };
  for (const field of ["videoStatus", "photoStatus"] as const) {
    if (isLegacyStatus(input[field]) && input[field] !== heldValues[field])
      return { ok: false, status: 400, field, message: "ステータスを選択してください" };
  }
  const holder = activeHoldersOf(tx, contestId, [input.athleteNumber], held ? [held.id] : [])[0];
  if (holder)
    return {
      ok: false,
      status: 409,
      field: "athleteNumber",
      message: athleteNumberTakenMessage(input.athleteNumber, holder.name),
    };
  if (input.category && input.category !== heldValues.category) {
    const known = tx
      .select({ id: categories.id })
      .from(categories)
      .where(and(eq(categories.contestId, contestId), eq(categories.name, input.category)))
      .get();
    if (!known) return { ok: false, status: 400, field: "category", message: "部門を選択してください" };
  }
  return null;
}

/**
 * One athlete with its fields (the JSON API's create), under the row edit's rules; a field
 * left out takes 選手追加's default (the next number, 選手{n}, 5000 yen, 未撮影). One write
 * transaction, so two callers never take one number.
 */
export function createAthlete(
  contestId: number,
  input: NewAthleteInput,
): { ok: true; athlete: typeof athletes.$inferSelect } | Extract<AthleteChangeResult, { ok: false }> {
  return db().transaction(
    (tx) => {
      const defaults = newAthleteValues(contestId, input.athleteNumber ?? nextAthleteNumber(tx, contestId));
      const values = {
        ...defaults,
        name: input.name ?? defaults.name,
        category: input.category ?? "",
        verticalVideoPrice: input.verticalVideoPrice ?? defaults.verticalVideoPrice,
        horizontalVideoPrice: input.horizontalVideoPrice ?? defaults.horizontalVideoPrice,
        videoStatus: (input.videoStatus ?? defaults.videoStatus) as AthleteStatus,
        photoStatus: (input.photoStatus ?? defaults.photoStatus) as AthleteStatus,
      };
      const refusal = rowRefusal(tx, contestId, values, null);
      if (refusal) return refusal;
      return { ok: true, athlete: tx.insert(athletes).values(values).returning().get() } as const;
    },
    { behavior: "immediate" },
  );
}

/**
 * The bulk actions. Every id must be an athlete of this contest in the view the action
 * belongs to (active for 一括更新 and 削除, deleted for 復元 and 完全に削除); if one is not,
 * nothing changes: a tampered or stale selection never half-applies.
 */
export function applyBulk(
  contestId: number,
  input: Pick<
    BulkAthletesInput,
    "intent" | "ids" | "verticalVideoPrice" | "horizontalVideoPrice" | "videoStatus" | "photoStatus"
  >,
): AthleteChangeResult {
  const ids = [...new Set(input.ids)];
  const fromDeleted = input.intent === "bulk-restore" || input.intent === "bulk-purge";
  return db().transaction(
    (tx) => {
      const scope = and(eq(athletes.contestId, contestId), eq(athletes.isDeleted, fromDeleted));
      let found = 0;
      // Checked in slices: SQLite limits the parameters of one statement.
      for (let i = 0; i < ids.length; i += 500) {
        found +=
          tx
            .select({ n: count() })
            .from(athletes)
            .where(and(scope, inArray(athletes.id, ids.slice(i, i + 500))))
            .get()?.n ?? 0;
      }
      if (found !== ids.length) return { ok: false, status: 404, message: NOT_IN_CONTEST } as const;
      if (input.intent === "bulk-restore") {
        const clash = restoreClashes(tx, contestId, ids);
        if (clash) return { ok: false, status: 409, message: clash } as const;
      }
      const updatedAt = now();
      for (let i = 0; i < ids.length; i += 500) {
        const where = and(scope, inArray(athletes.id, ids.slice(i, i + 500)));
        if (input.intent === "bulk-purge") tx.delete(athletes).where(where).run();
        else if (input.intent === "bulk-delete")
          tx.update(athletes).set({ isDeleted: true, updatedAt }).where(where).run();
        else if (input.intent === "bulk-restore")
          tx.update(athletes).set({ isDeleted: false, updatedAt }).where(where).run();
        else {
          tx.update(athletes)
            .set({
              updatedAt,
              ...(input.verticalVideoPrice !== undefined
                ? { verticalVideoPrice: input.verticalVideoPrice }
                : {}),
              ...(input.horizontalVideoPrice !== undefined
                ? { horizontalVideoPrice: input.horizontalVideoPrice }
                : {}),
              ...(input.videoStatus !== undefined ? { videoStatus: input.videoStatus } : {}),
              ...(input.photoStatus !== undefined ? { photoStatus: input.photoStatus } : {}),
            })
            .where(where)
            .run();
        }
      }
      return { ok: true, count: ids.length } as const;
    },
    { behavior: "immediate" },
  );
}

/**
 * Why restoring these deleted athletes would give two active athletes one number (an active
 * athlete has it, or two of the selection share it), naming every clashing row; null if none.
 */
function restoreClashes(tx: Tx, contestId: number, ids: number[]): string | null {
  const restoring: { id: number; athleteNumber: number; name: string }[] = [];
  for (let i = 0; i < ids.length; i += 500)
    restoring.push(
      ...tx
        .select({ id: athletes.id, athleteNumber: athletes.athleteNumber, name: athletes.name })
        .from(athletes)
        .where(inArray(athletes.id, ids.slice(i, i + 500)))
        .all(),
    );
  const active = new Map(
    activeHoldersOf(
      tx,
      contestId,
      restoring.map((row) => row.athleteNumber),
    ).map((row) => [row.athleteNumber, row.name]),
  );
  const byNumber = new Map<number, string[]>();
  for (const row of restoring)
    byNumber.set(row.athleteNumber, [...(byNumber.get(row.athleteNumber) ?? []), row.name]);
  const clashes = [...byNumber.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([athleteNumber, names]) => {
      const holder = active.get(athleteNumber);
      if (holder !== undefined)
        return [`番号${athleteNumber}「${names.join("」「")}」は選手「${holder}」が使っています`];
      if (names.length > 1) return [`番号${athleteNumber}は「${names.join("」「")}」で重なっています`];
      return [];
    });
  if (clashes.length === 0) return null;
  const shown =
    clashes.slice(0, 10).join("、") + (clashes.length > 10 ? `、ほか${clashes.length - 10}件` : "");
  return `同じ番号の選手がいるため復元できません（${shown}）。番号を使っている選手の番号を変えてから復元するか、選択を外してください。`;
}

const SINGLE_TO_BULK = { delete: "bulk-delete", restore: "bulk-restore", purge: "bulk-purge" } as const;

/** 削除 / 復元 / 完全に削除 of one row: the bulk rule with one id. */
export function applySingle(
  contestId: number,
  intent: keyof typeof SINGLE_TO_BULK,
  id: number,
): AthleteChangeResult {
  return applyBulk(contestId, { intent: SINGLE_TO_BULK[intent], ids: [id] });
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

/** The contest of each athlete the ids name (and `where` keeps), in slices: SQLite caps bound parameters. */
function contestsOfAthletes(ids: number[], where?: SQL): Map<number, number> {
  const found = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 500)
    for (const row of db()
      .select({ id: athletes.id, contestId: athletes.contestId })
      .from(athletes)
      .where(and(inArray(athletes.id, ids.slice(i, i + 500)), where))
      .all())
      found.set(row.id, row.contestId);
  return found;
}

/**
 * 完全に削除 of athletes by id, whatever their contest (the JSON API's bulk call, which reports
 * per athlete where the screen's bar is all or nothing): the ids the screen's purge would take
 * (deleted athletes) are purged through it, contest by contest, and every other id (unknown, or
 * an active athlete, which must be deleted first) counts as failed. Order lines keep their own
 * copy of the athlete's number and name, so an athlete with orders can be purged, as on the screen.
 */
export function purgeAthletes(ids: number[]): { successCount: number; failedCount: number } {
  const unique = [...new Set(ids)];
  const byContest = new Map<number, number[]>();
  for (const [id, contestId] of contestsOfAthletes(unique, eq(athletes.isDeleted, true)))
    byContest.set(contestId, [...(byContest.get(contestId) ?? []), id]);
  let successCount = 0;
  for (const [contestId, group] of byContest) {
    // applyBulk checks again in its own transaction: one restored meanwhile fails its contest's group.
    const result = applyBulk(contestId, { intent: "bulk-purge", ids: group });
    if (result.ok) successCount += result.count;
  }
  return { successCount, failedCount: unique.length - successCount };
}
