import { and, eq, inArray, isNull } from "drizzle-orm";
import { videoJobState, videoLabel, type JobView, type VideoJobState } from "~/lib/rules/video-job-states";
import { db } from "../db/client.server";
import {
  deliveryFiles,
  MEDIA_JOB_KINDS,
  mediaItems,
  type MediaJobKind,
  type MediaJobSubject,
} from "../db/schema";
import { jobsOf, retryFailedJob, type MediaJob } from "./jobs/queue.server";

/**
 * The back-office's view of its videos' background work (納品ファイル, コンテンツ管理): each
 * video's reading, its poster for the admin, and its jobs' state in words, read for a whole tab
 * at once (the jobs by one indexed query, media_jobs_subject_idx), and the admin's 再実行.
 */

/** A video row's facts for the tabs: 「1080p・4:05・横」, its poster (admins only) and its jobs' state. */
export type VideoRowState = {
  label: string | null;
  posterUrl: string | null;
  state: VideoJobState | null;
};

/** A poster served to the contest's admins (app/routes/admin/contest/poster-file.ts). */
export function adminPosterUrl(contestId: number, posterStoredName: string): string {
  return `/admin/contest/${contestId}/poster/${posterStoredName}`;
}

function jobViews(jobs: Partial<Record<MediaJobKind, MediaJob>> | undefined): JobView[] {
  return MEDIA_JOB_KINDS.flatMap((kind) => {
    const job = jobs?.[kind];
    return job
      ? [{ kind, status: job.status, progress: job.progress, attempts: job.attempts, detail: job.detail }]
      : [];
  });
}

/** The delivery files' states, by file id (their jobs read in one query). */
export function deliveryVideoStates(contestId: number, fileIds: number[]): Record<number, VideoRowState> {
  if (fileIds.length === 0) return {};
  const rows = db()
    .select({
      id: deliveryFiles.id,
      video: deliveryFiles.video,
      posterStoredName: deliveryFiles.posterStoredName,
      phoneSize: deliveryFiles.phoneSize,
      phoneVideo: deliveryFiles.phoneVideo,
    })
    .from(deliveryFiles)
    .where(and(eq(deliveryFiles.contestId, contestId), inArray(deliveryFiles.id, fileIds)))
    .all();
  const jobs = jobsOf("delivery", fileIds);
  return Object.fromEntries(
    rows.map((row) => [
      row.id,
      {
        label: row.video ? videoLabel(row.video) : null,
        posterUrl: row.posterStoredName ? adminPosterUrl(contestId, row.posterStoredName) : null,
        state: videoJobState(
          jobViews(jobs.get(row.id)),
          row.phoneSize !== null && row.phoneVideo ? { video: row.phoneVideo, size: row.phoneSize } : null,
        ),
      },
    ]),
  );
}

/** The contest's sample and other videos' states on コンテンツ管理, by media id (their poster jobs). */
export function contentVideoStates(contestId: number): Record<number, VideoRowState> {
  const rows = db()
    .select({ id: mediaItems.id, video: mediaItems.video, posterStoredName: mediaItems.posterStoredName })
    .from(mediaItems)
    .where(and(eq(mediaItems.contestId, contestId), eq(mediaItems.mediaType, "video")))
    .all();
  const jobs = jobsOf(
    "sample",
    rows.map((row) => row.id),
  );
  return Object.fromEntries(
    rows.map((row) => [
      row.id,
      {
        label: row.video ? videoLabel(row.video) : null,
        posterUrl: row.posterStoredName ? adminPosterUrl(contestId, row.posterStoredName) : null,
        state: videoJobState(jobViews(jobs.get(row.id)), null),
      },
    ]),
  );
}

/**
 * 再実行: every failed job of a video of this contest starts over from its first try. False when
 * the video is not the contest's (or gone) or none of its jobs had failed.
 */
export function retryVideoJobs(contestId: number, subject: MediaJobSubject, subjectId: number): boolean {
  const belongs =
    subject === "delivery"
      ? db()
          .select({ id: deliveryFiles.id })
          .from(deliveryFiles)
          .where(
            and(
              eq(deliveryFiles.id, subjectId),
              eq(deliveryFiles.contestId, contestId),
              isNull(deliveryFiles.deletedAt),
            ),
          )
          .get()
      : db()
          .select({ id: mediaItems.id })
          .from(mediaItems)
          .where(
            and(
              eq(mediaItems.id, subjectId),
              eq(mediaItems.contestId, contestId),
              eq(mediaItems.mediaType, "video"),
            ),
          )
          .get();
  if (!belongs) return false;
  // Both kinds tried: a delivery video's poster and phone version may both have failed.
  return MEDIA_JOB_KINDS.map((kind) => retryFailedJob(subject, subjectId, kind)).some(Boolean);
}

/** The stored poster `name` when it is one of this contest's videos' (a sample's or a delivery file's). */
export function contestPoster(contestId: number, name: string): string | null {
  if (!name.startsWith("poster-")) return null;
  const sample = db()
    .select({ id: mediaItems.id })
    .from(mediaItems)
    .where(and(eq(mediaItems.contestId, contestId), eq(mediaItems.posterStoredName, name)))
    .get();
  if (sample) return name;
  const delivered = db()
    .select({ id: deliveryFiles.id })
    .from(deliveryFiles)
    .where(
      and(
        eq(deliveryFiles.contestId, contestId),
        eq(deliveryFiles.posterStoredName, name),
        isNull(deliveryFiles.deletedAt),
      ),
    )
    .get();
  return delivered ? name : null;
}
