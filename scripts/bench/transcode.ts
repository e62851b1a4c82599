// npm run bench:transcode — what making phone versions costs on this machine (decision 0036):
//  1. a 60 s 1080p export (test pattern and tone, H.264 + AAC at ~8 Mb/s, as editors export) made
//     with ffmpeg; its phone version made with the job's own arguments (phoneVersionArgs), at the
//     job's priority and thread cap: the time as a multiple of real time, the size against the
//     original's, and so the minutes of video one machine like this one processes per hour;
//  2. bench:server's storefront pages (`/` and the order form), each as a ratio to the minimal
//     Remix app's req/s measured in the same round, without a transcode and then while the shop's
//     own worker transcodes that video (queued as an upload queues it). Budget: the ratios during a
//     transcode at least 0.7 of the ratios without it.
// BENCH_SECONDS (default 5) per measurement, BENCH_ROUNDS (default 3) rounds; medians compared.
import { execFileSync, execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { phoneVersionPlan } from "../../app/lib/rules/video-versions";
import { runFfmpeg } from "../../app/server/media/jobs/ffmpeg.server";
import { jobTimeLimitMs } from "../../app/server/media/jobs/time-limits.server";
import { phoneVersionArgs } from "../../app/server/media/jobs/versions.server";
import { probeVideo } from "../../app/server/media/probe.server";
import { seededShop } from "./bench-shop";
import { BEHIND_FLY, EACH_REQUEST_ITS_OWN_CALLER } from "./callers";
import { startServer } from "./lib.mjs";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const VIDEO_SECONDS = 60;
const BUDGET = 0.7;
const MB = 1024 * 1024;

if (!fs.existsSync("server-build/index.js")) execSync("npm run build", { stdio: "inherit" });
execSync("npx remix vite:build scripts/bench/minimal-remix-app", { stdio: "ignore" });

const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-transcode-"));
const original = path.join(work, "recital-1080p.mp4");
process.stderr.write(`making a ${VIDEO_SECONDS} s 1080p test video\n`);
// prettier-ignore
execFileSync("ffmpeg", [
  "-v", "error", "-y",
  "-f", "lavfi", "-i", `testsrc2=size=1920x1080:rate=30:duration=${VIDEO_SECONDS}`,
  "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${VIDEO_SECONDS}`,
  "-c:v", "libx264", "-preset", "veryfast", "-b:v", "8M", "-pix_fmt", "yuv420p",
  "-c:a", "aac", "-b:a", "192k", original,
]);
const video = await probeVideo({ source: original, kind: "mp4" });
const plan = video && phoneVersionPlan(video);
if (!video || !plan?.make) throw new Error("the test video was not read as a 1080p video");

// 1. The phone version alone, as the job makes it.
const phone = path.join(work, "phone.mp4");
process.stderr.write("making its phone version\n");
const started = performance.now();
await runFfmpeg({
  input: { source: original, kind: "mp4" },
  ...phoneVersionArgs(phone, plan),
  durationMs: video.durationMs,
  timeLimitMs: jobTimeLimitMs("phone", video.durationMs),
});
const seconds = (performance.now() - started) / 1000;
const speed = VIDEO_SECONDS / seconds;
const made = await probeVideo({ source: phone, kind: "mp4" });
const originalSize = fs.statSync(original).size;
const phoneSize = fs.statSync(phone).size;

// 2. Pages while the shop's own worker transcodes.
const { env, formPath } = seededShop();
const shop = await startServer({ ...env, ...BEHIND_FLY });
const minimal = await startServer({ ...BEHIND_FLY }, undefined, {
  build: "build/minimal-remix-app/server/index.js",
  ready: "/",
});
process.on("exit", () => {
  shop.child.kill();
  minimal.child.kill();
});

const db = new Database(env.DATABASE_PATH);
const contestId = (db.prepare("select id from contests order by id limit 1").get() as { id: number }).id;
/** The video stored and queued as an upload stores and queues it; the server's worker takes it within 2 s. */
function queueTranscode(): number {
  const storedName = `delivery-bench${Date.now()}.mp4`;
  fs.mkdirSync(env.MEDIA_DIR, { recursive: true });
  fs.copyFileSync(original, path.join(env.MEDIA_DIR, storedName));
  const { id } = db
    .prepare(
      `insert into delivery_files (contest_id, stored_name, original_name, content_type, size, uploaded_at, video)
       values (?, ?, 'bench.mp4', 'video/mp4', ?, ?, ?) returning id`,
    )
    .get(contestId, storedName, originalSize, Date.now(), JSON.stringify(video)) as { id: number };
  db.prepare(
    "insert into media_jobs (kind, subject, subject_id, next_attempt_at) values ('phone', 'delivery', ?, ?)",
  ).run(id, Date.now());
  return id;
}
const transcoding = () =>
  (
    db.prepare("select count(*) as n from media_jobs where kind = 'phone' and status = 'running'").get() as {
      n: number;
    }
  ).n > 0;

async function rps(base: string, target: string, duration = DURATION): Promise<number> {
  const result = await autocannon({
    url: `${base}${target}`,
    connections: 50,
    duration,
    requests: EACH_REQUEST_ITS_OWN_CALLER,
  });
  if (result["5xx"] + result.errors + result.timeouts > 0) throw new Error(`${target}: errors under load`);
  return result.requests.average;
}

const pages = [
  { label: "/", path: "/" },
  { label: "/order-form/{slug}", path: formPath },
];
/** The minimal app's req/s, then each page's, measured back to back. */
async function measureRound(): Promise<{ floor: number; pages: number[] }> {
  const floor = await rps(minimal.base, "/");
  const result: number[] = [];
  for (const page of pages) result.push(await rps(shop.base, page.path));
  return { floor, pages: result };
}

process.stderr.write("warming up\n");
await rps(minimal.base, "/", 1);
for (const page of pages) await rps(shop.base, page.path, 1);
const without: Awaited<ReturnType<typeof measureRound>>[] = [];
const during: Awaited<ReturnType<typeof measureRound>>[] = [];
for (let round = 0; round < ROUNDS; round++) {
  process.stderr.write(`round ${round + 1}/${ROUNDS}: without a transcode\n`);
  if (transcoding()) throw new Error("a transcode is still running");
  without.push(await measureRound());
  process.stderr.write(`round ${round + 1}/${ROUNDS}: while the worker transcodes\n`);
  queueTranscode();
  const until = Date.now() + 10_000;
  while (!transcoding() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  if (!transcoding()) throw new Error("the server's worker did not start the transcode");
  during.push(await measureRound());
  if (!transcoding()) process.stderr.write("  (the transcode ended before the measurement did)\n");
  // The next round's "without" starts once this transcode is over.
  while (transcoding()) await new Promise((resolve) => setTimeout(resolve, 200));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const perHour = speed * 60;
console.log(`\nbench:transcode — ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "?"}`);
console.log(
  `phone version of ${VIDEO_SECONDS} s 1080p: ${seconds.toFixed(1)} s = ${speed.toFixed(2)}× real time` +
    ` (${made?.width}×${made?.height} ${made?.videoCodec}), ${(phoneSize / MB).toFixed(1)} MB against` +
    ` ${(originalSize / MB).toFixed(1)} MB (${((phoneSize / originalSize) * 100).toFixed(0)} %)`,
);
console.log(`minutes of video one such machine makes phone versions of per hour: ~${Math.floor(perHour)}`);
let failed = false;
// The budget is on the ratio to the framework's floor (the minimal app shares the machine, and so
// the transcode, with the shop); the page's own req/s kept is said beside it.
for (const [index, page] of pages.entries()) {
  const ratio = (runs: typeof without) => median(runs.map((run) => run.pages[index]! / run.floor));
  const own = (runs: typeof without) => median(runs.map((run) => run.pages[index]!));
  const kept = ratio(during) / ratio(without);
  const ok = kept >= BUDGET;
  failed ||= !ok;
  console.log(
    `${page.label}: ${ratio(without).toFixed(2)}× the minimal app without a transcode, ${ratio(during).toFixed(2)}×` +
      ` during one → ${kept.toFixed(2)} of it kept (budget ≥ ${BUDGET}) ${ok ? "✓" : "✗"};` +
      ` its own req/s ${own(without).toFixed(0)} → ${own(during).toFixed(0)} (${(own(during) / own(without)).toFixed(2)})`,
  );
}
db.close();
fs.rmSync(work, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
