import { Form } from "@remix-run/react";
import type { ContentMediaItem } from "~/server/media/library.server";

const outlineButton = "rounded-lg border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100";
const deleteButton = "rounded-lg border border-red-300 px-3 py-1.5 text-sm text-red-700 hover:bg-red-50";

/** An item in the list, where it stands, and what its buttons open (the page's player and delete dialog). */
export type MediaActionsProps = {
  item: ContentMediaItem;
  first: boolean;
  last: boolean;
  hydrated: boolean;
  onPlay: () => void;
  onDelete: () => void;
};

/** What can be done with an item: move it, play or open it, drop its thumbnail, delete it. */
export function MediaActions({ item, first, last, hydrated, onPlay, onDelete }: MediaActionsProps) {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      <MoveButtons item={item} first={first} last={last} />
      <OpenLink item={item} onPlay={onPlay} />
      {item.thumbnailUrl ? (
        <Form method="post">
          <input type="hidden" name="intent" value="remove-thumbnail" />
          <input type="hidden" name="mediaId" value={item.id} />
          <button
            type="submit"
            className={outlineButton}
            aria-label={`${item.originalName} のサムネイルを削除`}
          >
            サムネイル削除
          </button>
        </Form>
      ) : null}
      {hydrated ? (
        <button
          type="button"
          onClick={onDelete}
          className={deleteButton}
          aria-label={`${item.originalName} を削除`}
        >
          削除
        </button>
      ) : (
        <DeleteDisclosure item={item} />
      )}
    </div>
  );
}

const MOVES = [
  { direction: "up", arrow: "↑", words: "上へ" },
  { direction: "down", arrow: "↓", words: "下へ" },
] as const;

/** ↑ / ↓: one place up or down the display order; the first cannot go up, the last not down. */
function MoveButtons({ item, first, last }: { item: ContentMediaItem; first: boolean; last: boolean }) {
  return (
    <Form method="post" className="flex gap-1">
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="mediaId" value={item.id} />
      {MOVES.map((move) => (
        <button
          key={move.direction}
          type="submit"
          name="direction"
          value={move.direction}
          disabled={move.direction === "up" ? first : last}
          aria-label={`${item.originalName} を${move.words}移動`}
          className="h-9 w-9 rounded-lg border border-zinc-300 text-sm hover:bg-zinc-100 disabled:opacity-40"
        >
          {move.arrow}
        </button>
      ))}
    </Form>
  );
}

/** A video plays in the page's player (a new tab without JavaScript); an image opens in a new tab. */
function OpenLink({ item, onPlay }: { item: ContentMediaItem; onPlay: () => void }) {
  if (item.mediaType !== "video")
    return (
      <a
        href={item.fileUrl}
        target="_blank"
        rel="noopener noreferrer"
        className={outlineButton}
        aria-label={`${item.originalName} を表示`}
      >
        表示
      </a>
    );
  return (
    <a
      href={item.fileUrl}
      target="_blank"
      rel="noopener noreferrer"
      onClick={(event) => {
        event.preventDefault();
        onPlay();
      }}
      aria-label={`${item.originalName} を再生`}
      className="rounded-lg bg-zinc-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-zinc-700"
    >
      ▶ 再生
    </a>
  );
}

/** Without JavaScript there is no dialog: 削除 opens the question and its button in place. */
function DeleteDisclosure({ item }: { item: ContentMediaItem }) {
  return (
    <details className="open:basis-full">
      <summary
        className={`inline-block cursor-pointer list-none ${deleteButton}`}
        aria-label={`${item.originalName} を削除`}
      >
        削除
      </summary>
      <Form method="post" className="mt-2 max-w-sm rounded-lg border border-red-200 bg-red-50 p-3 text-sm">
        <p className="font-semibold">本当に削除しますか？</p>
        <p className="mt-1 text-zinc-700">ファイルも削除され、元に戻せません。</p>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="mediaId" value={item.id} />
        <button
          type="submit"
          className="mt-2 rounded-lg bg-red-600 px-3 py-1.5 font-semibold text-white hover:bg-red-700"
        >
          削除する
        </button>
      </Form>
    </details>
  );
}
