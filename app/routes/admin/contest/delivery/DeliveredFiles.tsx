import type { DeliveryScreen } from "~/server/delivery/delivery-screen.server";
import type { DeliveryTabError } from "~/server/delivery/delivery-tab.server";
import { VideoJobState } from "~/components/VideoJobState";
import { PosterThumb } from "./FileSection";
import { ReplaceForm } from "./ReplaceForm";

/** Files already serving orders, folded away: each may still be replaced by a corrected video. */
export function DeliveredFiles({
  files,
  numberLabel,
  actionData,
}: {
  files: DeliveryScreen["delivered"];
  numberLabel: string;
  actionData: DeliveryTabError | undefined;
}) {
  if (files.length === 0) return null;
  return (
    // Opened when a delivered file's processing failed, so its 再実行 is not hidden.
    <details
      className="rounded-2xl bg-white p-4 shadow-sm sm:p-5"
      open={files.some((file) => file.video?.state?.status === "failed") || undefined}
    >
      <summary className="cursor-pointer font-bold">納品済みのファイル（{files.length} 件）</summary>
      <ul className="mt-3 divide-y divide-zinc-100 text-sm">
        {files.map((file) => (
          <li key={file.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2">
            {file.video?.posterUrl ? (
              <PosterThumb url={file.video.posterUrl} name={file.originalName} />
            ) : null}
            <div className="min-w-0 flex-1 break-all">
              {file.originalName}
              {file.video ? (
                <VideoJobState
                  video={file.video}
                  name={file.originalName}
                  retry={{ field: "fileId", id: file.id }}
                />
              ) : null}
            </div>
            <span>
              {file.athlete
                ? `${numberLabel} ${file.athlete.athleteNumber} ${file.athlete.name}`
                : "（選手なし）"}
              ・{file.style}
            </span>
            <span className="text-zinc-600">{file.lineCount} 明細</span>
            <ReplaceForm
              fileId={file.id}
              fileName={file.originalName}
              error={actionData?.fileId === file.id ? (actionData.error ?? null) : null}
            />
          </li>
        ))}
      </ul>
    </details>
  );
}
