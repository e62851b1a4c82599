import crypto from "node:crypto";
import os from "node:os";
import { and, asc, desc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { now } from "../../core/clock.server";
import { db, type Db, type Tx } from "../../db/client.server";
import { mediaJobs, type MediaJobKind, type MediaJobSubject } from "../../db/schema";
import { HOUR_MS, MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * The media jobs' queue in SQLite, kept the way the mail outbox is (mail/outbox.server.ts): a job
 * is written in the transaction of the upload that causes it, claimed by one worker with one
 * UPDATE, held by a lease the worker renews with each progress report, retried with back-off, and
 * taken again when its worker died: at once when that worker was a process of this machine that
 * no longer runs (a kill -9, then a restart), else when its lease runs out.
 */

export type MediaJob = typeof mediaJobs.$inferSelect;

/** A job not reported on for this long is taken to have lost its worker (ffmpeg reports twice a second). */
export const JOB_LEASE_MS = 2 * MINUTE_MS;
export const FIRST_RETRY_MS = MINUTE_MS;
const MAX_RETRY_MS = HOUR_MS;
/** Tries before a job is failed and left to the admin's 再実行 (ffmpeg's refusal rarely changes). */
export const MAX_JOB_ATTEMPTS = 4;

export function jobRetryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 4 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/** This process's name as a worker: host, pid and a random part (a restarted process may get the same pid). */
export const WORKER_ID = `${os.hostname()}:${process.pid}:${crypto.randomBytes(6).toString("hex")}`;

/**
 * Queues the jobs of a video (again: a job already there starts over, as for a replaced file).
 * In `tx` when given, so the video and its jobs are written together.
 */
export function queueMediaJobs(
  subject: MediaJobSubject,
  subjectId: number,
  kinds: readonly MediaJobKind[],
  tx: Tx | Db = db(),
): void {
  const at = now();
  for (const kind of kinds)
    tx.insert(mediaJobs)
      .values({ kind, subject, subjectId, nextAttemptAt: at })
      .onConflictDoUpdate({
        target: [mediaJobs.subject, mediaJobs.subjectId, mediaJobs.kind],
        set: {
          status: "waiting",
          progress: 0,
          attempts: 0,
          nextAttemptAt: at,
          claimedBy: null,
          claimedUntil: null,
          detail: null,
          finishedAt: null,
        },
      })
      .run();
}

/**
 * Whether the worker named `claimedBy` is known to be gone: a process of this machine that no
 * longer runs, or an earlier process that had this one's pid. Another machine's is never judged
 * here; its lease decides.
 */
export function isDeadWorker(claimedBy: string | null): boolean {
  if (!claimedBy || claimedBy === WORKER_ID) return false;
  const [host, pidText] = claimedBy.split(":");
  const pid = Number(pidText);
  if (host !== os.hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but is another user's.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Takes the next due job for this worker, or none. */
export function claimNextJob(): MediaJob | undefined {
  const at = now();
  const running = db()
    .select({ claimedBy: mediaJobs.claimedBy })
    .from(mediaJobs)
    .where(eq(mediaJobs.status, "running"))
    .all();
  const deadWorkers = [...new Set(running.map((job) => job.claimedBy))].filter(isDeadWorker) as string[];
  const due = or(
    and(eq(mediaJobs.status, "waiting"), lte(mediaJobs.nextAttemptAt, at)),
    and(eq(mediaJobs.status, "running"), lte(mediaJobs.claimedUntil, at)),
    deadWorkers.length > 0
      ? and(eq(mediaJobs.status, "running"), inArray(mediaJobs.claimedBy, deadWorkers))
      : undefined,
  );
  const next = db()
    .select({ id: mediaJobs.id })
    .from(mediaJobs)
    .where(due)
    // Posters first: a second's work each, shown on the order form and the tabs, never kept waiting
    // behind a batch of phone versions of minutes each.
    .orderBy(desc(sql`${mediaJobs.kind} = 'poster'`), asc(mediaJobs.nextAttemptAt), asc(mediaJobs.id))
    .limit(1)
    .get();
  if (!next) return undefined;
  // The same condition again: of two workers that chose this job, one UPDATE finds it still due.
  return db()
    .update(mediaJobs)
    .set({
      status: "running",
      progress: 0,
      attempts: sql`${mediaJobs.attempts} + 1`,
      claimedBy: WORKER_ID,
      claimedUntil: new Date(at.getTime() + JOB_LEASE_MS),
    })
    .where(and(eq(mediaJobs.id, next.id), due))
    .returning()
    .get();
}

const heldByMe = (id: number) => and(eq(mediaJobs.id, id), eq(mediaJobs.claimedBy, WORKER_ID));

/** Records progress and renews the lease; false when the job is no longer this worker's (stop it). */
export function reportJobProgress(id: number, percent: number): boolean {
  const row = db()
    .update(mediaJobs)
    .set({ progress: percent, claimedUntil: new Date(now().getTime() + JOB_LEASE_MS) })
    .where(and(heldByMe(id), eq(mediaJobs.status, "running")))
    .returning({ id: mediaJobs.id })
    .get();
  return row !== undefined;
}

/** Done; `detail` says why nothing was made, when nothing was. */
export function finishJob(id: number, detail: string | null = null): void {
  db()
    .update(mediaJobs)
    .set({ status: "done", progress: 100, detail, finishedAt: now(), claimedBy: null, claimedUntil: null })
    .where(heldByMe(id))
    .run();
}

/**
 * A try failed: retried later with back-off, or failed for good after the last try, or at once
 * when trying again cannot help (`final`: the original is gone).
 */
export function failJob(job: MediaJob, reason: string, final = false): "retry" | "failed" {
  const giveUp = final || job.attempts >= MAX_JOB_ATTEMPTS;
  db()
    .update(mediaJobs)
    .set({
      status: giveUp ? "failed" : "waiting",
      detail: reason.slice(0, 500),
      nextAttemptAt: new Date(now().getTime() + jobRetryDelayMs(job.attempts)),
      finishedAt: giveUp ? now() : null,
      claimedBy: null,
      claimedUntil: null,
    })
    .where(heldByMe(job.id))
    .run();
  return giveUp ? "failed" : "retry";
}

/** Shutting down mid-job: the job waits for the next start, and the stop does not count as a try. */
export function releaseJob(id: number): void {
  db()
    .update(mediaJobs)
    .set({
      status: "waiting",
      progress: 0,
      attempts: sql`max(${mediaJobs.attempts} - 1, 0)`,
      nextAttemptAt: now(),
      claimedBy: null,
      claimedUntil: null,
    })
    .where(and(heldByMe(id), eq(mediaJobs.status, "running")))
    .run();
}

/** The admin's 再実行 of a failed job: from the first try again. False when it has not failed. */
export function retryFailedJob(subject: MediaJobSubject, subjectId: number, kind: MediaJobKind): boolean {
  const row = db()
    .update(mediaJobs)
    .set({
      status: "waiting",
      progress: 0,
      attempts: 0,
      nextAttemptAt: now(),
      detail: null,
      finishedAt: null,
    })
    .where(
      and(
        eq(mediaJobs.subject, subject),
        eq(mediaJobs.subjectId, subjectId),
        eq(mediaJobs.kind, kind),
        eq(mediaJobs.status, "failed"),
      ),
    )
    .returning({ id: mediaJobs.id })
    .get();
  return row !== undefined;
}

/** The jobs of some videos, for the back-office's lists: by subject id, then kind. */
export function jobsOf(
  subject: MediaJobSubject,
  subjectIds: number[],
): Map<number, Partial<Record<MediaJobKind, MediaJob>>> {
  const jobs = new Map<number, Partial<Record<MediaJobKind, MediaJob>>>();
  if (subjectIds.length === 0) return jobs;
  const rows = db()
    .select()
    .from(mediaJobs)
    .where(and(eq(mediaJobs.subject, subject), inArray(mediaJobs.subjectId, subjectIds)))
    .all();
  for (const row of rows) jobs.set(row.subjectId, { ...jobs.get(row.subjectId), [row.kind]: row });
  return jobs;
}

/** Forgets the jobs of a video that is gone (a deleted sample). */
export function dropJobsOf(subject: MediaJobSubject, subjectIds: number[], tx: Tx | Db = db()): void {
  if (subjectIds.length === 0) return;
  tx.delete(mediaJobs)
    .where(and(eq(mediaJobs.subject, subject), inArray(mediaJobs.subjectId, subjectIds)))
    .run();
}

/** Jobs not yet done (waiting or running), for the log and the operations view. */
export function unfinishedJobCount(): number {
  return (
    db()
      .select({ n: sql<number>`count(*)` })
      .from(mediaJobs)
      .where(inArray(mediaJobs.status, ["waiting", "running"]))
      .get()?.n ?? 0
  );
}
