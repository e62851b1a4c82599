import { Form, useNavigation, useRevalidator } from "@remix-run/react";
import { useRef, useState, type DragEvent, type FormEvent } from "react";
import { ProgressBar } from "~/components/ProgressBar";
import { uploadInChunks, UploadFailed } from "~/lib/chunked-upload";
import { formatBytes, UPLOAD_MESSAGES } from "~/lib/media-schemas";
import { useHydrated } from "~/lib/use-hydrated";

type QueuedFile = {
  key: string;
  file: File;
  loaded: number;
  state: "待機中" | "アップロード中" | "完了" | "失敗";
  error?: string;
};

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
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const inputRef = useRef<HTMLInputElement>(null);
  const [queue, setQueue] = useState<QueuedFile[]>([]);
  const [uploading, setUploading] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const error = fieldError ?? serverError;
  const submitting = navigation.state === "submitting" && navigation.formAction?.includes("intent=upload");

  const choose = (files: FileList | null) => {
    setFieldError(null);
    const picked = Array.from(files ?? []);
    const refused = picked.filter((file) => !file.type.startsWith("video/"));
    if (refused.length > 0) setFieldError(`${NOT_VIDEO}（${refused.map((file) => file.name).join("、")}）`);
    setQueue(
      picked
        .filter((file) => file.type.startsWith("video/"))
        .map((file, index) => ({ key: `${index}-${file.name}`, file, loaded: 0, state: "待機中" })),
    );
  };

  const update = (key: string, change: Partial<QueuedFile>) =>
    setQueue((current) => current.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));

  const start = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (uploading) return;
    const waiting = queue.filter((entry) => entry.state !== "完了");
    if (waiting.length === 0) {
      setFieldError("納品する動画ファイルを選択してください");
      return;
    }
    const tooBig = waiting.find((entry) => entry.file.size > maxUploadBytes);
    if (tooBig) {
      setFieldError(`ファイルが大きすぎます（上限 ${formatBytes(maxUploadBytes)}）: ${tooBig.file.name}`);
      return;
    }
    setUploading(true);
    for (const entry of waiting) {
      update(entry.key, { state: "アップロード中", error: undefined });
      try {
        await uploadInChunks({
          contestId,
          file: entry.file,
          purpose: "delivery",
          onProgress: (loaded) => update(entry.key, { loaded }),
        });
        update(entry.key, { state: "完了", loaded: entry.file.size });
      } catch (caught) {
        update(entry.key, {
          state: "失敗",
          error: caught instanceof UploadFailed ? caught.message : UPLOAD_MESSAGES.general,
        });
      }
    }
    setUploading(false);
    if (inputRef.current) inputRef.current.value = "";
    revalidator.revalidate();
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (uploading) return;
    if (inputRef.current) inputRef.current.files = event.dataTransfer.files;
    choose(event.dataTransfer.files);
  };

  const total = queue.reduce((sum, entry) => sum + entry.file.size, 0);
  const loaded = queue.reduce((sum, entry) => sum + entry.loaded, 0);
  const done = queue.filter((entry) => entry.state === "完了").length;
  const failed = queue.filter((entry) => entry.state === "失敗").length;
  const percent = (part: number, whole: number) => (whole > 0 ? Math.floor((part / whole) * 100) : 0);

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
        onSubmit={hydrated ? start : undefined}
        className="mt-4 space-y-4"
        noValidate
      >
        <div
          onDragOver={(event) => {
            event.preventDefault();
            if (!uploading) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={`rounded-xl border-2 border-dashed p-4 text-center transition-colors sm:p-6 ${dragging ? "border-brand-600 bg-brand-50" : "border-zinc-300 bg-zinc-50"} ${uploading ? "opacity-60" : ""}`}
        >
          {hydrated ? (
            <p className="mb-3 text-sm text-zinc-700">ここに動画ファイルをまとめてドロップ、または</p>
          ) : null}
          <label htmlFor="delivery-files" className="field-label">
            納品する動画ファイル（複数選択できます）
          </label>
          <input
            ref={inputRef}
            id="delivery-files"
            name="files"
            type="file"
            accept="video/*"
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
      {queue.length > 0 ? (
        <div className="mt-5">
          <p className="text-sm font-semibold">
            全体 {done}/{queue.length} 件・{percent(loaded, total)}%{failed ? `（失敗 ${failed} 件）` : ""}
          </p>
          <ProgressBar label="全体の進捗" percent={percent(loaded, total)} />
          <ul aria-label="アップロード状況" className="mt-4 max-h-96 space-y-2 overflow-y-auto">
            {queue.map((entry) => (
              <li key={entry.key} className="rounded-lg border border-zinc-200 px-3 py-2">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
                  <span className="min-w-0 flex-1 truncate">{entry.file.name}</span>
                  <span
                    className={`shrink-0 ${entry.state === "失敗" ? "text-red-700" : entry.state === "完了" ? "text-emerald-700" : "text-zinc-600"}`}
                  >
                    {entry.state}・{percent(entry.loaded, entry.file.size)}%
                  </span>
                </div>
                <ProgressBar
                  label={`${entry.file.name} の進捗`}
                  percent={percent(entry.loaded, entry.file.size)}
                />
                {entry.error ? <p className="field-error">{entry.error}</p> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {uploading ? (
        <p role="status" className="mt-3 text-sm text-zinc-600">
          アップロード中です。完了するまでこのページを閉じないでください（中断しても、同じファイルを選び直すと続きから再開できます）。
        </p>
      ) : null}
    </section>
  );
}
