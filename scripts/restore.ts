/**
 * Puts a snapshot back in place of the shop's database, then brings back the orders paid after it.
 *
 *   npm run restore -- --replica           # the Litestream replica, to its last write (decision 0041)
 *   npm run restore -- --replica --at 2026-11-29T05:15:00Z   # the replica as it was then (three days back at most)
 *   npm run restore -- --latest            # the newest snapshot where the shop keeps them (the daily archive)
 *   npm run restore -- shop-<time>.db.gz   # one of them (npm run restore -- --list shows them)
 *   npm run restore -- backups/shop-<time>.db   # a file on this machine (npm run backup's)
 *   npm run restore -- --payments-after shop-<time>.db.gz   # the payments step alone (it failed, or was skipped)
 *   options: --force (a shop answers on PORT, or the bucket lacks files), --no-payments
 *   exit 0 restored; 1 not restored; 2 usage; 3 restored, but payments after it were left (listed), unreadable
 *   or not checkable (the test provider keeps its payments in the database itself)
 *
 * The shop keeps its snapshots in the bucket under backups/ (STORAGE_URL), else in BACKUP_DIR
 * (app/server/backups). Stop the server first: a running server keeps the old file open and
 * would go on writing to it; this refuses when a shop answers on PORT (unless --force). The
 * snapshot is checked (integrity_check), copied beside DATABASE_PATH and renamed over it; the
 * previous file is kept as <DATABASE_PATH>.before-restore-<time>.
 * With STORAGE_URL, every file the snapshot's database names must be in the bucket (with the size
 * `npm run backup`'s manifest lists, when it has one), or the restore is refused (--force restores
 * anyway and lists what is missing).
 * Then, with Stripe, the payments that succeeded after the snapshot are asked for: each one's order
 * is made again from what its payment carries, through the one path every payment takes (no
 * doubles); what could not be made is listed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { formatBytes, formatDateTime } from "../app/lib/rules/format";
import { snapshotTime } from "../app/server/backups/snapshot-retention.server";
import { env } from "../app/server/core/env.server";
import { snapshotPlace } from "../app/server/backups/snapshot-places.server";
import { fetchSnapshot, type FetchedSnapshot } from "../app/server/backups/snapshot-source.server";
import {
  litestreamBinary,
  litestreamConfig,
  writeLitestreamConfig,
} from "../app/server/backups/litestream.server";
import { restoreDatabase, serverAnswers } from "./backup-lib";
import { checkBucketForBackup, type BucketManifest } from "./bucket-manifest";

const args = process.argv.slice(2);
const force = args.includes("--force");
const atIndex = args.indexOf("--at");
const at = atIndex >= 0 ? new Date(args[atIndex + 1] ?? "") : null;
const wanted = args.includes("--latest")
  ? "latest"
  : args.find((arg, index) => !arg.startsWith("--") && (atIndex < 0 || index !== atIndex + 1));
const config = env();
const place = snapshotPlace(config);

if (args.includes("--list")) {
  const kept = await place.list();
  console.log(`${place.where} のスナップショット（${kept.length} 件、古い順）:`);
  for (const snapshot of kept)
    console.log(`  ${snapshot.name}  ${formatDateTime(snapshot.takenAt)}  ${formatBytes(snapshot.bytes)}`);
  process.exit(0);
}
// The payments step alone, for a restore whose step failed (Stripe unreachable) or was skipped:
// the snapshot's name or time says from when.
const paymentsAfter = args.indexOf("--payments-after");
if (paymentsAfter >= 0) {
  const given = args[paymentsAfter + 1] ?? "";
  const since = snapshotTime(given) ?? new Date(given);
  if (Number.isNaN(since.getTime())) {
    console.error("使い方: npm run restore -- --payments-after <スナップショット名 | 2026-11-27T05:15:00Z>");
    process.exit(2);
  }
  await recoverPayments(since);
  process.exit();
}
if (at && Number.isNaN(at.getTime())) {
  console.error("使い方: npm run restore -- --replica --at <2026-11-29T05:15:00Z>");
  process.exit(2);
}
const fromReplica = args.includes("--replica");
if (!wanted && !fromReplica) {
  console.error(
    "使い方: npm run restore -- --replica [--at <時刻>] | --latest | <スナップショット名> | <ファイル.db> [--force] [--no-payments]（一覧: --list）",
  );
  process.exit(2);
}
if (await serverAnswers(config.PORT)) {
  if (!force) {
    console.error(
      `ポート ${config.PORT} でサーバーが動いています。停止してから復元してください（止められない場合は --force）。`,
    );
    process.exit(1);
  }
  console.warn(`警告: ポート ${config.PORT} でサーバーが動いています。復元後すぐに再起動してください。`);
} else if (
  fs.existsSync(`${config.DATABASE_PATH}-wal`) &&
  fs.statSync(`${config.DATABASE_PATH}-wal`).size > 0
) {
  console.warn(
    "警告: 書き込み途中のログ (-wal) があります。サーバーが別のポートで動いていないか確認してください。",
  );
}

let snapshot: FetchedSnapshot;
try {
  snapshot = fromReplica ? fromLitestream(at) : await fetchSnapshot(wanted!, place);
} catch (error) {
  console.error(`復元に失敗しました: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

if (config.S3) await checkBucket(snapshot);

// Said before the file is replaced: nothing after the replacement may turn it into a "failure".
const minutes = Math.round((Date.now() - snapshot.takenAt.getTime()) / 60_000);
const from = `  元: ${snapshot.source}（${formatDateTime(snapshot.takenAt)} ${fromReplica ? "の時点" : "のスナップショット"}、${minutes >= 120 ? `${Math.floor(minutes / 60)} 時間` : `${minutes} 分`}前）`;
let result: ReturnType<typeof restoreDatabase>;
try {
  result = restoreDatabase({ backupFile: snapshot.databaseFile, databasePath: config.DATABASE_PATH });
} catch (error) {
  console.error(`復元に失敗しました: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
} finally {
  snapshot.discard();
}
console.log(`復元しました: ${result.restored} (integrity_check: ok)`);
console.log(from);
console.log(
  `  件数: ${Object.entries(result.counts)
    .map(([table, n]) => `${table} ${n}`)
    .join(", ")}`,
);
if (result.previous) console.log(`以前のファイル: ${result.previous}`);

if (args.includes("--no-payments")) {
  console.log(
    `スナップショット以降の決済は確認していません（--no-payments）。サーバーの起動時には直近 7 日分しか確認しません。あとで確認するには: npm run restore -- --payments-after ${snapshot.takenAt.toISOString()}`,
  );
} else {
  await recoverPayments(snapshot.takenAt);
}

/**
 * The replica restored by Litestream into a file beside the database (not over it: restoreDatabase
 * checks it and keeps the previous file), to its last write or as it was at `at`.
 */
