import { Form } from "@remix-run/react";
import { useState } from "react";
import { FieldLabel } from "~/components/forms";
import {
  THUMBNAIL_PIXELS,
  THUMBNAIL_SIZE_ERROR_TITLE,
  thumbnailSizeMessage,
} from "~/lib/schemas/media-schemas";
import type { ContentMediaItem } from "~/server/media/library.server";

/** A refused thumbnail: the heading (サイズエラー, or エラー) and what to do. */
export type ThumbnailError = { title: string; message: string };

/**
 * サムネイルを追加・変更: a 1080×1080 image for the item, posted as a file. With JavaScript a
 * wrong-sized image is caught before it is sent (the server checks again); the disclosure stays
 * open when the server refused one.
 */
export function ThumbnailForm({
  item,
  hydrated,
  serverError,
}: {
  item: ContentMediaItem;
  hydrated: boolean;
  serverError: ThumbnailError | null;
}) {
  const inputId = `thumbnail-${item.id}`;
  const [browserError, setBrowserError] = useState<ThumbnailError | null>(null);
  const error = browserError ?? serverError;
  const check = async (file: File | undefined) => {
    setBrowserError(null);
    if (file) setBrowserError(await thumbnailProblem(file));
  };
  return (
    <details className="mt-3" open={serverError ? true : undefined}>
      <summary className="cursor-pointer text-sm text-brand-700 underline">
        {item.thumbnailUrl ? "サムネイルを変更" : "サムネイルを追加"}
      </summary>
      <Form
        method="post"
        action={`?intent=thumbnail&mediaId=${item.id}`}
        encType="multipart/form-data"
        className="mt-2 flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          if (browserError) event.preventDefault();
        }}
      >
        <div className="min-w-0">
          <FieldLabel htmlFor={inputId}>
            サムネイル画像（{THUMBNAIL_PIXELS}×{THUMBNAIL_PIXELS} ピクセル）
          </FieldLabel>
          <input
            id={inputId}
            name="thumbnail"
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${inputId}-error` : undefined}
            onChange={hydrated ? (event) => void check(event.currentTarget.files?.[0]) : undefined}
            className="block w-full max-w-xs text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-zinc-200 file:px-3 file:py-1.5 file:text-sm"
          />
        </div>
        <button
          type="submit"
          className="rounded-lg border border-zinc-300 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-zinc-100"
        >
          サムネイルを設定
        </button>
      </Form>
      {error ? (
        <div
          id={`${inputId}-error`}
          role="alert"
          className="mt-2 rounded-lg border-l-4 border-red-600 bg-red-50 px-3 py-2 text-sm text-red-900"
        >
          <p className="font-semibold">{error.title}</p>
          <p>{error.message}</p>
        </div>
      ) : null}
    </details>
  );
}

/** What is wrong with a chosen image, read in the browser: not 1080×1080, or not an image at all. */
async function thumbnailProblem(file: File): Promise<ThumbnailError | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const { width, height } = bitmap;
    bitmap.close();
    if (width === THUMBNAIL_PIXELS && height === THUMBNAIL_PIXELS) return null;
    return { title: THUMBNAIL_SIZE_ERROR_TITLE, message: thumbnailSizeMessage(width, height) };
  } catch {
    return {
      title: "エラー",
      message: "画像を読み取れませんでした。JPEG・PNG・WebP の画像を選択してください",
    };
  }
}
