// What every visitor sees alike is kept in memory until the catalogue changes, and any
// write to the catalogue's tables, by any connection, is seen by the next read.
import Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addCategory, savePriceDescription } from "~/server/catalog/contest-settings.server";
import { findContestBySlug, listStorefrontContests } from "~/server/catalog/contests.server";
import { orderFormOptions } from "~/server/catalog/pricing.server";
import { db } from "~/server/db/client.server";
import { athletes, contests } from "~/server/db/schema";
import { orderFormPage } from "~/server/checkout/order-form.server";
import { seedContest } from "../../helpers/shop";
import { newSession } from "../../helpers/accounts";

describe("the catalogue kept in memory", () => {
  it("reads a contest's order-form options once while nothing changes, and again after an admin's write", () => {
    const { contestId, onSale } = seedContest();
    const first = orderFormOptions(contestId);
    expect(orderFormOptions(contestId)).toBe(first);

    // 選手管理 changes a price: the next order form shows it.
    db().update(athletes).set({ verticalVideoPrice: 3500 }).where(eq(athletes.id, onSale.id)).run();
    const after = orderFormOptions(contestId);
    expect(after).not.toBe(first);
    expect(after.athletes.find((athlete) => athlete.id === onSale.id)?.verticalPrice).toBe(3500);

    // 大会設定 adds a category with nothing on sale yet: read again, and still not offered.
    expect(addCategory(contestId, "C部門").ok).toBe(true);
    const withCategory = orderFormOptions(contestId);
    expect(withCategory).not.toBe(after);
    expect(withCategory.categories).not.toContain("C部門");
  });

  it("sees a write made by another connection to the same file (a script, another process)", async () => {
    const { contestId, name } = seedContest();
    const session = await newSession();
    expect(orderFormPage(session, { id: contestId }).priceDescription?.notes).not.toBe("別の接続の備考");
    expect(orderFormPage(session, { id: contestId }).options).toBe(orderFormOptions(contestId));

    const other = new Database(process.env.DATABASE_PATH ?? "");
    other
      .prepare("update athletes set name = '別の接続' where contest_id = ? and athlete_number = 1")
      .run(contestId);
    other
      .prepare("update price_descriptions set notes = '別の接続の備考' where contest_id = ?")
      .run(contestId);
    other.close();

    expect(orderFormOptions(contestId).athletes.find((athlete) => athlete.number === 1)?.name).toBe(
      "別の接続",
    );
    expect(orderFormPage(session, { id: contestId }).priceDescription?.notes).toBe("別の接続の備考");
    expect(findContestBySlug(name)?.id).toBe(contestId);
  });

  it("decides publication by the clock from the kept rows: a scheduled contest opens without a write", () => {
    const { contestId } = seedContest();
    const opensAt = new Date(Date.now() + 3_600_000);
    db()
      .update(contests)
      .set({ videoPublished: false, sitePublicStatus: "公開予約", scheduledPublishDate: opensAt })
      .where(eq(contests.id, contestId))
      .run();
    const before = listStorefrontContests(new Date(opensAt.getTime() - 60_000));
    const after = listStorefrontContests(new Date(opensAt.getTime() + 60_000));
    expect(before.find((contest) => contest.id === contestId)?.onSale).toBe(false);
    expect(after.find((contest) => contest.id === contestId)?.onSale).toBe(true);
  });

  it("keeps nothing read inside a transaction, which may yet be rolled back", () => {
    const { contestId, onSale } = seedContest();
    const kept = orderFormOptions(contestId);
    expect(() =>
      db().transaction((tx) => {
        tx.update(athletes).set({ name: "取り消される名前" }).where(eq(athletes.id, onSale.id)).run();
        expect(orderFormOptions(contestId).athletes[0]?.name).toBe("取り消される名前");
        throw new Error("rolled back");
      }),
    ).toThrow("rolled back");
    const now = orderFormOptions(contestId);
    expect(now.athletes[0]?.name).toBe(kept.athletes[0]?.name);
    expect(savePriceDescription(contestId, [], "").ok).toBe(true);
  });

  it("counts writes to each of the catalogue's tables (migration 0013's triggers, 0022's for promotions)", () => {
    const triggers = db()
      .$client.prepare("select name from sqlite_master where type = 'trigger' and name like '%_catalogue_%'")
      .all() as { name: string }[];
    const tables = [
      "contests",
      "categories",
      "athletes",
      "video_formats",
      "price_descriptions",
      "media_items",
      "contest_promotions",
    ];
    expect(triggers.map((trigger) => trigger.name).sort()).toEqual(
      tables
        .flatMap((table) => ["delete", "insert", "update"].map((op) => `${table}_catalogue_${op}`))
        .sort(),
    );
  });
});