function fromLitestream(at: Date | null): FetchedSnapshot {
  const text = litestreamConfig(config);
  const binary = litestreamBinary();
  if (!text)
    throw new Error("常時複製の保存先がありません（BACKUP_URL または STORAGE_URL を設定してください）");
  if (!binary)
    throw new Error("Litestream が見つかりません（npm パッケージ @flydotio/litestream-linux-x64）");
  const configFile = writeLitestreamConfig(text);
  const output = `${config.DATABASE_PATH}.from-replica-${process.pid}`;
  const restoredTo = at ?? new Date();
  const command = [
    "restore",
    "-config",
    configFile,
    "-no-expand-env",
    "-o",
    output,
    ...(at ? ["-timestamp", at.toISOString()] : []),
    path.resolve(config.DATABASE_PATH),
  ];
  const run = spawnSync(binary, command, { encoding: "utf8" });
  fs.rmSync(path.dirname(configFile), { recursive: true, force: true });
  if (run.status !== 0) {
    const said = `${run.stdout}\n${run.stderr}`.trim().split("\n").slice(-3).join(" / ");
    throw new Error(`Litestream が復元できませんでした: ${run.error?.message ?? said}`);
  }
  return {
    source: `常時複製（${litestreamReplicaWhere()}）`,
    databaseFile: output,
    takenAt: restoredTo,
    manifest: null,
    discard: () => fs.rmSync(output, { force: true }),
  };
}

