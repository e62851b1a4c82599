import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client.server";
import { deliveryFiles, mediaJobs } from "~/server/db/schema";
import { storeDeliveryFile } from "~/server/delivery/delivery-files.server";
import { fileStore } from "~/server/files/store.server";
import { probeVideo } from "~/server/media/probe.server";
import { ffmpegsWritingInto } from "../../../scripts/load/transcode-under-faults";
import { seedContest } from "../../helpers/shop";

/**
 * `npm run worker` as a process of its own, killed with SIGKILL in the middle of a transcode (as
 * the machine's OOM killer or a power cut would), then started again: the job it held is taken
 * back at once (its worker is a dead process of this machine) and finishes. And a SIGTERM stops
 * ffmpeg and puts the job back without counting a try.
 */

const workers: ChildProcess[] = [];
afterAll(() => {
  for (const worker of workers) worker.kill("SIGKILL");
});

function startWorker(): ChildProcess {
  // node itself, not npx: the signal reaches the worker and nothing between.
  const worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    env: { ...process.env, MEDIA_JOBS: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  workers.push(worker);
  return worker;
}

/** A 1080p export long enough (20 s) that its phone version takes seconds on a small machine. */
function longVideo(): string {
  const file = path.join(path.dirname(process.env.DATABASE_PATH!), "recital-20s.mp4");
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=20"],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=20"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-b:v", "8M", "-pix_fmt", "yuv420p", "-c:a", "aac", file],
  ]);
  return file;
}

const phoneJob = (fileId: number) =>
  db()
    .select()
    .from(mediaJobs)
    .where(eq(mediaJobs.subjectId, fileId))
    .all()
    .find((job) => job.subject === "delivery" && job.kind === "phone")!;

async function waitFor<T>(what: string, read: () => T | undefined | false, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const exited = (worker: ChildProcess) =>
  new Promise<number | null>((resolve) => worker.once("exit", (code) => resolve(code)));

let fileId = 0;
let scratchDir = "";
beforeAll(async () => {
  const { contestId } = seedContest();
  const store = await fileStore();
  scratchDir = store.scratchDir();
  fs.mkdirSync(store.scratchDir(), { recursive: true });
  const upload = path.join(store.scratchDir(), "upload-long.mp4");
  fs.copyFileSync(longVideo(), upload);
  const stored = await storeDeliveryFile(contestId, upload, "発表会_12_山田花子_横.mp4");
  if (!stored.ok) throw new Error(stored.message);
  fileId = stored.file.id;
}, 60_000);

describe("npm run worker", () => {
  it("kill -9 during a transcode: after a restart the job is taken back at once and finishes", async () => {
    const first = startWorker();
    const running = await waitFor(
      "the transcode to be under way",
      () => phoneJob(fileId).status === "running" && phoneJob(fileId).progress > 0 && phoneJob(fileId),
    );
    first.kill("SIGKILL");
    await exited(first);
    await waitFor("the orphaned ffmpeg to end", () => ffmpegsWritingInto(scratchDir).length === 0, 5_000);
    // Still marked running, by a worker that is gone: no one would take it until its lease ran out.
    expect(phoneJob(fileId)).toMatchObject({ status: "running", claimedBy: running.claimedBy });

    const second = startWorker();
    const done = await waitFor(
      "the phone version",
      () => phoneJob(fileId).status === "done" && phoneJob(fileId),
    );
    expect(done.attempts).toBe(2);
    const file = db().select().from(deliveryFiles).where(eq(deliveryFiles.id, fileId)).get()!;
    const phone = await (
      await fileStore()
    ).withLocalCopy(file.phoneStoredName!, (made) => probeVideo({ source: made, kind: "mp4" }));
    expect(phone).toMatchObject({ videoCodec: "h264", width: 1280, height: 720 });
    expect(phone!.durationMs).toBeGreaterThan(19_000);
    // The killed worker's ffmpeg did not run on as an orphan: it died at its next progress write.
    expect(ffmpegsWritingInto((await fileStore()).scratchDir())).toEqual([]);

    second.kill("SIGTERM");
    expect(await exited(second)).toBe(0);
  }, 120_000);

  it("SIGTERM during a transcode stops ffmpeg and puts the job back, not counted as a try", async () => {
    db()
      .update(mediaJobs)
      .set({ status: "waiting", attempts: 0, progress: 0, nextAttemptAt: new Date(), claimedBy: null })
      .where(eq(mediaJobs.id, phoneJob(fileId).id))
      .run();
    const worker = startWorker();
    await waitFor("the transcode to be under way", () => phoneJob(fileId).progress > 0);
    worker.kill("SIGTERM");
    expect(await exited(worker)).toBe(0);
    expect(phoneJob(fileId)).toMatchObject({ status: "waiting", attempts: 0, claimedBy: null });
  }, 120_000);
});
