import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/bench/lib.mjs";

/**
 * `npm run demo` and `npm run worker` stop everything they started when any process of theirs
 * gets SIGTERM, SIGINT or SIGHUP (scripts/stop-together.mjs). Before, a SIGTERM to npm's own
 * process ended npm and its shell and left the server (or the worker, and its ffmpeg) running.
 * Processes only: run in the js project only (playwright.config.ts).
 */

const root = path.resolve(import.meta.dirname, "../..");

/** Every process under `pid` (and itself), read from /proc. */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8").replace(/^.*\) /, "");
    const parent = Number(stat.split(" ")[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const tree = [pid];
  for (let at = 0; at < tree.length; at++) tree.push(...(children.get(tree[at]!) ?? []));
  return tree;
}

/** The process in `tree` whose command line names `file`. */
function processRunning(tree: number[], file: string): number {
  const pid = tree.find((candidate) => fs.readFileSync(`/proc/${candidate}/cmdline`, "utf8").includes(file));
  if (pid === undefined) throw new Error(`no process runs ${file}`);
  return pid;
}

const alive = (pid: number) =>
  fs.existsSync(`/proc/${pid}/stat`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));

/** `npm run <script>` with the shop's files in a folder of its own, started once it prints `ready`. */
async function npmRun(script: "demo" | "worker", ready: RegExp) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `stop-${script}-`));
  const child: ChildProcess = spawn("npm", ["run", script], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(await freePort()),
      DATABASE_PATH: path.join(work, "shop.db"),
      MEDIA_DIR: path.join(work, "media"),
      MAIL_DIR: path.join(work, "mail"),
      BACKUP_DIR: path.join(work, "backups"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await expect.poll(() => ready.test(output), { timeout: 120_000 }).toBe(true);
  // The tree as it stands once ready: npm, the script, the server.
  const tree = processTree(child.pid!);
  return { npm: child.pid!, tree, output: () => output };
}

async function expectAllGone(tree: number[]) {
  await expect.poll(() => tree.filter(alive), { timeout: 20_000 }).toEqual([]);
}

test("stopped together: npm run demo and everything it started end when npm gets SIGTERM or SIGHUP, or the server gets SIGTERM", async () => {
  test.setTimeout(300_000);
  for (const [whom, signal] of [
    ["npm", "SIGTERM"],
    ["npm", "SIGHUP"],
    ["server", "SIGTERM"],
  ] as const) {
    const demo = await npmRun("demo", /デモ管理者/);
    expect(demo.tree.length, demo.output()).toBeGreaterThanOrEqual(3);
    process.kill(whom === "npm" ? demo.npm : processRunning(demo.tree, "server-build/index.js"), signal);
    await expectAllGone(demo.tree);
    // The server shut down as it does on a stop: gracefully.
    expect(demo.output(), `${whom} ${signal}`).toContain("[server] 停止しました");
  }
});

test("stopped together: npm run worker ends when npm gets SIGTERM or SIGHUP, or the worker SIGINT", async () => {
  test.setTimeout(120_000);
  for (const [whom, signal] of [
    ["npm", "SIGTERM"],
    ["npm", "SIGHUP"],
    ["worker", "SIGINT"],
  ] as const) {
    const worker = await npmRun("worker", /メディア処理を開始しました/);
    process.kill(whom === "npm" ? worker.npm : processRunning(worker.tree, "scripts/worker.ts"), signal);
    await expectAllGone(worker.tree);
    expect(worker.output(), `${whom} ${signal}`).toContain("[worker] 停止しました");
  }
});
