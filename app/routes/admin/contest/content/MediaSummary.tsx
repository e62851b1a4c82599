import type { ReactNode } from "react";
import { formatBytes, formatDateTime } from "~/lib/rules/format";
import { CONTENT_CATEGORY_LABELS } from "~/lib/schemas/media-schemas";
import { VideoJobState } from "~/components/VideoJobState";
import type { ContentMediaItem } from "~/server/media/library.server";
import type { VideoRowState } from "~/server/media/video-states.server";

/**
 * An item's preview (its thumbnail, a video's poster, the image itself, or a video sign) beside its
 * name and facts, a video's processing state;
 * `children` (its buttons and forms) go under the facts.
 */
export function MediaSummary({
  item,
  video,
  children,
}: {
  item: ContentMediaItem;
  video: VideoRowState | null;
  children: ReactNode;
}) {
  return (
    <div className="flex gap-3 sm:gap-4">
      <div className="flex h-20 w-20 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-zinc-100 sm:h-24 sm:w-24">
        <MediaPreview item={item} posterUrl={video?.posterUrl ?? null} />
      </div>
      <div className="min-w-0 flex-1">
        <p className="font-semibold break-all">{item.originalName}</p>
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-zinc-600">
          <Fact term="種類">
            {item.mediaType === "video" ? "動画" : "画像"}（
            {CONTENT_CATEGORY_LABELS[item.category as "sample" | "others"] ?? item.category}）
          </Fact>
          <Fact term="サイズ">
            {formatBytes(item.size)}
            {item.width && item.height ? `・${item.width}×${item.height}` : ""}
          </Fact>
          <Fact term="アップロード">{formatDateTime(new Date(item.uploadedAt))}</Fact>
          <Fact term="サムネイル">{item.thumbnailUrl ? "あり" : "なし"}</Fact>
        </dl>
        {video ? (
          <VideoJobState video={video} name={item.originalName} retry={{ field: "mediaId", id: item.id }} />
        ) : null}
        {children}
      </div>
    </div>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex gap-1">
      <dt>{term}:</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The thumbnail attached by hand wins; else a video's poster frame, an image itself, or a video sign. */
function MediaPreview({ item, posterUrl }: { item: ContentMediaItem; posterUrl: string | null }) {
  const preview = item.thumbnailUrl ?? (item.mediaType === "image" ? item.fileUrl : posterUrl);
  if (preview)
    return (
      <img
        src={preview}
        alt={`${item.originalName} のプレビュー`}
        loading="lazy"
        className="h-full w-full object-cover"
      />
    );
  return (
    <svg
      role="img"
      aria-label="動画"
      viewBox="0 0 24 24"
      className="h-9 w-9 text-zinc-500"
      fill="currentColor"
    >
      <path d="M4 5h11a2 2 0 0 1 2 2v2.5l4-2.5v10l-4-2.5V17a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2Z" />
    </svg>
  );
}
