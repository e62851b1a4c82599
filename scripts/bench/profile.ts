// npm run bench:profile — where the shop's server spends its time under load. The production build
// runs with `node --cpu-prof` while 50 connections load each page of the server benchmark in turn
// (PROFILE_SECONDS each, default 5; PROFILE_ONLY names some: "/about", "GET form"); the profile is summed up as shares of the busy time: by group
// (inclusive: route matching, React's rendering, loaders and actions, SQLite, the edge's headers,
// garbage collection; the server entry and Express by what they do themselves) and the top
// functions by self time. The .cpuprofile is kept for Chrome's DevTools.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { seededShop } from "./bench-shop";
import { BEHIND_FLY, EACH_REQUEST_ITS_OWN_CALLER } from "./callers";
import { adminCookie, startServer } from "./lib.mjs";

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 5);

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; hitCount?: number; children?: number[] };
type Profile = { nodes: ProfileNode[] };

if (!fs.existsSync("server-build/index.js")) execSync("npm run build", { stdio: "inherit" });
const { dir, env, adminId, formPath, postBody } = seededShop();
const profileDir = path.resolve(".tmp/profile");
fs.rmSync(profileDir, { recursive: true, force: true });
// Every request a caller of its own, as in a burst of parents (callers.ts).
const shop = await startServer({ ...env, ...BEHIND_FLY }, undefined, {
  nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
});
const admin = await adminCookie(env.DATABASE_PATH, adminId);
const form = { "Content-Type": "application/x-www-form-urlencoded" };
const loads: {
  path: string;
  method?: "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Names a load its path does not tell apart (PROFILE_ONLY="logged-in form"). */
  name?: string;
}[] = [
  { path: "/" },
  { path: formPath },
  // A logged-in visitor's order form is drawn every time (never from the render cache).
  { path: formPath, headers: { Cookie: admin }, name: "logged-in form" },
  { path: formPath, method: "POST", headers: form, body: postBody },
  { path: "/about" },
  { path: "/no-such-page" },
  { path: "/login" },
  { path: "/admin/orders", headers: { Cookie: admin } },
];
// PROFILE_ONLY=/about (a comma-separated list of paths) profiles those pages alone.
// An entry may name the method too ("GET /order-form/…"), and "form" stands for the order form's path.
const onlyNames = process.env.PROFILE_ONLY?.split(",");
const only = onlyNames?.map((entry) => entry.replace(/^((?:GET|POST) )?form$/, `$1${formPath}`));
const profiled = loads.filter(
  (load) =>
    !only ||
    (load.name
      ? onlyNames?.includes(load.name)
      : only.includes(load.path) || only.includes(`${load.method ?? "GET"} ${load.path}`)),
);
for (const load of profiled) {
  process.stderr.write(`${load.name ?? `${load.method ?? "GET"} ${load.path}`}\n`);
  await autocannon({
    url: `${shop.base}${load.path}`,
    connections: 50,
    duration: SECONDS,
    method: load.method ?? "GET",
    headers: load.headers ?? {},
    ...(load.body === undefined ? {} : { body: load.body }),
    requests: EACH_REQUEST_ITS_OWN_CALLER,
  });
}
// The server entry closes its server on SIGTERM and exits; Node writes the profile as it ends.
await shop.stop();
fs.rmSync(dir, { recursive: true, force: true });

const file = fs.readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
if (!file) throw new Error(`no profile in ${profileDir}`);
const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), "utf8")) as Profile;

const parentOf = new Map<number, ProfileNode>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
const stackOf = (node: ProfileNode): ProfileNode[] => {
  const stack = [node];
  for (let up = parentOf.get(node.id); up; up = parentOf.get(up.id)) stack.push(up);
  return stack;
};

const ROUTER_FUNCTIONS = new Set([
  "matchRoutes",
  "matchRoutesImpl",
  "flattenRoutes",
  "rankRouteBranches",
  "matchRouteBranch",
  "matchPath",
  "compilePath",
]);
/** The server entry (server-build/index.js, server/index.ts compiled) and the Express it is built on. */
const SERVER_ENTRY =
  /\/server-build\/|node_modules\/(express|@remix-run\/express|morgan|compression|serve-static|send|finalhandler|on-finished|on-headers)\//;
/** Node's own code and V8's entries: whoever called them pays for them. */
const isNodeItself = (f: CallFrame) => f.url === "" || f.url.startsWith("node:");
// The bundler suffixes same-named functions: loader$12, loader$1D, secureAnswer$1.
const named = (name: string, f: CallFrame) =>
  f.url.includes("build/server") && new RegExp(`^(${name})(\\$[\\w$]*)?$`).test(f.functionName);

/** `frames` from the sampled function (first) up to the root. */
const groups: { label: string; matches: (frames: CallFrame[]) => boolean }[] = [
  {
    label: "route matching (matchRoutes and what it calls)",
    matches: (frames) =>
      frames.some((f) => f.url.includes("@remix-run/router") && ROUTER_FUNCTIONS.has(f.functionName)),
  },
  {
    label: "React's rendering (react-dom/server)",
    matches: (frames) => frames.some((f) => f.url.includes("react-dom")),
  },
  {
    label: "the shop's loaders and actions",
    matches: (frames) => frames.some((f) => named("loader|action", f)),
  },
  {
    label: "SQLite (better-sqlite3)",
    matches: (frames) => frames.some((f) => f.url.includes("better-sqlite3")),
  },
  {
    label: "the edge's headers on each answer (edge.secureAnswer, in the app)",
    matches: (frames) => frames.some((f) => named("secureAnswer", f)),
  },
  // Not by its place on the stack: Remix runs under the entry's handler, so everything would count.
  // A sample is the entry's when the nearest code of ours or a package's is the entry's or Express's.
  {
    label:
      "the server entry and Express, by their own work (the edge's middleware, the body's count, headers, sending, compression, the request log, static files)",
    matches: (frames) => SERVER_ENTRY.test(frames.find((f) => !isNodeItself(f))?.url ?? ""),
  },
  {
    label: "garbage collection",
    matches: (frames) => frames.some((f) => f.functionName === "(garbage collector)"),
  },
];

const IDLE = new Set(["(idle)", "(program)"]);
let busy = 0;
const groupHits = new Map<string, number>();
const selfHits = new Map<string, number>();
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  if (hits === 0 || IDLE.has(node.callFrame.functionName)) continue;
  busy += hits;
  const frames = stackOf(node).map((n) => n.callFrame);
  for (const group of groups)
    if (group.matches(frames)) groupHits.set(group.label, (groupHits.get(group.label) ?? 0) + hits);
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    ? `${url
        .replace(/^.*node_modules\//, "")
        .replace(/^.*\/build\//, "build/")
        .replace(/^.*\/server-build\//, "server-build/")}:${lineNumber + 1}`
    : "";
  const key = `${functionName || "(anonymous)"} ${where}`.trim();
  selfHits.set(key, (selfHits.get(key) ?? 0) + hits);
}

const share = (hits: number) => `${((hits / busy) * 100).toFixed(1).padStart(5)} %`;
console.log(
  `CPU profile: ${path.relative(process.cwd(), path.join(profileDir, file))} (${profiled.length} loads × ${SECONDS} s)`,
);
console.log("Share of the busy time, by group (a sample counts for every group on its stack):");
for (const group of groups) console.log(`  ${share(groupHits.get(group.label) ?? 0)}  ${group.label}`);
console.log("Top functions by self time:");
for (const [key, hits] of [...selfHits].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`  ${share(hits)}  ${key}`);
