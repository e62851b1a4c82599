import { formatBytes } from "~/lib/rules/format";
import type { DiskRoom } from "./disk.server";

/**
 * Writes that find no room: an upload refused before it would take the disk's reserve (the admin
 * is told the figures and what to do), and a write that failed anyway (SQLite's SQLITE_FULL, the
 * file system's ENOSPC), answered 503 with a page that says so instead of a 500 (decision 0042).
 */

/** An upload (or the part of it still to come) that would take its disk below the reserve. */
export class NoRoomForUpload extends Error {
  override name = "NoRoomForUpload";

  constructor(
    readonly room: Pick<DiskRoom, "freeBytes" | "reserveBytes">,
    /** What the upload said it would write, when it said (a declared size). */
    readonly neededBytes: number | null = null,
  ) {
    super(noRoomForUploadMessage(room, neededBytes));
  }
}

/** What the admin reads when an upload is refused for room: the figures, and what would make room. */
export function noRoomForUploadMessage(
  room: Pick<DiskRoom, "freeBytes" | "reserveBytes">,
  neededBytes: number | null = null,
): string {
  const figures = [
    `空き ${formatBytes(Math.max(0, room.freeBytes))}`,
    `ご注文の受付のために残す容量 ${formatBytes(room.reserveBytes)}`,
    ...(neededBytes === null ? [] : [`このファイル ${formatBytes(neededBytes)}`]),
  ];
  return `サーバーの空き容量が足りないため、アップロードできません（${figures.join("、")}）。不要なファイルを削除するか、ディスクの容量を増やしてから、もう一度お試しください。`;
}

/** What a visitor reads when a write failed for lack of space (503). */
export const OUT_OF_SPACE_MESSAGE =
  "ただいまサーバーの空き容量が不足しているため、ご注文やお手続きを受け付けられません。時間をおいて再度お試しください。";

/** better-sqlite3's code for a database or disk that is full; the file system's for no space or no quota left. */
const OUT_OF_SPACE_CODES = new Set(["SQLITE_FULL", "ENOSPC", "EDQUOT"]);

/** Whether `error` is a write that found no room (SQLite's or the file system's), or an upload refused for it. */
export function isOutOfSpace(error: unknown): boolean {
  if (error instanceof NoRoomForUpload) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && OUT_OF_SPACE_CODES.has(code);
}
