// Installs npm packages when they are missing or older than the lockfile.
// Plain Node with no dependencies: it runs before anything is installed.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function ensureDependencies() {
  const marker = path.join(root, "node_modules", ".package-lock.json");
  const lock = path.join(root, "package-lock.json");
  // A patch of a package (patches/, applied by patch-package after each install) counts as the lockfile does.
  const patches = path.join(root, "patches");
  const inputs = [lock, ...fs.readdirSync(patches).map((name) => path.join(patches, name))];
  const fresh =
    fs.existsSync(marker) &&
    inputs.every((input) => fs.statSync(marker).mtimeMs >= fs.statSync(input).mtimeMs);
  if (fresh && fs.existsSync(path.join(root, "node_modules", "better-sqlite3", "build", "Release"))) return;
  // Not `npm ci`: it refuses a lockfile that lacks the optional per-platform builds (rollup,
  // tailwind's oxide) for other systems, and a registry mirror may not hold every one of them.
  // `npm install` installs the lockfile's versions all the same and leaves the lockfile as it is.
  console.log("> npm install（依存パッケージをインストールしています）");
  execSync("npm install --no-audit --no-fund", { cwd: root, stdio: "inherit" });
  // better-sqlite3 is a native addon: with no prebuilt binary reachable, it is compiled here.
  if (!fs.existsSync(path.join(root, "node_modules", "better-sqlite3", "build", "Release"))) {
    execSync("npm rebuild better-sqlite3", { cwd: root, stdio: "inherit" });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDependencies();
