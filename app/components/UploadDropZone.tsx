import type { ReactNode } from "react";
import { FieldError, FieldLabel } from "./forms";
import type { useUploadQueue } from "~/lib/hooks/use-upload-queue";

type Queue = ReturnType<typeof useUploadQueue>;

/**
 * The file picker of a tab that uploads through the queue (useUploadQueue): a zone that takes
 * dropped files (with JavaScript), the labelled input, and the error under it, linked to it by
 * `<inputId>-error`. Without JavaScript the input is a plain form field of the form around it.
 */
export function UploadDropZone({
  queue,
  hydrated,
  dropHint,
  label,
  inputId,
  name,
  accept,
  multiple,
  error,
}: {
  queue: Pick<Queue, "inputRef" | "uploading" | "dragging" | "dropZone" | "choose">;
  hydrated: boolean;
  /** What the zone says it takes when files can be dropped on it. */
  dropHint: ReactNode;
  label: ReactNode;
  inputId: string;
  name: string;
  accept: string;
  multiple: boolean;
  error: string | null;
}) {
  const { inputRef, uploading, dragging, dropZone, choose } = queue;
  const errorId = `${inputId}-error`;
  return (
    <div
      {...dropZone}
      data-testid="drop-zone"
      className={`rounded-xl border-2 border-dashed p-4 text-center transition-colors sm:p-6 ${dragging ? "border-brand-600 bg-brand-50" : "border-zinc-300 bg-zinc-50"} ${uploading ? "opacity-60" : ""}`}
    >
      {hydrated ? <p className="mb-3 text-sm text-zinc-700">{dropHint}</p> : null}
      <FieldLabel htmlFor={inputId}>{label}</FieldLabel>
      <input
        ref={inputRef}
        id={inputId}
        name={name}
        type="file"
        accept={accept}
        multiple={multiple}
        disabled={uploading}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => choose(event.currentTarget.files)}
        className="mx-auto block w-full max-w-md text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-zinc-800 file:px-4 file:py-2 file:text-sm file:font-semibold file:text-white disabled:cursor-not-allowed"
      />
      <FieldError id={errorId} errors={error ? [error] : null} announce />
    </div>
  );
}

/** Said while the queue sends files: leaving the page stops the upload, which resumes later. */
export function UploadingNotice({ uploading }: { uploading: boolean }) {
  if (!uploading) return null;
  return (
    <p role="status" className="mt-3 text-sm text-zinc-600">
      アップロード中です。完了するまでこのページを閉じないでください（中断しても、同じファイルを選び直すと続きから再開できます）。
    </p>
  );
}
