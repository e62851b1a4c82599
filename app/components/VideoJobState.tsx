import { Form, useLocation } from "@remix-run/react";
import type { JobStatus } from "~/lib/rules/video-job-states";
import type { VideoRowState } from "~/server/media/video-states.server";

const BADGES: Record<JobStatus, string> = {
  waiting: "bg-zinc-100 text-zinc-700",
  running: "bg-sky-100 text-sky-800",
  done: "bg-emerald-100 text-emerald-800",
  failed: "bg-red-100 text-red-800",
};

/**
 * A video's facts and its background work on a back-office row: 「1080p・4:05・横」, the state
 * (待機中 / 処理中 n%・its step / 完了… / 失敗, only ever moving forward) and, after a failure,
 * its reason and 再実行 (a plain form posting `intent=retry` with the row's id, so it works
 * without JavaScript).
 */
export function VideoJobState({
  video,
  name,
  retry,
}: {
  video: VideoRowState;
  /** The file's name, for the 再実行 button's accessible name. */
  name: string;
  /** The form field naming the row and its value: fileId on 納品ファイル, mediaId on コンテンツ管理. */
  retry: { field: "fileId" | "mediaId"; id: number };
}) {
  const { label, state } = video;
  if (!label && !state) return null;
  return (
    <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs" data-job-state={state?.status}>
      {label ? <span className="text-zinc-700">{label}</span> : null}
      {state ? (
        // Not a live region: the tab refreshes itself every few seconds, and a reader would hear every percent of every row.
        <span
          data-job-badge
          className={`rounded px-1.5 py-0.5 font-semibold break-words ${BADGES[state.status]}`}
        >
          {state.words}
        </span>
      ) : null}
      {state?.reason ? (
        <span
          className={`basis-full break-words ${state.status === "failed" ? "text-red-700" : "text-zinc-600"}`}
        >
          {state.reason}
        </span>
      ) : null}
      {state?.status === "failed" ? (
        <Form method="post">
          <input type="hidden" name="intent" value="retry" />
          <input type="hidden" name={retry.field} value={retry.id} />
          <button
            type="submit"
            className="btn-secondary min-h-9 py-1 text-sm"
            aria-label={`${name} の処理を再実行`}
          >
            再実行
          </button>
        </Form>
      ) : null}
    </div>
  );
}

/**
 * Said while a video is still being processed: with JavaScript the page refreshes itself
 * (useRefreshWhileProcessing); without, a link reloads it to show the latest state.
 */
export function ProcessingHint({
  processing,
  hydrated,
  className = "",
}: {
  processing: boolean;
  hydrated: boolean;
  className?: string;
}) {
  const location = useLocation();
  if (!processing) return null;
  return (
    <p className={`rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900 ${className}`} role="note">
      {hydrated ? (
        "処理中のファイルがあります。状態は自動で更新されます。"
      ) : (
        <>
          処理中のファイルがあります。再読み込みすると最新の状態を表示します。{" "}
          <a href={`${location.pathname}${location.search}`} className="underline">
            再読み込み
          </a>
        </>
      )}
    </p>
  );
}
