import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { describe, expect, it } from "vitest";
import { createContest, listStorefrontContests } from "~/server/catalog/contests.server";
import { db, openDatabase, useDatabase } from "~/server/db/client.server";
import { prepared } from "~/server/db/prepared.server";
import { athletes, contests, deliveryFiles, orderLines, orders, videoFormats } from "~/server/db/schema";
import { eq } from "drizzle-orm";
import { slugKey } from "~/lib/rules/slug";

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

describe("prepared statements", () => {
  it("are built once per connection, and afresh on another connection to another file", () => {
    let built = 0;
    const build = (connection: ReturnType<typeof db>) => {
      built++;
      return connection.$client.prepare("select count(*) as n from contests");
    };
    const first = prepared("test:count-contests", build);
    expect(prepared("test:count-contests", build)).toBe(first);
    expect(built).toBe(1);

    const home = db();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "shop-prepared-")), "other.db");
    const other = openDatabase(file);
    useDatabase(other);
    try {
      createContest("別のファイルの大会");
      const second = prepared("test:count-contests", build);
      expect(second).not.toBe(first);
      expect(built).toBe(2);
      expect(second.get()).toEqual({ n: 1 });
    } finally {
      useDatabase(home);
      other.$client.close();
    }
    expect(prepared("test:count-contests", build)).toBe(first);
  });
});

describe("migration 0007: files attached to single lines become delivery files", () => {
  it("gives each stored name one retired delivery file and points its lines at it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-migration-"));
    // The migrations up to 0006, as a shop that has not yet updated has them.
    const old = path.join(dir, "drizzle-0006");
    fs.mkdirSync(path.join(old, "meta"), { recursive: true });
    const journal = JSON.parse(fs.readFileSync("drizzle/meta/_journal.json", "utf8")) as {
      entries: { idx: number; tag: string }[];
    };
    const entries = journal.entries.filter((entry) => entry.idx <= 6);
    for (const entry of entries)
      fs.copyFileSync(`drizzle/${entry.tag}.sql`, path.join(old, `${entry.tag}.sql`));
    fs.writeFileSync(path.join(old, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
    const file = path.join(dir, "shop.db");
    const sqlite = new Database(file);
    migrate(drizzle(sqlite), { migrationsFolder: old });
    sqlite.exec(`
      insert into contests (id, name, slug_key) values (1, '旧大会', 'old');
      insert into athletes (id, contest_id, athlete_number, name) values (7, 1, 7, '選手7');
      insert into orders (id, order_number, checkout_id, payment_intent_id, contest_id, contest_name, customer_email, customer_name, total_amount)
        values (1, '00000001', 'c1', 'pi1', 1, '旧大会', 'a@example.jp', 'A', 6000),
               (2, '00000002', 'c2', 'pi2', 1, '旧大会', 'b@example.jp', 'B', 3000);
      insert into order_lines (order_id, line_number, contest_name, category, athlete_id, athlete_number, athlete_name, style, orientation, price, delivered_media_name, video_download_url)
        values (1, '00000001-1', '旧大会', '', 7, 7, '選手7', '縦', 'vertical', 3000, 'delivery-aaaaaaaaaaaaaaaaaaaaaaaa.mov', null),
               (1, '00000001-2', '旧大会', '', 7, 7, '選手7', '横', 'horizontal', 3000, null, 'https://example.com/x.mp4'),
               (2, '00000002-1', '旧大会', '', 7, 7, '選手7', '縦', 'vertical', 3000, 'delivery-aaaaaaaaaaaaaaaaaaaaaaaa.mov', null);
    `);
    sqlite.close();

    const migrated = openDatabase(file);
    const files = migrated.select().from(deliveryFiles).all();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({
      contestId: 1,
      storedName: "delivery-aaaaaaaaaaaaaaaaaaaaaaaa.mov",
      contentType: "video/quicktime",
      athleteId: 7,
      orientation: "vertical",
    });
    expect(files[0]!.retiredAt).not.toBeNull();
    const lines = migrated.select().from(orderLines).orderBy(orderLines.lineNumber).all();
    expect(lines.map((line) => [line.deliveryFileId, line.videoDownloadUrl])).toEqual([
      [files[0]!.id, null],
      [null, "https://example.com/x.mp4"],
      [files[0]!.id, null],
    ]);
    migrated.$client.close();
  });
});

