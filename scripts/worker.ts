/**
 * The media jobs (posters and phone versions of uploaded videos) in a process of their own:
 *
 *   npm run worker                (docker: node build/scripts/worker.js)
 *
 * The same loop the web server runs in-process by default (app/server/media/jobs/worker.server.ts).
 * Run it with the server's own settings (DATABASE_PATH, MEDIA_DIR or STORAGE_URL) and start the
 * server with MEDIA_WORKER=separate, so that only this process transcodes, at the lowest CPU
 * priority. It opens the server's SQLite file, so it runs on the machine whose volume holds it
 * (README, "Videos").
 * SIGTERM, SIGINT or SIGHUP (to it, or to npm above it: scripts/stop-together.mjs) stops ffmpeg and
 * puts its job back for the next start; exit 0.
 */
import { env } from "~/server/core/env.server";
import { db } from "~/server/db/client.server";
import { ffmpegInstalled } from "~/server/media/probe.server";
import { unfinishedJobCount } from "~/server/media/jobs/queue.server";
import { startMediaWorker, stopMediaWorker } from "~/server/media/jobs/worker.server";
import { stopTogether } from "./stop-together.mjs";

const config = env();
if (!(await ffmpegInstalled())) {
  console.error("ffmpeg / ffprobe が見つかりません: apt-get install ffmpeg");
  process.exit(1);
}
// Opens (and migrates) the database before the loop's first look.
db();
console.log(
  `[worker] メディア処理を開始しました（同時 ${config.MEDIA_JOBS} 件、待ち ${unfinishedJobCount()} 件）`,
);
startMediaWorker();
// The loop's timer does not keep a process alive (in the server, the HTTP server does): this one does.
const keepAlive = setInterval(() => undefined, 60_000);

stopTogether((signal) => {
  console.log(`[worker] ${signal}: 処理中のジョブを中断して停止します`);
  void stopMediaWorker().then(() => {
    clearInterval(keepAlive);
    db().$client.close();
    console.log("[worker] 停止しました");
    process.exit(0);
  });
});
