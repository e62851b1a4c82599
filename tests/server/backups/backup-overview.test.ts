import { describe, expect, it } from "vitest";
import { formatInterval } from "~/lib/rules/format";
import { backupNotice } from "~/server/backups/backup-notice.server";
import { backupStanding } from "~/server/backups/backup-overview.server";
import { parseEnv } from "~/server/core/env.server";

/**
 * システム状態's one word for backups is the worst of the warnings it shows: never 正常 (safe)
 * beside one, and a copy kept only on this machine, snapshots or videos, is a warning.
 */
describe("the backups' standing", () => {
  const offMachine = { replica: null, offMachine: true, videosInBucket: true };

  it("is safe only when the snapshots are taken and everything outlives the machine", () => {
    expect(backupStanding({ state: "ok", ...offMachine })).toEqual({ standing: "safe", concerns: [] });
    expect(backupStanding({ state: "none", ...offMachine })).toEqual({ standing: "waiting", concerns: [] });
  });

  it("warns when the copies or the videos are on this machine only, snapshots working or not yet taken", () => {
    expect(
      backupStanding({ state: "ok", replica: null, offMachine: false, videosInBucket: false }),
    ).toEqual({ standing: "caution", concerns: ["onMachine", "videosOnMachine"] });
    expect(backupStanding({ state: "none", ...offMachine, videosInBucket: false })).toEqual({
      standing: "caution",
      concerns: ["videosOnMachine"],
    });
    // A replica in a bucket is a copy off the machine, whatever the snapshots' folder.
    expect(
      backupStanding({ state: "ok", replica: { late: false }, offMachine: false, videosInBucket: true }),
    ).toEqual({ standing: "safe", concerns: [] });
  });

  it("warns when the snapshots are off, without calling their place a second problem", () => {
    expect(
      backupStanding({ state: "off", replica: null, offMachine: false, videosInBucket: true }),
    ).toEqual({ standing: "caution", concerns: ["off"] });
  });

  it("asks for help now when snapshots fail or are late or the replica is behind, worst first", () => {
    expect(
      backupStanding({ state: "failing", replica: null, offMachine: false, videosInBucket: false }),
    ).toEqual({ standing: "trouble", concerns: ["failing", "onMachine", "videosOnMachine"] });
    expect(backupStanding({ state: "late", ...offMachine })).toEqual({ standing: "trouble", concerns: ["late"] });
    expect(backupStanding({ state: "ok", ...offMachine, replica: { late: true } })).toEqual({
      standing: "trouble",
      concerns: ["replicaLate"],
    });
  });
});

describe("the start-up log's backup line", () => {
  it("says the interval and what is kept as システム状態 does: 1 日ごと, not 1440 分ごと", () => {
    const config = parseEnv({ ...process.env, BACKUP_INTERVAL_MINUTES: "1440" });
    const notice = backupNotice(config);
    expect(formatInterval(config.BACKUP_INTERVAL_MINUTES)).toBe("1 日");
    expect(notice).toContain("1 日ごとにスナップショットを");
    expect(notice).not.toContain("1440");
    expect(notice).toMatch(/直近 \d+ 時間はすべて、\d+ 日前までは 1 日 1 件/);
  });
});
