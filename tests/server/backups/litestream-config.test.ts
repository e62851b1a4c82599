import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { litestreamConfig, writeLitestreamConfig } from "~/server/backups/litestream.server";
import {
  caughtUp,
  newReplicaWatch,
  noteLitestreamPosition,
  readLitestreamPosition,
} from "~/server/backups/replica-status.server";
import { parseEnv } from "~/server/core/env.server";

const bucket = {
  S3_ENDPOINT: "http://127.0.0.1:9000",
  S3_REGION: "auto",
  S3_ACCESS_KEY_ID: "media-key",
  S3_SECRET_ACCESS_KEY: "media-$ecret",
};

describe("where the database's copies go (BACKUP_URL, decision 0041)", () => {
  it("without BACKUP_URL, the media bucket under its prefix; without either, nowhere (snapshots in BACKUP_DIR)", () => {
    expect(parseEnv({}).BACKUP_S3).toBeNull();
    expect(litestreamConfig(parseEnv({}))).toBeNull();
    const media = parseEnv({ ...bucket, STORAGE_URL: "s3://shop-media/videos" });
    expect(media.BACKUP_S3).toMatchObject({
      bucket: "shop-media",
      prefix: "videos/",
      accessKeyId: "media-key",
    });
  });

  it("BACKUP_URL names a bucket of its own, with its own keys or the media bucket's", () => {
    const own = parseEnv({
      ...bucket,
      STORAGE_URL: "s3://shop-media/videos",
      BACKUP_URL: "s3://shop-backups",
      BACKUP_S3_ACCESS_KEY_ID: "backup-key",
      BACKUP_S3_SECRET_ACCESS_KEY: "backup-secret",
    });
    expect(own.BACKUP_S3).toMatchObject({ bucket: "shop-backups", prefix: "", accessKeyId: "backup-key" });
    // The S3_* variables reach the backup bucket even with the media on this machine.
    const shared = parseEnv({ ...bucket, BACKUP_URL: "s3://shop-backups/db" });
    expect(shared.BACKUP_S3).toMatchObject({ prefix: "db/", secretAccessKey: "media-$ecret" });
    expect(shared.S3).toBeNull();
  });

  it("refuses a backup bucket without keys, and BACKUP_S3_* without BACKUP_URL, naming them", () => {
    expect(() => parseEnv({ BACKUP_URL: "s3://shop-backups" })).toThrowError(/BACKUP_S3_ACCESS_KEY_ID/);
    expect(() => parseEnv({ BACKUP_S3_REGION: "auto" })).toThrowError(
      /BACKUP_S3_REGION: BACKUP_URL と一緒に/,
    );
    expect(() => parseEnv({ ...bucket, BACKUP_URL: "https://x" })).toThrowError(/BACKUP_URL/);
  });

  it("Litestream's configuration: the database, the replica under litestream/, its metrics on this machine only, written 0600", () => {
    const config = parseEnv({
      ...bucket,
      DATABASE_PATH: "/data/shop.db",
      BACKUP_URL: "s3://shop-backups/db",
    });
    const text = litestreamConfig(config)!;
    const parsed = JSON.parse(text) as {
      addr: string;
      dbs: { path: string; replicas: Record<string, unknown>[] }[];
    };
    expect(parsed.addr).toBe("127.0.0.1:9099");
    expect(parsed.dbs[0]!.path).toBe("/data/shop.db");
    expect(parsed.dbs[0]!.replicas[0]).toMatchObject({
      bucket: "shop-backups",
      path: "db/litestream",
      "secret-access-key": "media-$ecret",
      "sync-interval": "1s",
    });
    const file = writeLitestreamConfig(text);
    try {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(file, { force: true });
    }
    // Snapshots every day under Litestream (the archive), every 15 minutes without it.
    expect(parseEnv({ LITESTREAM_REPLICATES: "true" }).BACKUP_INTERVAL_MINUTES).toBe(1440);
    expect(parseEnv({}).BACKUP_INTERVAL_MINUTES).toBe(15);
  });
});

describe("how far the replica is behind (replica-status.server.ts)", () => {
  const numbers = (shadow: [number, number], replica: [number, number]) =>
    [
      `litestream_shadow_wal_index{db="/data/shop.db"} ${shadow[0]}`,
      `litestream_shadow_wal_size{db="/data/shop.db"} ${shadow[1]}`,
      `litestream_replica_wal_index{db="/data/shop.db",name="s3"} ${replica[0]}`,
      `litestream_replica_wal_offset{db="/data/shop.db",name="s3"} ${replica[1]}`,
      `litestream_sync_error_count{db="/data/shop.db"} 2`,
    ].join("\n");

  it("reads Litestream's position, and tells a replica that holds every write from one behind", () => {
    const even = readLitestreamPosition(numbers([3, 4120], [3, 4120]))!;
    expect(even).toMatchObject({ shadowIndex: 3, replicaOffset: 4120, syncErrors: 2 });
    expect(caughtUp(even)).toBe(true);
    expect(caughtUp(readLitestreamPosition(numbers([3, 8240], [3, 4120]))!)).toBe(false);
    expect(caughtUp(readLitestreamPosition(numbers([4, 32], [3, 9000]))!)).toBe(false);
    expect(readLitestreamPosition("litestream_db_size 1")).toBeNull();
  });

  it("the lag is the time since the replica last held every write; it grows when Litestream falls behind or cannot be read", () => {
    const watch = newReplicaWatch(0);
    noteLitestreamPosition(watch, readLitestreamPosition(numbers([0, 100], [0, 100])), 1_000);
    noteLitestreamPosition(watch, readLitestreamPosition(numbers([0, 900], [0, 100])), 3_000);
    expect(watch.caughtUpAt).toBe(1_000);
    noteLitestreamPosition(watch, readLitestreamPosition(numbers([0, 900], [0, 900])), 5_000);
    expect([watch.caughtUpAt, watch.lastSyncAt]).toEqual([5_000, 5_000]);
    noteLitestreamPosition(watch, null, 60_000);
    expect(watch.reachable).toBe(false);
    expect(watch.caughtUpAt).toBe(5_000);
  });
});
