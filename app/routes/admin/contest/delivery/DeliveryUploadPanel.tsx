import { Form } from "@remix-run/react";
import { FieldLabel } from "~/components/forms";
import { UploadQueue } from "~/components/UploadQueue";
import { formatBytes } from "~/lib/rules/format";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useUploadQueue } from "~/lib/hooks/use-upload-queue";
import { VIDEO_ACCEPT, videoTypeOf } from "~/lib/rules/video-files";

const NOT_VIDEO = "動画ファイル（MP4・MOV・WebM）を選択してください";

/**
 * The 納品ファイル upload: many edited videos at once. With JavaScript each goes through the
 * chunked, resumable upload (one after another, per-file and overall progress); without it the
 * same form posts the files as plain multipart.
 */
export function DeliveryUploadPanel({
  contestId,
  maxUploadBytes,
  serverError,
}: {
  contestId: number;
  maxUploadBytes: number;
  serverError: string | null;
}) {
  const hydrated = useHydrated();
  const { inputRef, queue, uploading, fieldError, dragging, choose, start, dropZone } = useUploadQueue({
    contestId,
    purpose: "delivery",
    maxUploadBytes,
    // By the name when the system reports no type (a .MOV in Chromium), as the server takes it by its bytes.
    accepts: (file) => videoTypeOf(file) !== null,
    notAccepted: NOT_VIDEO,
    noFile: "納品する動画ファイルを選択してください",
  });
  const error = fieldError ?? serverError;
  // The plain form on its way (without JavaScript the browser posts it; with it, start() sends the files).
  const submitting = useIsPending({ state: "submitting", formAction: "?intent=upload" });

  return (
    <section aria-labelledby="delivery-upload-title" className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="delivery-upload-title" className="text-lg font-bold">
        納品ファイルのアップロード
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        動画（MP4・MOV・WebM）を何件でもまとめて選べます。1 ファイル {formatBytes(maxUploadBytes)} まで。
      </p>
      <Form
        method="post"
        action="?intent=upload"
        encType="multipart/form-data"
        onSubmit={
          hydrated
            ? (event) => {
                void start(event);
              }
            : undefined
        }
        className="mt-4 space-y-4"
        noValidate
      >
        <div
          {...dropZone}
          className={`rounded-xl border-2 border-dashed p-4 text-center transition-colors sm:p-6 ${dragging ? "border-brand-600 bg-brand-50" : "border-zinc-300 bg-zinc-50"} ${uploading ? "opacity-60" : ""}`}
        >
          {hydrated ? (
            <p className="mb-3 text-sm text-zinc-700">ここに動画ファイルをまとめてドロップ、または</p>
          ) : null}
          <FieldLabel htmlFor="delivery-files">納品する動画ファイル（複数選択できます）</FieldLabel>
          <input
            ref={inputRef}
            id="delivery-files"
            name="files"
            type="file"
            accept={VIDEO_ACCEPT}
            multiple
            disabled={uploading}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "delivery-files-error" : undefined}
            onChange={(event) => choose(event.currentTarget.files)}
            className="mx-auto block w-full max-w-md text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-zinc-800 file:px-4 file:py-2 file:text-sm file:font-semibold file:text-white disabled:cursor-not-allowed"
          />
          {error ? (
            <p id="delivery-files-error" role="alert" className="field-error">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn-primary" disabled={uploading || submitting}>
          {uploading || submitting ? "アップロード中..." : "アップロード"}
        </button>
      </Form>
      <UploadQueue queue={queue} overall />
      {uploading ? (
        <p role="status" className="mt-3 text-sm text-zinc-600">
          アップロード中です。完了するまでこのページを閉じないでください（中断しても、同じファイルを選び直すと続きから再開できます）。
        </p>
      ) : null}
    </section>
  );
}
