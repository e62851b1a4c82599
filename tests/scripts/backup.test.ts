import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/server/db/client.server";
import { orders } from "~/server/db/schema";
import { checkDatabase } from "~/server/backups/database-copy.server";
import { backupDatabase, restoreDatabase, type Manifest } from "../../scripts/backup-lib";

function run(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn("npx", ["tsx", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

const orderCount = () => db().select({ n: count() }).from(orders).get()?.n ?? 0;

function countsIn(file: string) {
  const sqlite = new Database(file, { readonly: true });
  try {
    const one = (sql: string) => (sqlite.prepare(sql).get() as { n: number }).n;
    return {
      orders: one("select count(*) as n from orders"),
      lines: one("select count(*) as n from order_lines"),
      ordersWithoutTwoLines: one(
        "select count(*) as n from orders o where (select count(*) from order_lines l where l.order_id = o.id) <> 2",
      ),
    };
  } finally {
    sqlite.close();
  }
}

describe("backup and restore", () => {
  it("a backup taken while another process writes orders restores to a fresh file with the counts of that moment, intact", async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "shop-backup-"));
    const stopFile = path.join(work, "stop");
    const writer = spawn("npx", ["tsx", "tests/helpers/order-writer.ts", stopFile, `bk${Date.now()}`], {
      env: process.env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let written = "";
    writer.stdout.on("data", (chunk: Buffer) => (written += chunk.toString()));
    const writerDone = new Promise<void>((resolve) => writer.on("exit", () => resolve()));

    await expect.poll(orderCount, { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(200);
    const before = orderCount();
    const backup = await run(["scripts/backup.ts", path.join(work, "backups")]);
    const after = orderCount();
    fs.writeFileSync(stopFile, "");
    await writerDone;
    const final = orderCount();

    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toContain("バックアップを作成しました");
    const manifestFile = fs
      .readdirSync(path.join(work, "backups"))
      .find((name) => name.endsWith(".manifest.json"));
    const manifest = JSON.parse(
      fs.readFileSync(path.join(work, "backups", manifestFile ?? ""), "utf8"),
    ) as Manifest;
    const backupFile = path.join(work, "backups", manifest.database);
    expect(manifest.integrity).toBe("ok");
    // The snapshot falls between the count just before and just after the backup ran, and the writer went on.
    const snapshot = manifest.tables.orders ?? -1;
    expect(snapshot).toBeGreaterThanOrEqual(before);
    expect(snapshot).toBeLessThanOrEqual(after);
    expect(final).toBeGreaterThan(snapshot);
    expect(Number(written)).toBeGreaterThan(0);
    // No partial file left behind.
    expect(fs.readdirSync(path.join(work, "backups")).filter((name) => name.endsWith(".part"))).toEqual([]);

    const fresh = path.join(work, "restored", "shop.db");
    const restored = await run(["scripts/restore.ts", backupFile, "--no-payments"], {
      ...process.env,
      DATABASE_PATH: fresh,
      PORT: "1",
    });
    expect(restored.code, restored.err).toBe(0);
    expect(checkDatabase(fresh, []).integrity).toBe("ok");
    // A consistent snapshot: every order with both its lines, none half-written.
    expect(countsIn(fresh)).toEqual({ orders: snapshot, lines: snapshot * 2, ordersWithoutTwoLines: 0 });
    expect(manifest.tables.order_lines).toBe(snapshot * 2);
    if (process.env.SHOW_FIGURES) console.info({ before, snapshot, after, final });
  }, 120_000);

  it("restoring over a database left with a -wal from a crash does not replay the old log into the restored file", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "shop-restore-"));
    const source = path.join(work, "source.db");
    const sqlite = new Database(source);
    sqlite.pragma("journal_mode = WAL");
    sqlite.exec(
      "create table orders (id integer primary key, note text); insert into orders (note) values ('a'), ('b');",
    );
    sqlite.close();
    const { databaseFile, manifest } = backupDatabase({
      databasePath: source,
      mediaDir: path.join(work, "no-media"),
      backupDir: path.join(work, "backups"),
    });
    expect(manifest.tables.orders).toBe(2);

    // The live file: more rows, still only in its -wal, as a crashed server leaves it.
    const live = path.join(work, "live.db");
    fs.copyFileSync(source, live);
    const writer = new Database(live);
    writer.pragma("journal_mode = WAL");
    writer.pragma("wal_autocheckpoint = 0");
    writer.exec("insert into orders (note) values ('c'), ('d'), ('e');");
    const crashed = path.join(work, "crashed.db");
    fs.copyFileSync(live, crashed);
    fs.copyFileSync(`${live}-wal`, `${crashed}-wal`);
    writer.close();

    const result = restoreDatabase({ backupFile: databaseFile, databasePath: crashed });
    expect(fs.existsSync(`${crashed}-wal`)).toBe(false);
    const restored = new Database(crashed, { readonly: true });
    expect((restored.prepare("select count(*) as n from orders").get() as { n: number }).n).toBe(2);
    restored.close();
    // The old file and its log are kept together, and still hold the 5 rows.
    const previous = new Database(result.previous ?? "", { readonly: true });
    expect((previous.prepare("select count(*) as n from orders").get() as { n: number }).n).toBe(5);
    previous.close();
  });

  it("restore refuses while a server answers on PORT, and leaves the database alone", async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "shop-running-"));
    const source = path.join(work, "backup.db");
    new Database(source).exec("create table t (x); insert into t values (1)").close();
    const live = path.join(work, "live.db");
    new Database(live).exec("create table t (x); insert into t values (1), (2)").close();
    const server = http.createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = String((server.address() as AddressInfo).port);
    try {
      const refused = await run(["scripts/restore.ts", source], {
        ...process.env,
        DATABASE_PATH: live,
        PORT: port,
      });
      expect(refused.code).toBe(1);
      expect(refused.err).toContain("サーバーが動いています");
      const check = new Database(live, { readonly: true });
      expect((check.prepare("select count(*) as n from t").get() as { n: number }).n).toBe(2);
      check.close();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it("lists media with sizes, copies them on request, and refuses a damaged backup", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "shop-media-"));
    const media = path.join(work, "media");
    fs.mkdirSync(path.join(media, "videos"), { recursive: true });
    fs.writeFileSync(path.join(media, "cover-1.webp"), Buffer.alloc(1234));
    fs.writeFileSync(path.join(media, "videos", "v.mp4"), Buffer.alloc(4321));
    const source = path.join(work, "shop.db");
    new Database(source).exec("create table t (x)").close();
    const { manifest } = backupDatabase({
      databasePath: source,
      mediaDir: media,
      backupDir: path.join(work, "b"),
      withMedia: true,
    });
    expect(manifest.media).toEqual([
      { name: "cover-1.webp", size: 1234 },
      { name: path.join("videos", "v.mp4"), size: 4321 },
    ]);
    expect(manifest.mediaBytes).toBe(5555);
    expect(fs.statSync(path.join(work, "b", manifest.mediaCopy ?? "", "videos", "v.mp4")).size).toBe(4321);

    const damaged = path.join(work, "damaged.db");
    fs.writeFileSync(damaged, Buffer.concat([Buffer.from("SQLite format 3\0"), Buffer.alloc(4096, 7)]));
    expect(() =>
      restoreDatabase({ backupFile: damaged, databasePath: path.join(work, "target.db") }),
    ).toThrow();
    expect(fs.existsSync(path.join(work, "target.db"))).toBe(false);
  });
});
