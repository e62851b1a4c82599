// *stalled job*: an input whose fetch never answered kept the only ffmpeg worker busy,
// and the next upload's poster stayed 待機中. Every media job now has a time limit
// (app/server/media/jobs/time-limits.server.ts); the probe has its own timeout.
//
// The never-ending input is the object store's answer, so this file runs in the "s3" project only
// (vitest.config.ts: a stored file on the local disk always ends): a loopback server in front of
// the run's fake S3 forwards every request, except that ffmpeg's and ffprobe's reads of a video
// marked stalled get headers and then never a byte of the body.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContest } from "~/server/catalog/contests.server";
import { env } from "~/server/core/env.server";
import { db } from "~/server/db/client.server";
import { mediaItems, mediaJobs } from "~/server/db/schema";
import { fileStore } from "~/server/files/store.server";
import { TIME_LIMIT_MESSAGE } from "~/server/media/jobs/time-limits.server";
import { startMediaWorker, stopMediaWorker } from "~/server/media/jobs/worker.server";
import { storeUploadedFile } from "~/server/media/new-media.server";
import { probeVideo } from "~/server/media/probe.server";
import { SAMPLE_VIDEO } from "../../helpers/test-videos";

/** A bucket's front that never sends the body of what ffmpeg or ffprobe reads of a stalled video. */
type StallingFront = { url: string; stall: (name: string) => void; close: () => Promise<void> };

function startStallingFront(bucket: URL): Promise<StallingFront> {
  const stalled = new Set<string>();
  const server = http.createServer((request, response) => {
    // libavformat says who it is: Lavf/<version>. The shop's own S3 calls (the SDK) pass through.
    const media = /^Lavf\//.test(request.headers["user-agent"] ?? "");
    if (media && [...stalled].some((name) => request.url?.includes(name))) {
      response.writeHead(200, { "Content-Type": "video/mp4", "Content-Length": 100_000_000 });
      response.flushHeaders();
      return;
    }
    const forwarded = http.request(
      {
        host: bucket.hostname,
        port: bucket.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on("error", () => response.destroy());
    request.pipe(forwarded);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        stall: (name) => stalled.add(name),
        close: () => {
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      });
    }),
  );
}

/** The ffmpeg and ffprobe processes of this machine whose command line holds `text`. */
function mediaProcessesReading(text: string): string[] {
  return fs.readdirSync("/proc").filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return (
        /^ff(mpeg|probe)$/.test(path.basename(command[0] ?? "")) && command.some((arg) => arg.includes(text))
      );
    } catch {
      return false;
    }
  });
}

async function waitFor<T>(what: string, read: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let front: StallingFront;
beforeAll(async () => {
  // Before the shop first reads its configuration: its bucket is reached through the front.
  front = await startStallingFront(new URL(process.env.S3_ENDPOINT!));
  process.env.S3_ENDPOINT = front.url;
});
afterAll(async () => {
  await stopMediaWorker();
  await front.close();
});

/** A sample video of the contest, uploaded as the コンテンツ tab's plain form stores it (its poster queued). */
async function uploadSample(contestId: number, fileName: string) {
  const store = await fileStore();
  fs.mkdirSync(store.scratchDir(), { recursive: true });
  const copy = path.join(store.scratchDir(), `stalled-test-${fileName}`);
  fs.copyFileSync(SAMPLE_VIDEO, copy);
  const stored = await storeUploadedFile(contestId, copy, {
    originalName: fileName,
    expectedType: "video",
    category: "sample",
  });
  if (!stored.ok) throw new Error(stored.message);
  return stored.item;
}

const posterJobOf = (itemId: number) =>
  db()
    .select()
    .from(mediaJobs)
    .all()
    .find((job) => job.subject === "sample" && job.subjectId === itemId && job.kind === "poster")!;

describe("a media job whose input never ends (object storage)", () => {
  it("stalled probe: ffprobe of a source that never answers is refused at its timeout, and does not run on", async () => {
    front.stall("never-answers.mp4");
    const source = `${front.url}/never-answers.mp4`;
    const started = performance.now();
    expect(await probeVideo({ source, kind: "mp4" }, { timeoutMs: 1_000 })).toBeNull();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(mediaProcessesReading(source)).toEqual([]);
  });

  it("stalled job: a job whose input never ends is failed at its time limit and the next job runs", async () => {
    expect(env().S3?.endpoint).toBe(front.url);
    const contestId = createContest("止まる動画の大会");
    const stalled = await uploadSample(contestId, "止まる.mp4");
    const next = await uploadSample(contestId, "次の動画.mp4");
    front.stall(stalled.storedName);

    // Seconds instead of minutes: the same limit, scaled down for the test.
    startMediaWorker({
      concurrency: 1,
      intervalMs: 100,
      timeLimits: { posterMs: 3_000, phoneFloorMs: 3_000, phonePerVideoDuration: 0 },
    });
    // The poster of the stalled video is taken first (queued first) and ffmpeg waits on its input.
    await waitFor(
      "ffmpeg reading the stalled video",
      () => mediaProcessesReading(stalled.storedName).length > 0,
    );
    const failed = await waitFor("the stalled job to fail", () => {
      const job = posterJobOf(stalled.id);
      return job.status === "failed" && job;
    });
    expect(failed).toMatchObject({ detail: TIME_LIMIT_MESSAGE, attempts: 1, claimedBy: null });
    expect(mediaProcessesReading(stalled.storedName)).toEqual([]);

    // The worker moved on: the next upload's poster is made.
    await waitFor("the next job to be done", () => posterJobOf(next.id).status === "done");
    const item = db().select().from(mediaItems).where(eq(mediaItems.id, next.id)).get();
    expect(item?.posterStoredName).toMatch(/^poster-[a-f0-9]+\.jpg$/);
    expect(
      db().select().from(mediaItems).where(eq(mediaItems.id, stalled.id)).get()?.posterStoredName,
    ).toBeNull();
  });
});
