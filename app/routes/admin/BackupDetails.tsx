import { formatBytes, formatDateTime } from "~/lib/rules/format";
import type { BackupOverview } from "~/server/backups/backup-overview.server";

/** Seconds, minutes or hours, for a lag. */
function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} 秒`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} 分` : `${Math.floor(minutes / 60)} 時間 ${minutes % 60} 分`;
}

/**
 * The backups as whoever runs the server needs them: places, settings, the snapshots' failures
 * with their errors, and how to restore. Folded away (a <details>, so it opens without JS): the
 * shop owner's panel above says what they mean.
 */
export function BackupDetails({ backups }: { backups: BackupOverview }) {
  const { replica, lastGood, videos } = backups;
  return (
    <details className="mt-4 rounded-lg border border-zinc-200 text-sm">
      <summary className="cursor-pointer px-3 py-2 font-semibold text-zinc-800">
        詳細（サーバーの管理者向け）
      </summary>
      <dl className="grid gap-x-6 gap-y-2 border-t border-zinc-200 px-3 py-3 break-all sm:grid-cols-[auto_1fr]">
        <dt className="text-zinc-600">スナップショット</dt>
        <dd>
          {backups.intervalMinutes === 0
            ? "無効（BACKUP_INTERVAL_MINUTES=0）"
            : `BACKUP_INTERVAL_MINUTES=${backups.intervalMinutes} → ${backups.where}`}
          {backups.offMachine ? null : (
            <span className="block text-zinc-700">
              このマシンのディスク上です。BACKUP_URL または STORAGE_URL を設定するとバケットに保存します。
            </span>
          )}
        </dd>
        <dt className="text-zinc-600">最後のスナップショット</dt>
        <dd>
          {lastGood
            ? `${lastGood.name ?? "（名前なし）"}${lastGood.bytes === null ? "" : `・${formatBytes(lastGood.bytes)}`}`
            : "なし"}
        </dd>
        <dt className="text-zinc-600">常時複製（Litestream）</dt>
        <dd>
          {replica ? (
            <>
              {replica.where}:{" "}
              {!replica.reachable
                ? "状態を読み取れません（止まっている可能性があります）"
                : replica.lagSeconds < 10
                  ? "最新の書き込みまで複製済み"
                  : `${duration(replica.lagSeconds)} 遅れ`}
              {replica.syncErrors > 0 ? `（複製の失敗 ${replica.syncErrors} 回）` : null}
            </>
          ) : (
            "なし（BACKUP_URL または STORAGE_URL を設定し、npm start で起動すると Litestream が常時複製します）"
          )}
        </dd>
        <dt className="text-zinc-600">動画・画像の保存先</dt>
        <dd>
          {videos.where}
          {videos.inBucket ? null : "（STORAGE_URL を設定するとバケットに保存します）"}
        </dd>
        <dt className="text-zinc-600">復元</dt>
        <dd>
          README の「Backups」: 常時複製から <code>npm run restore -- --replica</code>
          、スナップショットから <code>npm run restore -- --latest</code>
        </dd>
      </dl>
      {backups.recentFailures.length > 0 ? (
        <div className="border-t border-zinc-200 px-3 py-3">
          <p className="font-semibold text-red-900">最後の成功のあとの失敗（{backups.failures} 回）</p>
          <ul className="mt-1 space-y-1 break-all">
            {backups.recentFailures.map((failure) => (
              <li key={`${failure.at}-${failure.attempt}`}>
                {formatDateTime(new Date(failure.at))}（{failure.attempt} 回目）: {failure.error}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </details>
  );
}
