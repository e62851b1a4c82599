import { and, eq, inArray, max } from "drizzle-orm";
import type { Tx } from "../db/client.server";
import { paramSlices } from "../db/param-slices.server";
import { athletes } from "../db/schema";

/**
 * Athlete numbers: unique among a contest's active athletes, new ones numbered after every
 * number the contest has used. Two athletes of one number could not be told apart on the order
 * form, the production list or a delivery file's name. The database's triggers (migration 0011)
 * back the rule up; these give the reasons the screen and the JSON calls show.
 */

type NumberHolder = { id: number; athleteNumber: number; name: string };

/** The number 選手追加 gives next: the contest's highest, deleted athletes included, + 1. */
export function nextAthleteNumber(tx: Tx, contestId: number): number {
  return (
    (tx
      .select({ n: max(athletes.athleteNumber) })
      .from(athletes)
      .where(eq(athletes.contestId, contestId))
      .get()?.n ?? 0) + 1
  );
}

/** The row edit's message when another active athlete of the contest has the number. */
export function athleteNumberTakenMessage(athleteNumber: number, holder: string): string {
  return `番号${athleteNumber}は「${holder}」が使用中です`;
}

/**
 * Active athletes of the contest with one of these numbers, other than `exceptIds`. Deleted
 * athletes keep their number but do not count until restored.
 */
export function activeHoldersOf(
  tx: Tx,
  contestId: number,
  numbers: number[],
  exceptIds: number[] = [],
): NumberHolder[] {
  const except = new Set(exceptIds);
  return paramSlices([...new Set(numbers)])
    .flatMap((slice) =>
      tx
        .select({ id: athletes.id, athleteNumber: athletes.athleteNumber, name: athletes.name })
        .from(athletes)
        .where(
          and(
            eq(athletes.contestId, contestId),
            eq(athletes.isDeleted, false),
            inArray(athletes.athleteNumber, slice),
          ),
        )
        .all(),
    )
    .filter((holder) => !except.has(holder.id));
}

/**
 * Why restoring these deleted athletes would give two active athletes one number (an active
 * athlete has it, or two of the selection share it), naming every clashing row; null if none.
 */
export function restoreClashes(tx: Tx, contestId: number, ids: number[]): string | null {
  const restoring = paramSlices(ids).flatMap((slice) =>
    tx
      .select({ id: athletes.id, athleteNumber: athletes.athleteNumber, name: athletes.name })
      .from(athletes)
      .where(inArray(athletes.id, slice))
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
