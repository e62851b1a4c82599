// The fault test's transcode: a 20 s 1080p video stored as a delivered file of the shop with its
// phone version queued (as an upload queues it), so the server's worker is transcoding while the
// server is stopped again and again; then the job's end, read from the database.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** The ffmpeg processes of this machine writing into `folder` (a stopped worker's would be orphans). */
export function ffmpegsWritingInto(folder: string): string[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        return path.basename(command[0] ?? "") === "ffmpeg" && command.some((arg) => arg.startsWith(folder));
      } catch {
        return false;
      }
    });
}

export function queueTranscode(env: { DATABASE_PATH: string; MEDIA_DIR: string }) {
  const storedName = "delivery-faults0001.mp4";
  fs.mkdirSync(env.MEDIA_DIR, { recursive: true });
  // prettier-ignore
  execFileSync("ffmpeg", [
    "-v", "error", "-y",
    "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=20",
    "-f", "lavfi", "-i", "sine=frequency=440:duration=20",
    "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "8M", "-pix_fmt", "yuv420p", "-c:a", "aac",
    path.join(env.MEDIA_DIR, storedName),
  ]);
  const db = new Database(env.DATABASE_PATH);
  const contestId = (db.prepare("select id from contests order by id limit 1").get() as { id: number }).id;
  const size = fs.statSync(path.join(env.MEDIA_DIR, storedName)).size;
  const { id } = db
    .prepare(
      "insert into delivery_files (contest_id, stored_name, original_name, content_type, size, uploaded_at) values (?, ?, '12_横.mp4', 'video/mp4', ?, ?) returning id",
    )
    .get(contestId, storedName, size, Date.now()) as { id: number };
  db.prepare(
    "insert into media_jobs (kind, subject, subject_id, next_attempt_at) values ('phone', 'delivery', ?, ?)",
  ).run(id, Date.now());
  const job = () =>
    db
      .prepare("select status, attempts from media_jobs where subject = 'delivery' and subject_id = ?")
      .get(id) as { status: string; attempts: number };
  return {
    /** Waits (the last server's life) for the job to end. */
    async finished(timeoutMs: number) {
      const until = Date.now() + timeoutMs;
      while (!["done", "failed"].includes(job().status) && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 250));
      const phone = db
        .prepare("select phone_stored_name as name from delivery_files where id = ?")
        .get(id) as {
        name: string | null;
      };
      const result = {
        ...job(),
        phone: phone.name !== null && fs.existsSync(path.join(env.MEDIA_DIR, phone.name)),
        orphans: ffmpegsWritingInto(path.resolve(env.MEDIA_DIR)),
      };
      db.close();
      return result;
    },
  };
}
