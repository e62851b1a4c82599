import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";
import { now } from "../core/clock.server";
import type { SnapshotPlace } from "./snapshot-places.server";
import { snapshotTime } from "./snapshot-retention.server";
import { unpackSnapshot, type SnapshotManifest } from "./snapshot.server";

/** Machines' clocks differ by seconds; a snapshot this far ahead of now still counts as taken. */
const CLOCK_SLACK_MS = 5 * MINUTE_MS;

/** A snapshot made ready to restore: its database file unpacked in a folder of its own. */
export type FetchedSnapshot = {
  /** The unpacked database file, to restore from. */
  databaseFile: string;
  /** Where it came from, for people: the place and name, or the file given. */
  source: string;
  /** When it was taken: its name's time, else (a file given by path) the file's. */
  takenAt: Date;
  /** The scheduler's manifest (null for `npm run backup`'s files and a file given by path). */
  manifest: SnapshotManifest | null;
  /** Deletes the unpacked copy. */
  discard(): void;
};

/**
 * The snapshot `wanted` names: `latest` (the newest the place holds), one of the place's names
 * (shop-<time>.db.gz, as `--list` shows them), or a file on this machine (a snapshot or
 * `npm run backup`'s .db). Throws in Japanese when there is none.
 */
export async function fetchSnapshot(wanted: string, place: SnapshotPlace): Promise<FetchedSnapshot> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "shop-restore-"));
  const discard = () => fs.rmSync(folder, { recursive: true, force: true });
  try {
    const databaseFile = path.join(folder, "shop.db");
    if (wanted !== "latest" && fs.existsSync(wanted)) {
      await unpackSnapshot(wanted, databaseFile);
      const takenAt = snapshotTime(path.basename(wanted)) ?? fs.statSync(wanted).mtime;
      return { databaseFile, source: path.resolve(wanted), takenAt, manifest: null, discard };
    }
    const kept = await place.list();
    // "Later than now": taken while the clock was once ahead; the newest real one is wanted.
    const latest = kept.filter((snapshot) => snapshot.takenAt.getTime() <= now().getTime() + CLOCK_SLACK_MS).at(-1);
    const chosen = wanted === "latest" ? latest : kept.find((snapshot) => snapshot.name === wanted);
    if (!chosen)
      throw new Error(
        wanted === "latest"
          ? `${place.where} にスナップショットがありません`
          : `${place.where} に ${wanted} はありません（npm run restore -- --list で一覧を表示します）`,
      );
    const packed = path.join(folder, chosen.name);
    const manifest = await place.fetch(chosen.name, packed);
    await unpackSnapshot(packed, databaseFile);
    fs.rmSync(packed, { force: true });
    // The name's time: a snapshot's manifest says the same, `npm run backup`'s says it otherwise.
    return { databaseFile, source: `${place.where}${chosen.name}`, takenAt: chosen.takenAt, manifest, discard };
  } catch (error) {
    discard();
    throw error;
  }
}
