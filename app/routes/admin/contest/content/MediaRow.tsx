import type { VideoRowState } from "~/server/media/video-states.server";
import { MediaActions, type MediaActionsProps } from "./MediaActions";
import { MediaSummary } from "./MediaSummary";
import { ThumbnailForm, type ThumbnailError } from "./ThumbnailForm";

/** One item of the コンテンツ一覧: its preview and facts, what can be done with it, its thumbnail form. */
export function MediaRow({
  thumbnailError,
  video,
  ...actions
}: MediaActionsProps & {
  /** A video's reading, poster and poster job (null for an image). */
  video: VideoRowState | null;
  /** The server's refusal of this item's thumbnail (the form posted without JavaScript). */
  thumbnailError: ThumbnailError | null;
}) {
  const { item, hydrated } = actions;
  return (
    <li className="rounded-2xl bg-white p-3 shadow-sm sm:p-4" aria-label={item.originalName}>
      <MediaSummary item={item} video={video}>
        <MediaActions {...actions} />
        <ThumbnailForm item={item} hydrated={hydrated} serverError={thumbnailError} />
      </MediaSummary>
    </li>
  );
}
