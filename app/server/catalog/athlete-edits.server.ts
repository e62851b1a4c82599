import { and, eq } from "drizzle-orm";
import {
  DEFAULT_ATHLETE_PRICE,
  isLegacyStatus,
  type AthleteRowInput,
  type NewAthleteInput,
} from "~/lib/schemas/athlete-schemas";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { paramSlices } from "../db/param-slices.server";
import { athletes, categories, type AthleteStatus } from "../db/schema";
import { activeHoldersOf, athleteNumberTakenMessage, nextAthleteNumber } from "./athlete-numbers.server";

/** Athletes added and edited one by one: 選手追加, a row's 保存, and the JSON API's create. */

export type AthleteChangeResult =
  | { ok: true; count: number }
  | { ok: false; status: 400 | 404 | 409; message: string; field?: keyof AthleteRowInput };

type AthleteRefusal = Extract<AthleteChangeResult, { ok: false }>;

const NEW_ATHLETE_STATUS: AthleteStatus = "未撮影";

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
      // A row binds one parameter per column: 100 rows of 7 stays well below SQLite's cap.
      for (const slice of paramSlices(values, 100)) tx.insert(athletes).values(slice).run();
      return { first, last: first + howMany - 1 };
    },
    { behavior: "immediate" },
  );
}

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

/**
 * One athlete with its fields (the JSON API's create), under the row edit's rules; a field
 * left out takes 選手追加's default (the next number, 選手{n}, 5000 yen, 未撮影). One write
 * transaction, so two callers never take one number.
 */
export function createAthlete(
  contestId: number,
  input: NewAthleteInput,
): { ok: true; athlete: typeof athletes.$inferSelect } | AthleteRefusal {
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
): AthleteRefusal | null {
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
