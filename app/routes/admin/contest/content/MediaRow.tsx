import type { ContentMediaItem } from "~/server/media/library.server";
import { MediaActions } from "./MediaActions";
import { MediaSummary } from "./MediaSummary";
import { ThumbnailForm, type ThumbnailError } from "./ThumbnailForm";

/** One item of the コンテンツ一覧: its preview and facts, what can be done with it, its thumbnail form. */
export function MediaRow({
  item,
  first,
  last,
  hydrated,
  thumbnailError,
  onPlay,
  onDelete,
}: {
  item: ContentMediaItem;
  first: boolean;
  last: boolean;
  hydrated: boolean;
  /** The server's refusal of this item's thumbnail (the form posted without JavaScript). */
  thumbnailError: ThumbnailError | null;
  onPlay: () => void;
  onDelete: () => void;
}) {
  return (
    <li className="rounded-2xl bg-white p-3 shadow-sm sm:p-4" aria-label={item.originalName}>
      <MediaSummary item={item}>
        <MediaActions
          item={item}
          first={first}
          last={last}
          hydrated={hydrated}
          onPlay={onPlay}
          onDelete={onDelete}
        />
        <ThumbnailForm item={item} hydrated={hydrated} serverError={thumbnailError} />
      </MediaSummary>
    </li>
  );
}
