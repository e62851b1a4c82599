// npm run bench:server — the shop's production build under 50 connections, against the framework's
// own floor measured in the same run: a minimal Remix app (scripts/bench/minimal-remix-app: one
// root, one index route whose loader returns five items, the shop's future flags) built from the
// shop's own packages and served by the shop's own server entry (server-build/index.js, through
// the neutral edge of its app/entry.server.tsx), as the shop is. Every target runs BENCH_ROUNDS times
// (default 3), the targets interleaved so the machine's drift falls on all of them alike, and the
// medians are compared. Budgets: storefront pages ≥ 0.7× the minimal app's req/s with
// p99 ≤ 2× its p99; admin list pages ≥ 0.5×; /healthz ≥ 1.5×; the shop's peak RSS within 64 MB
// of the minimal app's (each target's own peak; the admin list from 50 addresses is printed apart,
// as one admin's requests are bounded by the caller gate and measured from one address), and its
// RSS after BENCH_IDLE_SECONDS (default 60) idle within 32 MB of its start-up figure; no answer
// outside 2xx/3xx. Pages every visitor gets alike are served from the render cache after their first request (as in a burst of parents); the order form of a
// logged-in visitor, never served from it, shows what drawing a page costs, without a budget; so
// do the admin list with nothing to list (the page's own fixed cost) and the admin list's data
// alone (what a JavaScript browser asks for after each action).
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import autocannon from "autocannon";
import { ADMIN_LIST_ORDERS, seededShop } from "./bench-shop";
import { BEHIND_FLY, EACH_REQUEST_ITS_OWN_CALLER } from "./callers";
import { IN_FLIGHT_PER_CALLER } from "../../server/caller-gate";
import { adminCookie, startServer } from "./lib.mjs";

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const CONNECTIONS = 50;
/** The one admin's address (TRUST_PROXY=fly reads it from Fly-Client-IP). */
const ONE_ADMIN_ADDRESS = "192.0.2.10";
const MB = 1024 * 1024;

if (!fs.existsSync("server-build/index.js")) execSync("npm run build", { stdio: "inherit" });
// Built every run (about 15 s): the shop's own build deletes build/ and everything in it.
execSync("npx remix vite:build scripts/bench/minimal-remix-app", { stdio: "ignore" });

const { dir, env, adminId, formPath, postBody } = seededShop();

// The Docker image runs the shop on jemalloc (see Dockerfile); both apps get it here too when
// Debian's libjemalloc2 is installed, so the figures are the image's and the comparison fair.
const jemallocPath = `/usr/lib/${os.arch() === "arm64" ? "aarch64" : "x86_64"}-linux-gnu/libjemalloc.so.2`;
const jemalloc = fs.existsSync(jemallocPath);
const allocator: Record<string, string> = jemalloc ? { LD_PRELOAD: jemallocPath } : {};
// Every request a caller of its own, as in a burst of parents (callers.ts).
const shop = await startServer({ ...env, ...allocator, ...BEHIND_FLY });
const minimal = await startServer({ ...allocator, ...BEHIND_FLY }, undefined, {
  build: "build/minimal-remix-app/server/index.js",
  ready: "/",
});
// Whatever ends this script, the servers end with it.
process.on("exit", () => {
  shop.child.kill();
  minimal.child.kill();
});
// A server that ends before the script stops it (a signal from outside, a crash) would leave only
// figures of a dead process: said at once, and the run fails.
let stopping = false;
for (const [name, server] of [
  ["the shop", shop],
  ["the minimal app", minimal],
] as const)
  server.child.once("exit", (code, signal) => {
    if (stopping) return;
    process.stderr.write(`${name}'s server ended during the benchmark (${signal ?? `exit ${code}`})\n`);
    process.exitCode = 1;
  });
const admin = { Cookie: await adminCookie(env.DATABASE_PATH, adminId) };

function rssOf(pid: number | undefined): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0; // not on Linux: no figure
  }
}
const startRss = { shop: rssOf(shop.child.pid), minimal: rssOf(minimal.child.pid) };

