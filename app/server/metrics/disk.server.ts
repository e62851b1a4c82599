import fs from "node:fs/promises";

export type DiskSpace = { freeBytes: number; sizeBytes: number };

/**
 * The room left on the file system holding `folder` (what an unprivileged process may still
 * write), or null when the folder is not there (MEDIA_DIR before the first upload).
 */
export async function diskSpace(folder: string): Promise<DiskSpace | null> {
  try {
    const stats = await fs.statfs(folder);
    return { freeBytes: stats.bavail * stats.bsize, sizeBytes: stats.blocks * stats.bsize };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
