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

/** システム状態's backups: whether the shop's own snapshots are being taken, where, and why not. */
export function BackupPanel({ backups, now }: { backups: BackupOverview; now: string }) {
  const [label, tone] = STATE[backups.state];
  return (
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
            : `${backups.intervalMinutes} 分ごと`}
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
        復元の手順は README の「Backups」にあります（<code>npm run restore -- --latest</code>）。
      </p>
    </section>
  );
}

/** 概要's line when backups need a look (failing or late), linking to システム状態. */
export function BackupWarning({ backups, to }: { backups: BackupOverview; to: string }) {
  if (backups.state !== "failing" && backups.state !== "late") return null;
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
      {backups.state === "failing"
        ? `データベースのバックアップが失敗しています（${backups.failures} 回）。`
        : "データベースのバックアップが予定どおりに取れていません。"}
      <Link to={to} className="ml-1 font-semibold underline">
        システム状態を見る
      </Link>
    </p>
  );
}
