// npm run demo: install what is missing, migrate, seed demo data, build, and serve on :3000.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { ensureDependencies, root } from "./ensure-deps.mjs";
import { diesWithThisProcess, stopTogether } from "./stop-together.mjs";
import { FFMPEG, ensureSystemPackages } from "./system-packages.mjs";

ensureDependencies();
ensureSystemPackages([FFMPEG]);

const dataDir = path.join(root, "data");
fs.mkdirSync(dataDir, { recursive: true });
// A session secret of the demo's own, kept so logins survive a restart of the demo.
const secretFile = path.join(dataDir, ".session-secret");
const earlierDemo = fs.existsSync(secretFile);
if (!earlierDemo) fs.writeFileSync(secretFile, crypto.randomBytes(32).toString("base64url"), { mode: 0o600 });

// The key for secrets kept in the database (authenticator apps), required in production and
// kept apart from the session secret so that rotating one never touches the other. A demo
// made before the key was required sealed its secrets with a key derived from the session
// secret: starting its key from that value keeps them readable.
const keyFile = path.join(dataDir, ".encryption-key");
if (!fs.existsSync(keyFile)) {
  fs.writeFileSync(
    keyFile,
    earlierDemo ? fs.readFileSync(secretFile, "utf8").trim() : crypto.randomBytes(32).toString("base64url"),
    { mode: 0o600 },
  );
}

const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: process.env.PORT ?? "3000",
  DATABASE_PATH: process.env.DATABASE_PATH ?? path.join(dataDir, "shop.db"),
  MEDIA_DIR: process.env.MEDIA_DIR ?? path.join(dataDir, "media"),
  MAIL_DIR: process.env.MAIL_DIR ?? path.join(dataDir, "mail"),
  SESSION_SECRET: process.env.SESSION_SECRET ?? fs.readFileSync(secretFile, "utf8").trim(),
  ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? fs.readFileSync(keyFile, "utf8").trim(),
  SITE_URL: process.env.SITE_URL ?? `http://localhost:${process.env.PORT ?? "3000"}`,
  // The demo takes test payments (テストモード) unless Stripe keys are given.
  PAYMENT_PROVIDER: process.env.PAYMENT_PROVIDER ?? (process.env.STRIPE_SECRET_KEY ? "stripe" : "test"),
};

/**
 * What the demo runs now (the seed, the build, then the server): a stop is passed on to it. A step
 * is a shell with npx and tsx under it, each of which would let its own child run on, so it runs
 * in a process group of its own and the whole group gets the signal.
 */
let current;
let server;
let stopSignal;
stopTogether((signal) => {
  stopSignal = signal;
  if (!current || current.exitCode !== null || current.signalCode !== null) process.exit(0);
  if (current === server) server.kill(signal);
  else process.kill(-current.pid, signal);
});

/** A step before the server (seed, build); a failed or stopped one ends the demo. */
function run(command) {
  return new Promise((resolve) => {
    current = spawn(command, { cwd: root, stdio: "inherit", env, shell: true, detached: true });
    current.on("exit", (code) => {
      if (stopSignal) process.exit(0);
      if (code !== 0) process.exit(code ?? 1);
      resolve();
    });
  });
}

/** What the build is made from: a file changed after the last build makes it stale. */
const BUILD_SOURCES = [
  "app",
  "server",
  "public",
  "patches",
  "scripts/vite",
  "scripts/build-server.mjs",
  "package.json",
  "package-lock.json",
  "vite.config.ts",
  "tsconfig.json",
];

/** Whether both builds are newer than every file they are made from: a second demo starts in seconds. */
function buildIsFresh() {
  const outputs = ["build/server/index.js", "server-build/index.js"].map((file) =>
    fs.statSync(path.join(root, file), { throwIfNoEntry: false }),
  );
  if (outputs.some((output) => !output)) return false;
  const builtAt = Math.min(...outputs.map((output) => output.mtimeMs));
  const changedSince = (file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return false;
    if (!stat.isDirectory()) return stat.mtimeMs > builtAt;
    return fs.readdirSync(file).some((name) => changedSince(path.join(file, name)));
  };
  return !BUILD_SOURCES.some((source) => changedSince(path.join(root, source)));
}

// A port already taken (another demo still running, another program) is said before anything
// else: otherwise the banner would name a shop that this run is not serving.
const port = Number(env.PORT);
const taken = await new Promise((resolve) => {
  const probe = net.createServer();
  probe.once("error", (error) => resolve(error.code === "EADDRINUSE"));
  probe.listen(port, () => probe.close(() => resolve(false)));
});
if (taken) {
  console.error(
    `ポート ${port} は使用中です。前に起動したデモやサーバーが動いていないか確認してください（別のポートで起動するには PORT=3001 npm run demo）。`,
  );
  process.exit(1);
}

console.log("> データベースを準備し、デモデータを投入しています");
await run("npx tsx scripts/seed.ts");
if (buildIsFresh()) {
  console.log("> ビルドは最新です（ソースの変更なし）");
} else {
  console.log("> ビルドしています");
  await run("npm run build");
}

const admin = JSON.parse(
  fs.readFileSync(path.join(path.dirname(env.DATABASE_PATH), "demo-admin.json"), "utf8"),
);
// The server is node itself (no npx in between), so a stop passed on by the demo reaches it, the
// demo ends when it has shut down, and a demo killed outright takes it down too.
const [command, args] = diesWithThisProcess(process.execPath, ["server-build/index.js"]);
server = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
current = server;
let bannerShown = false;
server.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  // The banner once the server listens, never for a server that failed to start.
  if (!bannerShown && String(chunk).includes("[server] http://")) {
    bannerShown = true;
    console.log(`
  ショップ:        ${env.SITE_URL}
  管理画面:        ${env.SITE_URL}/admin-login
  デモ管理者:      ${admin.email} / ${admin.password}
  送信メール:      ${env.MAIL_DIR} に .eml として保存されます（SMTP_URL 未設定のため）
`);
  }
});
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
