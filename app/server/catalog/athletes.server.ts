import { and, asc, count, eq, inArray, max, or, sql, type SQL } from "drizzle-orm";
import {
  DEFAULT_ATHLETE_PRICE,
  isLegacyStatus,
  type AthleteRowInput,
  type BulkAthletesInput,
} from "~/lib/athlete-schemas";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { athletes, categories, type AthleteStatus } from "../db/schema";
import { containsPattern } from "../db/sql-like.server";

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
  return db()
    .select({ name: categories.name })
    .from(categories)
    .where(eq(categories.contestId, contestId))
    .orderBy(asc(categories.id))
    .all()
    .map((c) => c.name);
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
      const highest =
        tx
          .select({ n: max(athletes.athleteNumber) })
          .from(athletes)
          .where(eq(athletes.contestId, contestId))
          .get()?.n ?? 0;
      const first = highest + 1;
      const values = Array.from({ length: howMany }, (_, i) => ({
        contestId,
        athleteNumber: first + i,
        name: `選手${first + i}`,
        verticalVideoPrice: DEFAULT_ATHLETE_PRICE,
        horizontalVideoPrice: DEFAULT_ATHLETE_PRICE,
        videoStatus: "未撮影" as const,
        photoStatus: "未撮影" as const,
      }));
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
 * Saves one row. The athlete must be an active one of this contest. A legacy status
 * (未撮影 and the like, shown as 確認中) is accepted only when it is what the row already
 * holds, so saving a row keeps it; a category must be one of the contest's, 未分類, or
 * the name the athlete already has.
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
      for (const field of ["videoStatus", "photoStatus"] as const) {
        if (isLegacyStatus(input[field]) && input[field] !== current[field])
          return { ok: false, status: 400, field, message: "ステータスを選択してください" } as const;
      }
      const holder = activeHoldersOf(tx, contestId, [input.athleteNumber], [current.id])[0];
      if (holder)
        return {
          ok: false,
          status: 409,
          field: "athleteNumber",
          message: athleteNumberTakenMessage(input.athleteNumber, holder.name),
        } as const;
      if (input.category && input.category !== current.category) {
        const known = tx
          .select({ id: categories.id })
          .from(categories)
          .where(and(eq(categories.contestId, contestId), eq(categories.name, input.category)))
          .get();
        if (!known)
          return { ok: false, status: 400, field: "category", message: "部門を選択してください" } as const;
      }
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
