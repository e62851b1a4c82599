import path from "node:path";
import { diskRoom, type DiskRoom } from "../core/disk.server";
import { isOutOfSpace, NoRoomForUpload } from "../core/out-of-space.server";
import { fileStore } from "./store.server";

/**
 * Where an upload's bytes may go on this server's disk: before a body is read, its declared size
 * against the room left above the reserve; while it streams, each write (multipart.server.ts
 * fileSink), so a body that did not say its size, or a disk filled meanwhile by something else,
 * is stopped before it crosses the reserve. The caller removes what was written (decision 0042).
 */

/** The room of the disk a folder is on, even before the folder is made (the scratch folder before the first upload). */
async function roomAt(folder: string): Promise<DiskRoom | null> {
  for (let at = path.resolve(folder); ; at = path.dirname(at)) {
    const room = await diskRoom(at);
    if (room || at === path.dirname(at)) return room;
  }
}

/** A refusal when writing `bytes` into `folder` would take its disk below the reserve, else null. */
export async function refusalForRoom(folder: string, bytes: number): Promise<NoRoomForUpload | null> {
  const room = await roomAt(folder);
  return room && room.spareBytes < bytes ? new NoRoomForUpload(room, bytes) : null;
}

/**
 * The same for a request's whole body, by its Content-Length, before any of it is read (a
 * refused body is then not read at all). A body that does not say its size is watched as it
 * streams instead.
 */
export async function refusalForBody(folder: string, request: Request): Promise<NoRoomForUpload | null> {
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (!Number.isSafeInteger(declared) || declared <= 0) return null;
  return refusalForRoom(folder, declared);
}

/**
 * A refusal when `bytes` more of stored files would take this disk below the reserve: with the
 * MEDIA_DIR folder they land here (a chunked upload's whole file); a bucket holds them elsewhere.
 */
export async function refusalForStoring(bytes: number): Promise<NoRoomForUpload | null> {
  const store = await fileStore();
  return store.kind === "local" ? refusalForRoom(store.scratchDir(), bytes) : null;
}

/**
 * Runs `write` (of `bytes` into `folder`) only when the disk keeps its reserve after it; throws
 * NoRoomForUpload otherwise, and for a write the file system refused for space (ENOSPC).
 */
export async function writeWithinReserve<T>(
  folder: string,
  bytes: number,
  write: () => Promise<T>,
): Promise<T> {
  const room = await roomAt(folder);
  // Only the disk's figures are told: `bytes` is a piece of a file here, not the file.
  if (room && room.spareBytes < bytes) throw new NoRoomForUpload(room);
  try {
    return await write();
  } catch (error) {
    if (!isOutOfSpace(error) || error instanceof NoRoomForUpload) throw error;
    const now = await roomAt(folder);
    throw now ? new NoRoomForUpload(now) : error;
  }
}
