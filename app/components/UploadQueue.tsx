import { ProgressBar } from "./ProgressBar";
import { percentOf, type QueuedFile } from "~/lib/hooks/use-upload-queue";

/** Each file of an upload with its state and progress; with `overall`, a bar for the whole batch above them. */
export function UploadQueue({ queue, overall = false }: { queue: QueuedFile[]; overall?: boolean }) {
  if (queue.length === 0) return null;
  const total = queue.reduce((sum, entry) => sum + entry.file.size, 0);
  const loaded = queue.reduce((sum, entry) => sum + entry.loaded, 0);
  const done = queue.filter((entry) => entry.state === "完了").length;
  const failed = queue.filter((entry) => entry.state === "失敗").length;
  return (
    <div className="mt-5">
      {overall ? (
        <>
          <p className="text-sm font-semibold">
            全体 {done}/{queue.length} 件・{percentOf(loaded, total)}%{failed ? `（失敗 ${failed} 件）` : ""}
          </p>
          <ProgressBar label="全体の進捗" percent={percentOf(loaded, total)} />
        </>
      ) : null}
      <ul aria-label="アップロード状況" className="mt-4 max-h-96 space-y-3 overflow-y-auto first:mt-0">
        {queue.map((entry) => (
          <li key={entry.key} className="rounded-xl border border-zinc-200 p-3">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
              <span className="min-w-0 flex-1 truncate font-semibold">{entry.file.name}</span>
              <span
                className={`shrink-0 ${entry.state === "失敗" ? "text-red-700" : entry.state === "完了" ? "text-emerald-700" : "text-zinc-600"}`}
              >
                {entry.state === "失敗"
                  ? entry.state
                  : `${entry.state}・${percentOf(entry.loaded, entry.file.size)}%`}
              </span>
            </div>
            {entry.state === "失敗" ? null : (
              <ProgressBar
                label={`${entry.file.name} の進捗`}
                percent={percentOf(entry.loaded, entry.file.size)}
              />
            )}
            {entry.error ? <p className="field-error">{entry.error}</p> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
