import { inArray } from "drizzle-orm";
import { resolutionLabel } from "~/lib/rules/video-versions";
import { db } from "../../db/client.server";
import { deliveryFiles } from "../../db/schema";
import { jobsOf } from "../../media/jobs/queue.server";

/**
 * What the download page tells a parent of a delivered video the shop stores: its poster, its
 * duration, and the versions it may take (the original as uploaded, the 720p phone version once
 * the media job made it). Read for a page's lines at once; counts nothing.
 */

/** A version a parent may fetch: its resolution (「1080p」; null for a file delivered before probing) and bytes. */
export type VideoVersionFacts = { resolution: string | null; size: number };

export type DownloadVideo = {
  /** Its bytes were deleted (no page needed them): only the refusal's explanation is left. */
  removed: boolean;
  hasPoster: boolean;
  durationMs: number | null;
  /** The frame as shown, so the player keeps its shape before anything is loaded. */
  frame: { width: number; height: number } | null;
  original: VideoVersionFacts;
  phone: VideoVersionFacts | null;
  /** The phone version's job is still to run (or to be tried again): it will appear on the page. */
  phonePreparing: boolean;
};

/** The delivered videos of these files, by file id. */
export function downloadVideosOf(fileIds: number[]): Map<number, DownloadVideo> {
  const videos = new Map<number, DownloadVideo>();
  if (fileIds.length === 0) return videos;
  const files = db()
    .select({
      id: deliveryFiles.id,
      size: deliveryFiles.size,
      deletedAt: deliveryFiles.deletedAt,
      video: deliveryFiles.video,
      posterStoredName: deliveryFiles.posterStoredName,
      phoneStoredName: deliveryFiles.phoneStoredName,
      phoneSize: deliveryFiles.phoneSize,
      phoneVideo: deliveryFiles.phoneVideo,
    })
    .from(deliveryFiles)
    .where(inArray(deliveryFiles.id, fileIds))
    .all();
  const preparing = phoneJobsPending(fileIds);
  for (const file of files) {
    const removed = file.deletedAt !== null;
    const phone =
      !removed && file.phoneStoredName && file.phoneSize !== null
        ? {
            resolution: file.phoneVideo ? resolutionLabel(file.phoneVideo) : null,
            size: file.phoneSize,
          }
        : null;
    videos.set(file.id, {
      removed,
      hasPoster: !removed && file.posterStoredName !== null,
      durationMs: file.video?.durationMs ?? null,
      frame: file.video ? { width: file.video.width, height: file.video.height } : null,
      original: { resolution: file.video ? resolutionLabel(file.video) : null, size: file.size },
      phone,
      phonePreparing: !removed && !phone && preparing.has(file.id),
    });
  }
  return videos;
}

/**
 * The files whose phone version is still to come: its job waits (first try or a retry) or runs.
 * A job done without one (the original is light already) or failed for good promises nothing.
 */
export function phoneJobsPending(fileIds: number[]): Set<number> {
  const jobs = jobsOf("delivery", fileIds);
  return new Set(fileIds.filter((id) => ["waiting", "running"].includes(jobs.get(id)?.phone?.status ?? "")));
}
