import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { snapshotTime } from "~/lib/rules/snapshot-retention";
import type { SnapshotPlace } from "./snapshot-places.server";
import { unpackSnapshot, type SnapshotManifest } from "./snapshot.server";

/** A snapshot made ready to restore: its database file unpacked in a folder of its own. */
export type FetchedSnapshot = {
  /** The unpacked database file, to restore from. */
  databaseFile: string;
  /** Where it came from, for people: the place and name, or the file given. */
  source: string;
  /** When it was taken: its manifest's time, else its name's, else the file's. */
  takenAt: Date;
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
    const chosen = wanted === "latest" ? kept.at(-1) : kept.find((snapshot) => snapshot.name === wanted);
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
    const takenAt = manifest ? new Date(manifest.takenAt) : chosen.takenAt;
    return { databaseFile, source: `${place.where}${chosen.name}`, takenAt, manifest, discard };
  } catch (error) {
    discard();
    throw error;
  }
}
