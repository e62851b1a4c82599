import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AthleteRowInput } from "~/lib/schemas/athlete-schemas";
import { applyBulk, applySingle } from "~/server/catalog/athlete-bulk.server";
import { addAthletes, updateAthlete } from "~/server/catalog/athlete-edits.server";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { athletes } from "~/server/db/schema";

function contestWithAthletes(howMany: number) {
  const contestId = createContest(`番号テスト大会${Math.random().toString(36).slice(2, 8)}`);
  addAthletes(contestId, howMany);
  const rows = db().select().from(athletes).where(eq(athletes.contestId, contestId)).all();
  return { contestId, rows };
}

function input(row: typeof athletes.$inferSelect, changes: Partial<AthleteRowInput> = {}): AthleteRowInput {
  return {
    id: row.id,
    athleteNumber: row.athleteNumber,
    name: row.name,
    category: row.category,
    verticalVideoPrice: row.verticalVideoPrice ?? 0,
    horizontalVideoPrice: row.horizontalVideoPrice ?? 0,
    videoStatus: row.videoStatus,
    photoStatus: row.photoStatus,
    ...changes,
  };
}

const numberOf = (id: number) => db().select().from(athletes).where(eq(athletes.id, id)).get()?.athleteNumber;

describe("two athletes of one contest cannot share a number", () => {
  it("row edit: a number an active athlete of the contest has is refused under the field", () => {
    const { contestId, rows } = contestWithAthletes(3);
    const [first, second] = rows;
    expect(updateAthlete(contestId, input(second!, { athleteNumber: first!.athleteNumber }))).toEqual({
      ok: false,
      status: 409,
      field: "athleteNumber",
      message: `番号${first!.athleteNumber}は「${first!.name}」が使用中です`,
    });
    expect(numberOf(second!.id)).toBe(second!.athleteNumber);
    // Its own number, a free number, and a number another contest uses are fine.
    expect(updateAthlete(contestId, input(second!, { name: "改名" })).ok).toBe(true);
    expect(updateAthlete(contestId, input(second!, { athleteNumber: 77 })).ok).toBe(true);
    const other = contestWithAthletes(1);
    expect(updateAthlete(other.contestId, input(other.rows[0]!, { athleteNumber: 77 })).ok).toBe(true);
  });

  it("a deleted athlete's number is free for an active one, and restoring it then is refused naming the rows", () => {
    const { contestId, rows } = contestWithAthletes(3);
    const [first, second, third] = rows;
    expect(applySingle(contestId, "delete", first!.id).ok).toBe(true);
    expect(updateAthlete(contestId, input(second!, { athleteNumber: first!.athleteNumber })).ok).toBe(true);
    // Restoring would make a pair: refused, nothing restored.
    const refused = applyBulk(contestId, { intent: "bulk-restore", ids: [first!.id] });
    expect(refused).toEqual({
      ok: false,
      status: 409,
      message: `同じ番号の選手がいるため復元できません（番号${first!.athleteNumber}「${first!.name}」は選手「${second!.name}」が使っています）。番号を使っている選手の番号を変えてから復元するか、選択を外してください。`,
    });
    expect(applySingle(contestId, "restore", first!.id).ok).toBe(false);
    // Two deleted athletes of one number restored together: refused, neither restored.
    expect(applyBulk(contestId, { intent: "bulk-delete", ids: [second!.id, third!.id] }).ok).toBe(true);
    expect(
      applyBulk(contestId, { intent: "bulk-restore", ids: [first!.id, second!.id, third!.id] }),
    ).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining(
        `番号${first!.athleteNumber}は「${first!.name}」「${second!.name}」で重なっています`,
      ),
    });
    const restored = db()
      .select()
      .from(athletes)
      .where(and(eq(athletes.contestId, contestId), eq(athletes.isDeleted, false)))
      .all();
    expect(restored).toHaveLength(0);
    // Without the clash the same restore goes through.
    expect(applyBulk(contestId, { intent: "bulk-restore", ids: [first!.id, third!.id] }).ok).toBe(true);
  });

  it("add: new athletes are numbered after every number in use, deleted ones included", () => {
    const { contestId, rows } = contestWithAthletes(2);
    applySingle(contestId, "delete", rows[1]!.id);
    expect(addAthletes(contestId, 2)).toEqual({ first: 3, last: 4 });
  });

  it("the database refuses a pair written around the rule, but not a deleted duplicate", () => {
    const { contestId, rows } = contestWithAthletes(2);
    const [first, second] = rows;
    expect(() =>
      db()
        .insert(athletes)
        .values({ contestId, athleteNumber: first!.athleteNumber, name: "割り込み" })
        .run(),
    ).toThrow("athlete number taken");
    expect(() =>
      db()
        .update(athletes)
        .set({ athleteNumber: first!.athleteNumber })
        .where(eq(athletes.id, second!.id))
        .run(),
    ).toThrow("athlete number taken");
    db()
      .insert(athletes)
      .values({ contestId, athleteNumber: first!.athleteNumber, name: "削除済み", isDeleted: true })
      .run();
    // Prices and statuses of every athlete can still be changed at once.
    expect(
      applyBulk(contestId, { intent: "bulk-update", ids: [first!.id, second!.id], verticalVideoPrice: 4000 })
        .ok,
    ).toBe(true);
  });
});