/** A shop's file migrated with the migrations up to `lastIdx`, as a shop that has not yet updated has it. */
function databaseMigratedUpTo(lastIdx: number, journalTimes: Record<number, number> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-migration-"));
  const old = path.join(dir, `drizzle-${lastIdx}`);
  fs.mkdirSync(path.join(old, "meta"), { recursive: true });
  const journal = JSON.parse(fs.readFileSync("drizzle/meta/_journal.json", "utf8")) as {
    entries: { idx: number; tag: string; when: number }[];
  };
  const entries = journal.entries
    .filter((entry) => entry.idx <= lastIdx)
    .map((entry) => ({ ...entry, when: journalTimes[entry.idx] ?? entry.when }));
  for (const entry of entries)
    fs.copyFileSync(`drizzle/${entry.tag}.sql`, path.join(old, `${entry.tag}.sql`));
  fs.writeFileSync(path.join(old, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  const file = path.join(dir, "shop.db");
  const sqlite = new Database(file);
  migrate(drizzle(sqlite), { migrationsFolder: old });
  sqlite.close();
  return file;
}

describe("migration 0010: contests that shared a slug get a suffix, then the slug is unique", () => {
  it("renames each later duplicate so its order form can be reached", () => {
    const file = databaseMigratedUpTo(9);
    const sqlite = new Database(file);
    sqlite.exec(`
      insert into contests (id, name, slug_key) values
        (1, '春の発表会', '春の発表会'),
        (2, '夏の大会', '夏の大会'),
        (3, '春の発表会', '春の発表会'),
        (4, '春の 発表会', '春の発表会');
    `);
    sqlite.close();

    const migrated = openDatabase(file);
    const rows = migrated
      .select({ id: contests.id, name: contests.name, slugKey: contests.slugKey })
      .from(contests)
      .all();
    expect(rows).toEqual([
      { id: 1, name: "春の発表会", slugKey: "春の発表会" },
      { id: 2, name: "夏の大会", slugKey: "夏の大会" },
      { id: 3, name: "春の発表会（重複3）", slugKey: "春の発表会重複3" },
      { id: 4, name: "春の 発表会（重複4）", slugKey: "春の発表会重複4" },
    ]);
    // The stored key is the one the shop computes from the new name, so its order form finds it.
    for (const row of rows) expect(slugKey(row.name)).toBe(row.slugKey);
    expect(() => migrated.insert(contests).values({ name: "夏の大会", slugKey: "夏の大会" }).run()).toThrow(
      /UNIQUE/,
    );
    migrated.$client.close();
  });
});

describe("migration 0011: athlete numbers unique among a contest's active athletes", () => {
  it("migrates a shop whose data already holds a pair, keeps the pair, and refuses any new one", () => {
    const file = databaseMigratedUpTo(10);
    const sqlite = new Database(file);
    sqlite.exec(`
      insert into contests (id, name, slug_key) values (1, '旧大会', '旧大会');
      insert into athletes (id, contest_id, athlete_number, name) values (1, 1, 5, '先の選手'), (2, 1, 5, '後の選手'), (3, 1, 6, '別の選手');
    `);
    sqlite.close();

    const migrated = openDatabase(file);
    expect(migrated.select({ id: athletes.id }).from(athletes).all()).toHaveLength(3);
    expect(() =>
      migrated.insert(athletes).values({ contestId: 1, athleteNumber: 6, name: "新" }).run(),
    ).toThrow("athlete number taken");
    // Renumbering one of the old pair ends it.
    migrated.update(athletes).set({ athleteNumber: 7 }).where(eq(athletes.id, 2)).run();
    expect(() => migrated.update(athletes).set({ athleteNumber: 5 }).where(eq(athletes.id, 2)).run()).toThrow(
      "athlete number taken",
    );
    migrated.$client.close();
  });
});

describe("migration 0018: the number label resolved once when the order is made", () => {
  it("gives the orders that stored '' the default label and leaves the others' own", () => {
    const file = databaseMigratedUpTo(17);
    const sqlite = new Database(file);
    sqlite.exec(`
      insert into orders (id, order_number, checkout_id, payment_intent_id, contest_name, bib_number_label,
        customer_email, customer_name, total_amount, status_token) values
        (1, '10000001', 'c1', 'pi_1', '旧大会', '', 'a@example.jp', '甲', 3000, 'token1'),
        (2, '10000002', 'c2', 'pi_2', '旧大会', '演奏順', 'b@example.jp', '乙', 3000, 'token2');
    `);
    sqlite.close();

    const migrated = openDatabase(file);
    expect(
      migrated.select({ id: orders.id, label: orders.bibNumberLabel }).from(orders).orderBy(orders.id).all(),
    ).toEqual([
      { id: 1, label: "ゼッケン番号" },
      { id: 2, label: "演奏順" },
    ]);
    migrated.$client.close();
  });
});

describe("the migrations' journal: a shop on any earlier migration gets every later one", () => {
  const journal = JSON.parse(fs.readFileSync("drizzle/meta/_journal.json", "utf8")) as {
    entries: { idx: number; tag: string; when: number }[];
  };

  it("stamps each migration after the one before it (the migrator skips one older than the newest applied)", () => {
    for (const [index, entry] of journal.entries.entries())
      if (index > 0) expect(entry.when, entry.tag).toBeGreaterThan(journal.entries[index - 1]!.when);
  });

  it("brings a shop at 0018 the refunds (0019) and the media jobs (0020)", () => {
    const migrated = openDatabase(databaseMigratedUpTo(18));
    const tables = migrated.$client
      .prepare("select name from sqlite_master where type = 'table'")
      .pluck()
      .all() as string[];
    expect(tables).toEqual(
      expect.arrayContaining(["refunds", "stray_payments", "test_refunds", "media_jobs"]),
    );
    migrated.$client.close();
  });

  it("migrates a shop that applied 0019 under its first journal time, keeping its refunds", () => {
    const file = databaseMigratedUpTo(19, { 19: 1795766360734 });
    const sqlite = new Database(file);
    sqlite.exec(`
      insert into refunds (payment_intent_id, amount, reason, request_key) values ('pi_1', 3000, '撮影できず', 'k1');
    `);
    sqlite.close();
    const migrated = openDatabase(file);
    expect(migrated.$client.prepare("select count(*) from refunds").pluck().get()).toBe(1);
    expect(migrated.$client.prepare("select count(*) from media_jobs").pluck().get()).toBe(0);
    migrated.$client.close();
  });
});
