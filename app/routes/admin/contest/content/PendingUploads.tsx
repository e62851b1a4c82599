import { Form } from "@remix-run/react";
import { ProgressBar } from "~/components/ProgressBar";
import { formatBytes } from "~/lib/rules/format";

type PendingUpload = {
  uploadId: string;
  fileName: string;
  fileSize: number;
  chunkSize: number;
  receivedChunks: number;
  totalChunks: number;
};

/**
 * Uploads the server holds unfinished (a closed tab, a lost connection): how far each got, and
 * 破棄 for one the admin will not finish. Choosing the same file again resumes it.
 */
export function PendingUploads({ uploads }: { uploads: PendingUpload[] }) {
  if (uploads.length === 0) return null;
  return (
    <section
      aria-labelledby="pending-title"
      className="rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:p-5"
    >
      <h2 id="pending-title" className="font-bold text-amber-900">
        中断されたアップロード
      </h2>
      <p className="mt-1 text-sm text-amber-900">
        同じファイルをもう一度選択してアップロードすると、続きから再開します。
      </p>
      <ul className="mt-3 space-y-3">
        {uploads.map((upload) => (
          <PendingUploadRow key={upload.uploadId} upload={upload} />
        ))}
      </ul>
    </section>
  );
}

function PendingUploadRow({ upload }: { upload: PendingUpload }) {
  const percent = Math.floor(
    (Math.min(upload.receivedChunks * upload.chunkSize, upload.fileSize) / upload.fileSize) * 100,
  );
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-xl bg-white p-3">
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold">{upload.fileName}</p>
        <ProgressBar label={`${upload.fileName} の受信済み`} percent={percent} />
        <p className="mt-1 text-xs text-zinc-600">
          {formatBytes(upload.fileSize)} 中 {percent}% 受信済み（{upload.receivedChunks}/{upload.totalChunks}
          ）
        </p>
      </div>
      <Form method="post">
        <input type="hidden" name="intent" value="discard-upload" />
        <input type="hidden" name="uploadId" value={upload.uploadId} />
        <button
          type="submit"
          className="rounded-lg border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100"
          aria-label={`${upload.fileName} のアップロードを破棄`}
        >
          破棄
        </button>
      </Form>
    </li>
  );
}
