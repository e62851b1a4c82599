import { and, count, eq, inArray } from "drizzle-orm";
import type { BulkAthletesInput } from "~/lib/schemas/athlete-schemas";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { paramSlices } from "../db/param-slices.server";
import { athletes } from "../db/schema";
import type { AthleteChangeResult } from "./athlete-edits.server";
import { restoreClashes } from "./athlete-numbers.server";
import { contestsOfAthletes } from "./athletes.server";

/** The bulk bar's changes (一括更新, 削除, 復元, 完全に削除), a row's 削除 / 復元 / 完全に削除, and the JSON API's purge. */

type BulkChange = Pick<
  BulkAthletesInput,
  "intent" | "ids" | "verticalVideoPrice" | "horizontalVideoPrice" | "videoStatus" | "photoStatus"
>;

const NOT_IN_CONTEST =
  "この大会の選手ではない、または既に削除された選手が含まれています。画面を再読み込みしてください。";

/**
 * The bulk actions. Every id must be an athlete of this contest in the view the action
 * belongs to (active for 一括更新 and 削除, deleted for 復元 and 完全に削除); if one is not,
 * nothing changes: a tampered or stale selection never half-applies.
 */
export function applyBulk(contestId: number, input: BulkChange): AthleteChangeResult {
  const ids = [...new Set(input.ids)];
  const fromDeleted = input.intent === "bulk-restore" || input.intent === "bulk-purge";
  return db().transaction(
    (tx) => {
      const scope = and(eq(athletes.contestId, contestId), eq(athletes.isDeleted, fromDeleted));
      const found = paramSlices(ids).reduce(
        (sum, slice) =>
          sum +
          (tx
            .select({ n: count() })
            .from(athletes)
            .where(and(scope, inArray(athletes.id, slice)))
            .get()?.n ?? 0),
        0,
      );
      if (found !== ids.length) return { ok: false, status: 404, message: NOT_IN_CONTEST } as const;
      if (input.intent === "bulk-restore") {
        const clash = restoreClashes(tx, contestId, ids);
        if (clash) return { ok: false, status: 409, message: clash } as const;
      }
      const updatedAt = now();
      for (const slice of paramSlices(ids))
        writeBulk(tx, input, and(scope, inArray(athletes.id, slice)), updatedAt);
      return { ok: true, count: ids.length } as const;
    },
    { behavior: "immediate" },
  );
}

/** One slice of a checked selection written: purged, deleted, restored, or given the bar's values. */
function writeBulk(tx: Tx, input: BulkChange, where: ReturnType<typeof and>, updatedAt: Date) {
  if (input.intent === "bulk-purge") tx.delete(athletes).where(where).run();
  else if (input.intent === "bulk-delete")
    tx.update(athletes).set({ isDeleted: true, updatedAt }).where(where).run();
  else if (input.intent === "bulk-restore")
    tx.update(athletes).set({ isDeleted: false, updatedAt }).where(where).run();
  else {
    // A field the bar left at 変更しない is undefined and keeps each athlete's own value.
    tx.update(athletes)
      .set({
        updatedAt,
        ...(input.verticalVideoPrice !== undefined ? { verticalVideoPrice: input.verticalVideoPrice } : {}),
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

const SINGLE_TO_BULK = { delete: "bulk-delete", restore: "bulk-restore", purge: "bulk-purge" } as const;

/** 削除 / 復元 / 完全に削除 of one row: the bulk rule with one id. */
export function applySingle(
  contestId: number,
  intent: keyof typeof SINGLE_TO_BULK,
  id: number,
): AthleteChangeResult {
  return applyBulk(contestId, { intent: SINGLE_TO_BULK[intent], ids: [id] });
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
