import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { fileSink } from "./multipart.server";
import { fileStore } from "./store.server";

/** The scratch folder on this server (spooled chunks, form uploads; local part files too). */
export async function scratchDir(): Promise<string> {
  return (await fileStore()).scratchDir();
}

/**
 * A file in the scratch folder that a request's body part is written into, at most `limit`
 * bytes (the sink counts the rest, so the answer can say it was too big). Whoever opens one
 * either hands the file on (the store consumes it) or calls `discard`.
 */
export type ScratchFile = {
  file: string;
  handle: fsp.FileHandle;
  sink: ReturnType<typeof fileSink>;
  /** Closes and deletes the file; safe to call more than once, or after the handle was closed. */
  discard(): Promise<void>;
};

/** Opens `<kind>-<random>.<extension>` in the scratch folder; the hourly clean-up removes any a crash left. */
export async function openScratchFile(kind: string, extension: string, limit: number): Promise<ScratchFile> {
  const dir = await scratchDir();
  await fsp.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${kind}-${crypto.randomBytes(12).toString("hex")}.${extension}`);
  const handle = await fsp.open(file, "w");
  return {
    file,
    handle,
    sink: fileSink(handle, 0, limit, dir),
    async discard() {
      await handle.close().catch(() => undefined);
      fs.rmSync(file, { force: true });
    },
  };
}
