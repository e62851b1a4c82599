import { useEffect, useRef } from "react";
import { FormError } from "./form-messages";
import { ProgressBar } from "./ProgressBar";
import { percentOf, type QueuedFile } from "~/lib/hooks/use-upload-queue";
import { UPLOAD_MESSAGES } from "~/lib/schemas/media-schemas";

/**
 * Each file of an upload with its state and progress; with `overall`, a bar for the whole batch
 * above them. Once the batch is over, the files not taken are counted and named above the list,
 * and the list (a box of its own that scrolls, so a keyboard can reach it) shows the first of
 * them: in a long batch a failed row is otherwise below the box's fold.
 */
export function UploadQueue({ queue, overall = false }: { queue: QueuedFile[]; overall?: boolean }) {
  const listRef = useRef<HTMLUListElement>(null);
  const failed = queue.filter((entry) => entry.state === "失敗");
  const settled = queue.every((entry) => entry.state === "完了" || entry.state === "失敗");
  const firstFailed = settled ? failed[0]?.key : undefined;

  useEffect(() => {
    const list = listRef.current;
    const row = firstFailed ? list?.querySelector(`[data-upload-key="${CSS.escape(firstFailed)}"]`) : null;
    if (!list || !row) return;
    // Scrolls the box alone (scrollIntoView would move the page away from the summary too), the
    // row at its top edge inside the box's padding.
    const padding = parseFloat(getComputedStyle(list).paddingTop) || 0;
    list.scrollTop += row.getBoundingClientRect().top - list.getBoundingClientRect().top - padding;
  }, [firstFailed]);

  if (queue.length === 0) return null;
  const total = queue.reduce((sum, entry) => sum + entry.file.size, 0);
  const loaded = queue.reduce((sum, entry) => sum + entry.loaded, 0);
  const done = queue.filter((entry) => entry.state === "完了").length;
  return (
    <div className="mt-5 space-y-4">
      {overall ? (
        <div>
          <p className="text-sm font-semibold">
            全体 {done}/{queue.length} 件・{percentOf(loaded, total)}%
            {failed.length ? `（失敗 ${failed.length} 件）` : ""}
          </p>
          <ProgressBar label="全体の進捗" percent={percentOf(loaded, total)} />
        </div>
      ) : null}
      {settled && failed.length > 0 ? (
        <FormError
          errors={[UPLOAD_MESSAGES.filesRefused(failed.length)]}
          detail={`${failed.map((entry) => entry.file.name).join("、")}（理由は一覧の各ファイルに表示しています）`}
        />
      ) : null}
      <ul
        ref={listRef}
        aria-label="アップロード状況"
        // The box scrolls by itself: focusable, so a keyboard can scroll it (axe: scrollable-region-focusable).
        tabIndex={0}
        // Framed, so a row cut at its edge reads as more to scroll to.
        className="max-h-96 space-y-2 overflow-y-auto rounded-xl border border-zinc-200 bg-zinc-50 p-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        {queue.map((entry) => (
          <li
            key={entry.key}
            data-upload-key={entry.key}
            className={`rounded-lg border p-3 ${entry.state === "失敗" ? "border-red-300 bg-red-50" : "border-zinc-200 bg-white"}`}
          >
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
            {entry.error ? <p className="field-error break-words">{entry.error}</p> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
