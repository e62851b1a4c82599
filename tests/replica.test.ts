import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/server/db/client.server";
import { databaseRole, forgetDatabaseRole } from "~/server/db/replica.server";
import { replayHeaders } from "~/server/http/edge.server";

/** A folder standing in for LiteFS's mount: LiteFS writes `.primary` there on replicas only. */
const litefs = fs.mkdtempSync(path.join(os.tmpdir(), "litefs-"));
const primaryFile = path.join(litefs, ".primary");
afterEach(() => {
  fs.rmSync(primaryFile, { force: true });
  forgetDatabaseRole();
});

describe("LiteFS primary detection", () => {
  it("without LiteFS (no LITEFS_DIR) this server is the primary", () => {
    expect(databaseRole(undefined)).toEqual({ primary: true });
  });

  it("reads the primary's name from LiteFS's .primary file, which only replicas have", () => {
    expect(databaseRole(litefs)).toEqual({ primary: true });
    fs.writeFileSync(primaryFile, "3d8d9e1f2a7b18\n");
    forgetDatabaseRole();
    expect(databaseRole(litefs)).toEqual({ primary: false, primaryHost: "3d8d9e1f2a7b18" });
    // Promoted: LiteFS removes the file.
    fs.rmSync(primaryFile);
    forgetDatabaseRole();
    expect(databaseRole(litefs)).toEqual({ primary: true });
  });

  it("the replay names the primary the way fly.io's proxy reads it", () => {
    expect(replayHeaders("3d8d9e1f2a7b18")["fly-replay"]).toBe("instance=3d8d9e1f2a7b18");
  });
});

describe("a replica's database connection", () => {
  it("is not migrated by a replica and refuses writes before they reach the file; the primary migrates", () => {
    const file = path.join(litefs, "replica.db");
    const replica = openDatabase(file, { primary: false });
    expect(
      replica.$client.prepare("select count(*) as n from sqlite_master where name = 'orders'").get(),
    ).toEqual({ n: 0 });
    expect(() => replica.$client.exec("create table t (x)")).toThrowError(
      expect.objectContaining({ code: "SQLITE_READONLY" }),
    );
    replica.$client.close();
    const primary = openDatabase(file, { primary: true });
    expect(
      primary.$client.prepare("select count(*) as n from sqlite_master where name = 'orders'").get(),
    ).toEqual({ n: 1 });
    primary.$client.close();
  });
});
