import { Form } from "@remix-run/react";
import { useState } from "react";
import { FieldLabel } from "~/components/forms";
import { UploadDropZone, UploadingNotice } from "~/components/UploadDropZone";
import { UploadQueue } from "~/components/UploadQueue";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useUploadQueue } from "~/lib/hooks/use-upload-queue";
import { formatBytes } from "~/lib/rules/format";
import {
  CONTENT_CATEGORY_LABELS,
  isMediaFile,
  MEDIA_ACCEPT,
  UPLOAD_MESSAGES,
} from "~/lib/schemas/media-schemas";

/**
 * The tab's upload form: videos and images, one category for the batch. With JavaScript the files
 * go in chunks through the API (resumable, each with its progress); the plain form post is the fallback.
 */
export function UploadPanel({
  contestId,
  maxUploadBytes,
  serverError,
  hydrated,
}: {
  contestId: number;
  maxUploadBytes: number;
  serverError: string | null;
  hydrated: boolean;
}) {
  const [category, setCategory] = useState("sample");
  const queue = useUploadQueue({
    contestId,
    purpose: "media",
    category,
    maxUploadBytes,
    accepts: isMediaFile,
    notAccepted: UPLOAD_MESSAGES.onlyMedia,
    noFile: UPLOAD_MESSAGES.noFile,
  });
  const { uploading, start } = queue;
  const error = queue.fieldError ?? serverError;
  // The plain form on its way (without JavaScript the browser posts it; with it, start() sends the files).
  const submitting = useIsPending({ state: "submitting", formAction: "?intent=upload" });

  return (
    <section aria-labelledby="upload-title" className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="upload-title" className="text-lg font-bold">
        動画・画像のアップロード
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        動画（MP4・MOV・WebM）と画像（JPEG・PNG・WebP・GIF）に対応しています。1 ファイル{" "}
        {formatBytes(maxUploadBytes)} まで。
      </p>
      <Form
        method="post"
        action="?intent=upload"
        encType="multipart/form-data"
        onSubmit={
          hydrated
            ? (event) => {
                // The queue counts and names the files not taken above its list.
                void start(event);
              }
            : undefined
        }
        className="mt-4 space-y-4"
        noValidate
      >
        <UploadDropZone
          queue={queue}
          hydrated={hydrated}
          dropHint="ここに動画・画像ファイルをドロップ、または"
          label="アップロードするファイル"
          inputId="media-files"
          name="file"
          accept={MEDIA_ACCEPT}
          multiple={hydrated}
          error={error}
        />
        <div className="flex flex-wrap items-end gap-4">
          <div>
            <FieldLabel htmlFor="media-category">カテゴリ</FieldLabel>
            <select
              id="media-category"
              name="category"
              value={category}
              onChange={(event) => setCategory(event.currentTarget.value)}
              disabled={uploading}
              className="field-input"
            >
              <option value="sample">{CONTENT_CATEGORY_LABELS.sample}（ショップに表示）</option>
              <option value="others">{CONTENT_CATEGORY_LABELS.others}（管理用）</option>
            </select>
          </div>
          <button type="submit" className="btn-primary" disabled={uploading || submitting}>
            {uploading || submitting ? "アップロード中..." : "アップロード"}
          </button>
        </div>
      </Form>
      <UploadQueue queue={queue.queue} />
      <UploadingNotice uploading={uploading} />
    </section>
  );
}
