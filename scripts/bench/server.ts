// npm run bench:server — throughput of the production build under 50 connections for 10 s
// each: the home page, an order form, an order-form POST (a draft saved on the server and a
// redirect), against a baseline measured in the same run on the same server: the 404 page,
// which is the same document shell with no data. Budgets: each data page ≥ 0.8 × the
// baseline's requests/s, p99 ≤ 200 ms, no answer outside 2xx/3xx, server RSS ≤ 250 MB.
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { contestSlug } from "../../app/lib/slug";
import { startServer } from "./lib.mjs";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

if (!fs.existsSync("build/server/index.js")) execSync("npx remix vite:build", { stdio: "inherit" });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-server-"));
const env = {
  DATABASE_PATH: path.join(dir, "shop.db"),
  MEDIA_DIR: path.join(dir, "media"),
  MAIL_DIR: path.join(dir, "mail"),
};
execSync("npx tsx scripts/seed.ts", { env: { ...process.env, ...env }, stdio: "ignore" });
const server = await startServer(env);

// The order form of the first contest on sale, and a valid first item for the POST.
const db = new Database(env.DATABASE_PATH, { readonly: true });
const contest = db
  .prepare("select id, name from contests where video_published = 1 order by id limit 1")
  .get() as { id: number; name: string };
const athlete = db
  .prepare("select id, category from athletes where contest_id = ? and video_status = '販売中' limit 1")
  .get(contest.id) as { id: number; category: string };
const format = db
  .prepare("select id from video_formats where contest_id = ? order by display_order limit 1")
  .get(contest.id) as { id: number };
db.close();
const formPath = `/order-form/${encodeURIComponent(contestSlug(contest.name))}`;
const postBody = new URLSearchParams({
  intent: "add",
  "items[0].category": athlete.category,
  "items[0].athleteId": String(athlete.id),
  "items[0].formatId": String(format.id),
}).toString();

// Peak resident memory of the server process while the runs go on.
let peakRss = 0;
const sampler = setInterval(() => {
  try {
    const status = fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8");
    peakRss = Math.max(peakRss, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
  } catch {
    // not on Linux: no figure
  }
}, 100);

type Run = { label: string; rps: number; p50: number; p99: number; outside2xx3xx: number; total: number };
type Target = {
  path: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  duration?: number;
};

async function run(label: string, { path: urlPath, ...options }: Target): Promise<Run> {
  const result = await autocannon({
    url: `${server.base}${urlPath}`,
    connections: CONNECTIONS,
    duration: DURATION,
    ...options,
  });
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    outside2xx3xx: result["4xx"] + result["5xx"] + result.errors + result.timeouts,
    total: result.requests.total,
  };
}

const target = (p: string): Target => ({ path: p });
await run("warm-up", { ...target("/"), duration: 2 });
const baseline = await run("404 (baseline: the shell, no data)", target("/no-such-page"));
const pages = [
  await run("/", target("/")),
  await run("/order-form/{slug}", target(formPath)),
  await run("POST /order-form/{slug} (draft saved, redirect)", {
    path: formPath,
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: postBody,
  }),
];
clearInterval(sampler);
await server.stop();
fs.rmSync(dir, { recursive: true, force: true });

let failed = false;
console.log(`${CONNECTIONS} connections, ${DURATION} s each, production build on loopback`);
console.log(
  `baseline ${baseline.label}: ${baseline.rps.toFixed(0)} req/s, p50 ${baseline.p50} ms, p99 ${baseline.p99} ms`,
);
for (const page of pages) {
  const ratio = page.rps / baseline.rps;
  const ok = ratio >= 0.8 && page.p99 <= 200 && page.outside2xx3xx === 0;
  failed ||= !ok;
  console.log(
    `${ok ? "✓" : "✗"} ${page.label}: ${page.rps.toFixed(0)} req/s (${ratio.toFixed(2)}× baseline), p50 ${page.p50} ms, p99 ${page.p99} ms, ${page.outside2xx3xx} answers outside 2xx/3xx of ${page.total}`,
  );
}
const rssOk = peakRss > 0 && peakRss <= 250 * 1024 * 1024;
failed ||= !rssOk;
console.log(
  `${rssOk ? "✓" : "✗"} server peak RSS during the runs: ${(peakRss / 1024 / 1024).toFixed(0)} MB (budget 250 MB)`,
);
process.exitCode = failed ? 1 : 0;