type Kind = "minimal" | "storefront" | "unbudgeted" | "admin" | "healthz";
type Target = {
  label: string;
  kind: Kind;
  server: typeof shop;
  path: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** All requests from one address (an admin's browser), on this many connections; else 50 callers. */
  oneCaller?: { connections: number };
  /** Why this target's peak RSS is not held to the budget (it is printed with the reason). */
  peakExempt?: string;
};
type Run = { rps: number; p50: number; p99: number; outside2xx3xx: number; total: number; peakRss: number };

const form = { "Content-Type": "application/x-www-form-urlencoded" };
const targets: Target[] = [
  { label: "minimal Remix app /", kind: "minimal", server: minimal, path: "/" },
  { label: "/", kind: "storefront", server: shop, path: "/" },
  { label: "/order-form/{slug}", kind: "storefront", server: shop, path: formPath },
  // A logged-in visitor's pages are never served from the render cache: what drawing costs.
  {
    label: "/order-form/{slug} logged in (drawn every time; no budget)",
    kind: "unbudgeted",
    server: shop,
    path: formPath,
    headers: admin,
  },
  {
    label: "POST /order-form/{slug} (draft saved, redirect)",
    kind: "storefront",
    server: shop,
    path: formPath,
    method: "POST",
    headers: form,
    body: postBody,
  },
  { label: "/about", kind: "storefront", server: shop, path: "/about" },
  { label: "404 page", kind: "storefront", server: shop, path: "/no-such-page" },
  { label: "/login", kind: "storefront", server: shop, path: "/login" },
  // The same list as the admin's own browser loads it: from one address, more requests than the
  // gate lets in at once (the rest wait in the caller's line), fewer than it refuses.
  {
    label: `/admin/orders from one admin's address (${IN_FLIGHT_PER_CALLER * 2} connections, the gate lets ${IN_FLIGHT_PER_CALLER} in; no req/s budget)`,
    kind: "unbudgeted",
    server: shop,
    path: "/admin/orders",
    headers: admin,
    oneCaller: { connections: IN_FLIGHT_PER_CALLER * 2 },
  },
  {
    label: `/admin/orders (${ADMIN_LIST_ORDERS.toLocaleString("en")} orders, logged in)`,
    kind: "admin",
    server: shop,
    path: "/admin/orders",
    headers: admin,
    // Fifty admins at once, each drawing 20 order groups (~2 MB each while drawn): no shop has
    // them. One admin's requests pass the server's caller gate at most IN_FLIGHT_PER_CALLER at a
    // time, which bounds what the list can hold; the target before this one measures that.
    peakExempt:
      "50 addresses with the admin's cookie; one admin is bounded by the caller gate (measured from one address above)",
  },
  // The same page with nothing to list (every order of the bench is still pending): the admin
  // page's own fixed cost, apart from drawing the orders.
  {
    label: "/admin/orders?tab=handled (the page with an empty list; no budget)",
    kind: "unbudgeted",
    server: shop,
    path: "/admin/orders?tab=handled",
    headers: admin,
  },
  // With JavaScript an admin's browser draws the list itself after its first page: each reload
  // of the list after 納品, 完了 or お断り, and each change of tab, page or filter, asks for this.
  {
    label: "/admin/orders.data (the list's data, as after each action; no budget)",
    kind: "unbudgeted",
    server: shop,
    path: "/admin/orders.data",
    headers: admin,
  },
  { label: "/healthz", kind: "healthz", server: shop, path: "/healthz" },
];

async function measure(target: Target, duration = DURATION): Promise<Run> {
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(target.server.child.pid))), 100);
  const result = await autocannon({
    url: `${target.server.base}${target.path}`,
    connections: target.oneCaller?.connections ?? CONNECTIONS,
    duration,
    method: target.method ?? "GET",
    ...(target.body === undefined ? {} : { body: target.body }),
    ...(target.oneCaller
      ? { headers: { ...target.headers, "Fly-Client-IP": ONE_ADMIN_ADDRESS } }
      : { headers: target.headers ?? {}, requests: EACH_REQUEST_ITS_OWN_CALLER }),
  });
  clearInterval(sampler);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // The 404 page answers 404 by design; anything else outside 2xx/3xx is a failure.
    outside2xx3xx:
      (target.path === "/no-such-page" ? 0 : result["4xx"]) + result["5xx"] + result.errors + result.timeouts,
    total: result.requests.total,
    peakRss,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

process.stderr.write("warming up\n");
for (const target of targets) await measure(target, 1); // warm-up: JIT, caches, SQLite pages
const runs = new Map<Target, Run[]>(targets.map((target) => [target, []]));
for (let round = 0; round < ROUNDS; round++)
  for (const target of targets) {
    process.stderr.write(`round ${round + 1}/${ROUNDS}: ${target.label}\n`);
    runs.get(target)?.push(await measure(target));
  }

