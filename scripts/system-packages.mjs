// Debian packages the scripts need beside npm's: found, installed with apt-get when missing and
// root, or named with the command to run. Plain Node with no dependencies: it runs before
// anything is installed. Used by `npm test` and `npm run demo`.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Playwright drives Debian's chromium at this fixed path (playwright.config.ts); the CJK fonts
 * make the pages' Japanese render as it does for customers, in screenshots too.
 */
export const CHROMIUM = {
  commands: ["/usr/bin/chromium"],
  packages: ["chromium", "fonts-noto-cjk"],
  purpose: "ブラウザテスト",
};

/** The shop probes every uploaded video (ffprobe) and makes posters and phone versions (ffmpeg). */
export const FFMPEG = {
  commands: ["ffmpeg", "ffprobe"],
  packages: ["ffmpeg"],
  purpose: "動画の検査・ポスター・スマホ用の作成",
};

/** A command given as a path is looked for there; a bare name on PATH, as spawn finds it. */
function found(command) {
  const candidates = command.includes("/")
    ? [command]
    : (process.env.PATH ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  return candidates.some((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * Installs the packages of every need whose commands are not all there, in one apt-get run when
 * root; otherwise prints that command in Japanese and exits 1. Does nothing when all are there.
 * @param {{ commands: string[]; packages: string[]; purpose: string }[]} needs
 */
export function ensureSystemPackages(needs) {
  const missing = needs.filter((need) => !need.commands.every(found));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.flatMap((need) => need.packages))].join(" ");
  const purposes = missing.map((need) => need.purpose).join("・");
  const commands = missing.flatMap((need) => need.commands.filter((command) => !found(command))).join("、");
  const install = `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${packages}`;
  if (process.getuid?.() === 0) {
    console.log(`> apt-get install ${packages}（${purposes}用）`);
    try {
      execSync(install, { stdio: "inherit" });
    } catch {
      console.error(
        `Debian パッケージのインストールに失敗しました（${packages}）。上の apt-get の出力を確認してください。`,
      );
      process.exit(1);
    }
    const still = missing.flatMap((need) => need.commands.filter((command) => !found(command)));
    if (still.length === 0) return;
    console.error(`インストール後も ${still.join("、")} が見つかりません（${packages}）。`);
    process.exit(1);
  }
  console.error(
    `${commands} が見つかりません。${purposes}には Debian の ${packages} パッケージが必要です。次のコマンドでインストールしてください:\n` +
      `  sudo sh -c '${install}'`,
  );
  process.exit(1);
}
