import { Link } from "@remix-run/react";
import { formatDateTime } from "~/lib/rules/format";
import { formatBytes } from "~/lib/schemas/media-schemas";
import type { BackupOverview } from "~/server/backups/backup-overview.server";

const STATE: Record<BackupOverview["state"], [string, string]> = {
  ok: ["正常", "bg-emerald-100 text-emerald-900"],
  none: ["まだありません", "bg-zinc-200 text-zinc-700"],
  late: ["遅れています", "bg-amber-100 text-amber-900"],
  failing: ["失敗しています", "bg-red-100 text-red-900"],
  off: ["無効", "bg-zinc-200 text-zinc-700"],
};

/** Minutes or hours ago, for "the last snapshot was …" (the page's load time is `now`). */
function ago(at: string, now: string): string {
  const minutes = Math.max(0, Math.round((Date.parse(now) - Date.parse(at)) / 60_000));
  return minutes < 60 ? `${minutes} 分前` : `${Math.floor(minutes / 60)} 時間 ${minutes % 60} 分前`;
}

/** A snapshot interval as people say it: 1 日, 6 時間, 15 分. */
function everyInterval(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440} 日`;
  return minutes % 60 === 0 ? `${minutes / 60} 時間` : `${minutes} 分`;
}

/** Seconds, minutes or hours, for a lag. */
function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} 秒`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} 分` : `${Math.floor(minutes / 60)} 時間 ${minutes % 60} 分`;
}

/** Where the database is copied to all the time (Litestream), and where the videos are, in plain words. */
function CopiesPanel({ backups }: { backups: BackupOverview }) {
  const { replica, videos } = backups;
  const late = replica?.late ?? false;
  return (
    <section aria-labelledby="copies-heading" className="mt-6 border-t border-zinc-200 pt-5">
      <h2 id="copies-heading" className="font-semibold">
        データとコピーの場所
      </h2>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-zinc-500">データベースの常時複製</dt>
        <dd className="break-all">
          {replica ? (
            <>
              書き込みは Litestream が 1 秒ごとに {replica.where} に複製しています。
              <span className={`mt-1 block ${late ? "font-semibold text-red-800" : "text-zinc-600"}`}>
                {!replica.reachable
                  ? "Litestream の状態を読み取れません（止まっている可能性があります）。"
                  : replica.lagSeconds < 10
                    ? "最新の書き込みまで複製済みです。"
                    : `最新の書き込みの複製が ${duration(replica.lagSeconds)} 遅れています。`}
                {replica.lastSyncAt ? `最後の複製: ${formatDateTime(new Date(replica.lastSyncAt))}` : null}
                {replica.syncErrors > 0 ? `（複製の失敗 ${replica.syncErrors} 回）` : null}
              </span>
            </>
          ) : (
            <span className="text-amber-800">
              常時複製はされていません。ボリュームを失うと、最後のスナップショットより後の書き込みは失われます（BACKUP_URL
              または STORAGE_URL を設定し、npm start で起動すると Litestream が常時複製します）。
            </span>
          )}
        </dd>
        <dt className="text-zinc-500">動画</dt>
        <dd className="break-all">
          {videos.inBucket ? (
            `バケット（${videos.where}）に保存されています。このサーバーを失っても残ります。`
          ) : (
            <span className="text-amber-800">
              このサーバーのディスク（{videos.where}
              ）にだけあり、どこにもコピーされていません。ボリュームを失うと動画も失われます（STORAGE_URL
              を設定するとバケットに保存します）。
            </span>
          )}
        </dd>
      </dl>
    </section>
  );
}

/** システム状態's backups: the copies, and whether the shop's own snapshots are being taken, where, and why not. */
export function BackupPanel({ backups, now }: { backups: BackupOverview; now: string }) {
  const [label, tone] = STATE[backups.state];
  return (
    <>
      <CopiesPanel backups={backups} />
      <section aria-labelledby="backups-heading" className="mt-6 border-t border-zinc-200 pt-5">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="backups-heading" className="font-semibold">
            データベースのバックアップ
          </h2>
          <span className={`rounded-full px-3 py-1 text-sm font-semibold ${tone}`}>{label}</span>
        </div>
        <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-zinc-500">間隔</dt>
          <dd>
            {backups.intervalMinutes === 0
              ? "自動スナップショットは無効です（BACKUP_INTERVAL_MINUTES=0）"
              : `${everyInterval(backups.intervalMinutes)}ごと`}
          </dd>
          <dt className="text-zinc-500">保存先</dt>
          <dd className="break-all">
            {backups.where}
            {backups.offMachine ? null : (
              <span className="mt-1 block text-amber-800">
                このマシンのディスク上です。ボリュームを失うと一緒に失われます（STORAGE_URL
                を設定するとバケットに保存します）。
              </span>
            )}
          </dd>
          <dt className="text-zinc-500">最後の成功</dt>
          <dd>
            {backups.lastGood ? (
              <>
                {formatDateTime(new Date(backups.lastGood.at))}（{ago(backups.lastGood.at, now)}）
                {backups.lastGood.bytes === null ? null : `・${formatBytes(backups.lastGood.bytes)}`}
                {backups.lastGood.name ? (
                  <span className="block break-all text-zinc-500">{backups.lastGood.name}</span>
                ) : null}
              </>
            ) : (
              "まだありません（起動の 1 分後に最初のスナップショットを取ります）"
            )}
          </dd>
        </dl>
        {backups.failures > 0 ? (
          <div
            role="alert"
            className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900"
          >
            <p className="font-semibold">
              最後の成功のあと、スナップショットが {backups.failures} 回失敗しています。
            </p>
            <ul className="mt-2 space-y-1">
              {backups.recentFailures.map((failure) => (
                <li key={`${failure.at}-${failure.attempt}`} className="break-all">
                  {formatDateTime(new Date(failure.at))}（{failure.attempt} 回目）: {failure.error}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <p className="mt-3 text-sm text-zinc-600">
          復元の手順は README の「Backups」にあります（常時複製から <code>npm run restore -- --replica</code>
          、スナップショットから <code>npm run restore -- --latest</code>）。
        </p>
      </section>
    </>
  );
}

/** 概要's line when backups need a look (failing or late, or the replica behind), linking to システム状態. */
export function BackupWarning({ backups, to }: { backups: BackupOverview; to: string }) {
  const replicaLate = backups.replica?.late ?? false;
  if (backups.state !== "failing" && backups.state !== "late" && !replicaLate) return null;
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
      {replicaLate
        ? "データベースの常時複製（Litestream）が遅れているか、止まっています。"
        : backups.state === "failing"
          ? `データベースのバックアップが失敗しています（${backups.failures} 回）。`
          : "データベースのバックアップが予定どおりに取れていません。"}
      <Link to={to} className="ml-1 font-semibold underline">
        システム状態を見る
      </Link>
    </p>
  );
}