function litestreamReplicaWhere(): string {
  const bucket = config.BACKUP_S3!;
  return `s3://${bucket.bucket}/${bucket.prefix}litestream`;
}

/**
 * The orders paid after the snapshot, made again from what their payments carry (the same path
 * every payment takes: nothing twice), and a list of what could not be made.
 */
async function recoverPayments(since: Date): Promise<void> {
  if (config.PAYMENT_PROVIDER !== "stripe") {
    // The test provider keeps its payments in the shop's own database: they went with it, and
    // what it holds now is the restored file's own past, never "nothing missing".
    console.log(
      "テストモードの決済はデータベースの中にあるため、復元した時点より後の決済は確認できません（確認していません）。",
    );
    process.exitCode = 3;
    return;
  }
  const { recoverPaymentsAfter, describePaymentsAfterSnapshot } =
    await import("../app/server/checkout/payments-after-snapshot.server");
  const { db } = await import("../app/server/db/client.server");
  try {
    // Mails the snapshot holds as being sent belong to a process that is gone: not waited for.
    const lastMail = db().$client.prepare("select coalesce(max(id), 0) as id from mail_outbox").get() as {
      id: number;
    };
    const report = await recoverPaymentsAfter(since);
    for (const line of describePaymentsAfterSnapshot(report)) console.log(line);
    if (report.unrecovered.length > 0) process.exitCode = 3;
    if (report.recreated.length > 0) {
      // The new orders' confirmations are being sent (recordPayment's own path): let the ones in
      // flight finish; any SMTP could not take wait in the outbox for the server.
      const sending = db().$client.prepare(
        "select count(*) as n from mail_outbox where status = 'sending' and id > ?",
      );
      for (let i = 0; i < 300 && (sending.get(lastMail.id) as { n: number }).n > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      console.log(
        "  作り直した注文のお客様には、新しい注文番号と注文状況のリンクで確認メールを送りました（送れなかったものはサーバーの起動後に送ります）。",
      );
    }
  } catch (error) {
    console.error(
      `スナップショット以降の決済を確認できませんでした: ${error instanceof Error ? error.message : String(error)}。サーバーの起動時には直近 7 日分しか確認しません。もう一度: npm run restore -- --payments-after ${since.toISOString()}`,
    );
    process.exitCode = 3;
  } finally {
    db().$client.close();
  }
}

/**
 * Every file the snapshot's database names must be in the bucket; `npm run backup`'s manifest
 * (when the file given has one beside it) also gives their sizes.
 */
async function checkBucket(snapshot: FetchedSnapshot): Promise<void> {
  const { S3Store } = await import("../app/server/files/s3-store.server");
  const manifestFile = snapshot.source.replace(/\.db$/, ".manifest.json");
  const manifest =
    snapshot.source !== manifestFile && fs.existsSync(manifestFile)
      ? ((JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { bucket?: BucketManifest }).bucket ?? null)
      : null;
  const check = await checkBucketForBackup(
    snapshot.databaseFile,
    manifest,
    new S3Store(config.S3!, config.MEDIA_DIR),
  );
  const problems = [
    ...check.missing.map((name) => `  バケットにありません: ${name}`),
    ...check.wrongSize.map(
      ({ name, expected, actual }) =>
        `  サイズが違います: ${name}（目録 ${expected} バイト、バケット ${actual} バイト）`,
    ),
  ];
  const sizes = manifest ? "目録のサイズで" : "（サイズの目録はなく、有無だけを確認しました）";
  if (problems.length === 0) {
    console.log(
      `バケットを確認しました: データベースが参照する ${check.checked} ファイルがすべて${sizes}そろっています`,
    );
  } else if (!force) {
    console.error(
      `バケットに、このスナップショットのデータベースが参照するファイルがそろっていません（${problems.length} 件）。復元を中止しました（--force で続行）:\n${problems.join("\n")}`,
    );
    snapshot.discard();
    process.exit(1);
  } else {
    console.warn(
      `警告: バケットにそろっていないファイルがあります（${problems.length} 件）:\n${problems.join("\n")}`,
    );
  }
}
