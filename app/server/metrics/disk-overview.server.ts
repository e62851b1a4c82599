import fs from "node:fs/promises";
import path from "node:path";
import { databaseFolder, diskRoom, type DiskRoom } from "../core/disk.server";
import { env } from "../core/env.server";

/**
 * The back-office's view of the disks (システム状態, and a warning on 概要 when one is below its
 * reserve): each disk the shop writes to, once (the database's and MEDIA_DIR's are one volume in
 * the usual deployment), with its size, free space and reserve. Below the reserve uploads are
 * refused and /readyz says not ready, with the same figures.
 */

export type DiskVolume = {
  /** What the shop keeps there, in its words. */
  holds: string[];
  freeBytes: number;
  sizeBytes: number;
  reserveBytes: number;
  belowReserve: boolean;
};

/** The file system a folder is on (its device), even before the folder is made. */
async function deviceOf(folder: string): Promise<{ at: string; device: number } | null> {
  for (let at = path.resolve(folder); ; at = path.dirname(at)) {
    try {
      return { at, device: (await fs.stat(at)).dev };
    } catch {
      if (at === path.dirname(at)) return null;
    }
  }
}

export async function diskOverview(): Promise<DiskVolume[]> {
  const config = env();
  // With a bucket MEDIA_DIR holds only bodies on their way in.
  const places = [
    { holds: "データベース", folder: databaseFolder() },
    { holds: config.S3 ? "アップロード中のファイル" : "動画・画像・納品ファイル", folder: config.MEDIA_DIR },
  ];
  const volumes = new Map<number, { holds: string[]; room: DiskRoom }>();
  for (const place of places) {
    const found = await deviceOf(place.folder);
    if (!found) continue;
    const known = volumes.get(found.device);
    if (known) {
      known.holds.push(place.holds);
      continue;
    }
    const room = await diskRoom(found.at);
    if (room) volumes.set(found.device, { holds: [place.holds], room });
  }
  return [...volumes.values()].map(({ holds, room }) => ({
    holds,
    freeBytes: room.freeBytes,
    sizeBytes: room.sizeBytes,
    reserveBytes: room.reserveBytes,
    belowReserve: room.spareBytes < 0,
  }));
}