const summary = new Map(
  targets.map((target) => {
    const list = runs.get(target) ?? [];
    return [
      target,
      {
        rps: median(list.map((run) => run.rps)),
        p50: median(list.map((run) => run.p50)),
        p99: median(list.map((run) => run.p99)),
        p99Range: [Math.min(...list.map((run) => run.p99)), Math.max(...list.map((run) => run.p99))],
        outside2xx3xx: list.reduce((sum, run) => sum + run.outside2xx3xx, 0),
        total: list.reduce((sum, run) => sum + run.total, 0),
        peakRss: Math.max(...list.map((run) => run.peakRss)),
      },
    ] as const;
  }),
);

// Idle: what the shop gives back once the burst is over.
await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
const idleRss = { shop: rssOf(shop.child.pid), minimal: rssOf(minimal.child.pid) };
stopping = true;
await shop.stop();
await minimal.stop();
fs.rmSync(dir, { recursive: true, force: true });

const floor = summary.get(targets[0] as Target);
if (!floor) throw new Error("no baseline");
const budgets: Record<Kind, { rps: number; p99?: number }> = {
  minimal: { rps: 1 },
  unbudgeted: { rps: 0 },
  storefront: { rps: 0.7, p99: 2 },
  admin: { rps: 0.5 },
  healthz: { rps: 1.5 },
};
let failed = false;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
console.log(
  `${CONNECTIONS} connections × ${DURATION} s, ${ROUNDS} rounds (medians), production builds on loopback, ${os.cpus().length} CPUs, ${jemalloc ? "jemalloc (as the Docker image)" : "glibc malloc (libjemalloc2 is not installed; the Docker image uses jemalloc)"}`,
);
for (const target of targets) {
  const figures = summary.get(target);
  if (!figures) continue;
  const budget = budgets[target.kind];
  const ratio = figures.rps / floor.rps;
  const p99Ratio = figures.p99 / Math.max(1, floor.p99);
  const informative = target.kind === "minimal" || target.kind === "unbudgeted";
  const ok =
    informative ||
    (ratio >= budget.rps &&
      (budget.p99 === undefined || p99Ratio <= budget.p99) &&
      figures.outside2xx3xx === 0);
  failed ||= !ok;
  const p99Budget = budget.p99 === undefined ? "" : ` (${p99Ratio.toFixed(2)}×, budget ≤ ${budget.p99}×)`;
  console.log(
    `${informative ? "·" : ok ? "✓" : "✗"} ${target.label}: ${figures.rps.toFixed(0)} req/s = ${ratio.toFixed(2)}× the minimal app${informative ? "" : ` (budget ≥ ${budget.rps}×)`}, p50 ${figures.p50} ms, p99 ${figures.p99} ms [${figures.p99Range.join("–")}]${p99Budget}, peak RSS ${mb(figures.peakRss)}, ${figures.outside2xx3xx} answers outside 2xx/3xx of ${figures.total}`,
  );
}
// Each target's peak is its own (sampled while it runs; memory is given back between targets).
const peakOf = (list: Target[]) => Math.max(...list.map((t) => summary.get(t)?.peakRss ?? 0));
const shopTargets = targets.filter((t) => t.server === shop);
const peak = {
  shop: peakOf(shopTargets.filter((t) => !t.peakExempt)),
  minimal: floor.peakRss,
};
const peakOk = peak.shop > 0 && peak.shop - peak.minimal <= 64 * MB;
const idleOk = idleRss.shop > 0 && idleRss.shop - startRss.shop <= 32 * MB;
failed ||= !peakOk || !idleOk;
console.log(
  `${peakOk ? "✓" : "✗"} peak RSS: the shop ${mb(peak.shop)} (its highest target, the storefront's pages and one admin's list among them), the minimal app ${mb(peak.minimal)}: ${mb(peak.shop - peak.minimal)} more (budget ≤ 64 MB)`,
);
for (const target of shopTargets.filter((t) => t.peakExempt))
  console.log(
    `· peak RSS of ${target.label}: ${mb(summary.get(target)?.peakRss ?? 0)}, ${mb((summary.get(target)?.peakRss ?? 0) - peak.minimal)} more than the minimal app, not budgeted: ${target.peakExempt}`,
  );
console.log(
  `${idleOk ? "✓" : "✗"} RSS after ${IDLE_SECONDS} s idle: the shop ${mb(idleRss.shop)} against ${mb(startRss.shop)} at start-up: ${mb(idleRss.shop - startRss.shop)} more (budget ≤ 32 MB); the minimal app ${mb(idleRss.minimal)} against ${mb(startRss.minimal)}`,
);
process.exitCode = failed || process.exitCode ? 1 : 0;
