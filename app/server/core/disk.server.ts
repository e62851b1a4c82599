import fs from "node:fs/promises";
import path from "node:path";
import { env } from "./env.server";

/**
 * The room on this server's disks, and the reserve that keeps the database writable: an upload
 * may not take the last DISK_RESERVE_MB of a disk (a tenth of a small one), so an order can
 * always be written (decision 0042). Snapshots, /readyz, /metrics, システム状態 and every upload
 * read the room through this module.
 */

export type DiskSpace = { freeBytes: number; sizeBytes: number };

/** A disk's room with its reserve: `spareBytes` is what may still be written before the reserve. */
export type DiskRoom = DiskSpace & { reserveBytes: number; spareBytes: number };

export type DiskSpaceReader = (folder: string) => Promise<DiskSpace | null>;

/** What an unprivileged process may still write on the file system holding `folder`. */
async function statfsSpace(folder: string): Promise<DiskSpace | null> {
  try {
    const stats = await fs.statfs(folder);
    return { freeBytes: stats.bavail * stats.bsize, sizeBytes: stats.blocks * stats.bsize };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

let reader: DiskSpaceReader = statfsSpace;

/**
 * Replaces how free space is read (a test's disk of a given size and fullness, without filling
 * a real one); answers the function that puts the reading before it back.
 */
export function readDiskSpaceWith(other: DiskSpaceReader): () => void {
  const before = reader;
  reader = other;
  return () => {
    reader = before;
  };
}

/** The room on the file system holding `folder`, or null when the folder is not there (MEDIA_DIR before the first upload). */
export function diskSpace(folder: string): Promise<DiskSpace | null> {
  return reader(folder);
}

/** DISK_RESERVE_MB's megabyte: decimal, as システム状態 and the refusals write sizes (formatBytes). */
const MB = 1_000_000;

/**
 * The reserve of a disk of `sizeBytes`: DISK_RESERVE_MB, but never more than a tenth of the disk,
 * so a small volume (300 MB: 30 MB) keeps most of its room for use and can still be ready.
 */
export function diskReserveBytes(sizeBytes: number, reserveMb = env().DISK_RESERVE_MB): number {
  return Math.min(reserveMb * MB, Math.floor(sizeBytes / 10));
}

/** The room on the file system holding `folder` with its reserve, or null when the folder is not there. */
export async function diskRoom(folder: string): Promise<DiskRoom | null> {
  const space = await diskSpace(folder);
  if (!space) return null;
  const reserveBytes = diskReserveBytes(space.sizeBytes);
  return { ...space, reserveBytes, spareBytes: space.freeBytes - reserveBytes };
}

/** The folder of the database file: its disk is the one whose reserve keeps orders writable. */
export function databaseFolder(): string {
  return path.dirname(path.resolve(env().DATABASE_PATH));
}
