import { describe, expect, it } from "vitest";
import { createContest, listStorefrontContests } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { contests, videoFormats } from "~/server/db/schema";
import { eq } from "drizzle-orm";

describe("database", () => {
  it("migrates a new SQLite file with WAL and foreign keys on", () => {
    const client = db().$client;
    expect(client.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(client.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(client.pragma("integrity_check", { simple: true })).toBe("ok");
  });

  it("creates a contest with the defaults and lists only contests on sale", () => {
    const id = createContest("  春の発表会  ");
    const contest = db().select().from(contests).where(eq(contests.id, id)).get();
    expect(contest).toMatchObject({
      name: "春の発表会",
      date: "未定",
      location: "",
      videoPublished: false,
      photoPublished: false,
      sitePublicStatus: "非公開",
    });
    const formats = db()
      .select()
      .from(videoFormats)
      .where(eq(videoFormats.contestId, id))
      .orderBy(videoFormats.displayOrder)
      .all();
    expect(formats.map((f) => [f.name, f.displayOrder])).toEqual([
      ["縦", 0],
      ["横", 1],
    ]);

    expect(listStorefrontContests().map((c) => c.id)).not.toContain(id);
    db()
      .update(contests)
      .set({ sitePublicStatus: "公開予約", scheduledPublishDate: new Date("2030-01-01T00:00:00Z") })
      .where(eq(contests.id, id))
      .run();
    const before = listStorefrontContests(new Date("2029-12-31T23:59:00Z")).find((c) => c.id === id);
    expect(before).toMatchObject({ onSale: false });
    const after = listStorefrontContests(new Date("2030-01-01T00:00:00Z")).find((c) => c.id === id);
    expect(after).toMatchObject({ onSale: true });
  });
});
