import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { ConfirmDialog } from "~/components/ConfirmDialog";
import { VideoPlayer } from "~/components/VideoPlayer";
import { ProgressBar } from "~/components/ProgressBar";
import { UploadQueue } from "~/components/UploadQueue";
import { useUploadQueue } from "~/lib/hooks/use-upload-queue";
import { formatDateTime } from "~/lib/rules/format";
import {
  CONTENT_CATEGORY_LABELS,
  contentActionSchema,
  formatBytes,
  isMediaFile,
  THUMBNAIL_PIXELS,
  THUMBNAIL_SIZE_ERROR_TITLE,
  thumbnailSizeMessage,
  UPLOAD_MESSAGES,
} from "~/lib/schemas/media-schemas";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { env } from "~/server/core/env.server";
import { readForm } from "~/server/http/form.server";
import {
  deleteMedia,
  findContentMedia,
  listContentMedia,
  moveMediaBy,
  type ContentMediaItem,
} from "~/server/media/library.server";
import { receiveThumbnailForm, removeThumbnail } from "~/server/media/thumbnails.server";
import { discardUpload, listPendingUploads } from "~/server/media/upload-sessions.server";
import { receiveFormUpload } from "~/server/media/form-upload.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { positiveId } from "~/lib/rules/params";
import { useHydrated } from "~/lib/hooks/use-hydrated";

export const meta: MetaFunction = () => [{ title: "コンテンツ管理 | 管理画面" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  return {
    contestId: contest.id,
    media: listContentMedia(contest.id),
    pendingUploads: await listPendingUploads(contest.id),
    maxUploadBytes: env().MAX_UPLOAD_BYTES,
  };
}

type ActionResult = {
  uploadError?: string;
  thumbnailError?: { mediaId: number; title: string; message: string };
  formError?: string;
};

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const back = `/admin/contest/${contest.id}/content`;
  const done = (title: string, description: string) =>
    redirectWithToast(request, back, { kind: "success", title, description }, { status: 303 });

  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    const query = new URL(request.url).searchParams;
    if (query.get("intent") === "thumbnail") {
      const mediaId = positiveId(query.get("mediaId"));
      if (!mediaId || !findContentMedia(contest.id, mediaId))
        return data<ActionResult>({ formError: "メディアが見つかりません" }, { status: 404 });
      const result = await receiveThumbnailForm(contest.id, mediaId, request);
      if (!result.ok)
        return data<ActionResult>(
          { thumbnailError: { mediaId, title: result.title, message: result.message } },
          { status: result.status },
        );
      return done("サムネイル設定完了", "サムネイルを設定しました。");
    }
    const result = await receiveFormUpload(contest.id, request);
    if (!result.ok) return data<ActionResult>({ uploadError: result.message }, { status: result.status });
    return done("アップロード完了", `「${result.item.originalName}」をアップロードしました。`);
  }

  const parsed = contentActionSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success)
    return data<ActionResult>(
      { formError: "操作を読み取れませんでした。もう一度お試しください。" },
      { status: 400 },
    );
  const input = parsed.data;
  const missing = () =>
    redirectWithToast(
      request,
      back,
      { kind: "error", title: "エラー", description: "メディアが見つかりません" },
      { status: 303 },
    );
  switch (input.intent) {
    case "move":
      return moveMediaBy(contest.id, input.mediaId, input.direction)
        ? done("並べ替え完了", "表示順を変更しました。")
        : missing();
    case "delete":
      return (await deleteMedia(contest.id, input.mediaId))
        ? done("削除完了", "メディアを削除しました。")
        : redirectWithToast(
            request,
            back,
            {
              kind: "error",
              title: "エラー",
              description: "メディアの削除に失敗しました: メディアが見つかりません",
            },
            { status: 303 },
          );
    case "remove-thumbnail":
      return (await removeThumbnail(contest.id, input.mediaId))
        ? done("サムネイル削除完了", "サムネイルを削除しました。")
        : missing();
    case "discard-upload":
      await discardUpload(contest.id, input.uploadId);
      return done("破棄しました", "中断されたアップロードを破棄しました。");
  }
}

export default function ContentManagement() {
  const { contestId, media, pendingUploads, maxUploadBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const [playing, setPlaying] = useState<ContentMediaItem | null>(null);
  const [deleting, setDeleting] = useState<ContentMediaItem | null>(null);

  return (
    <div className="space-y-8">
      <UploadPanel
        contestId={contestId}
        maxUploadBytes={maxUploadBytes}
        serverError={actionData?.uploadError ?? null}
        hydrated={hydrated}
      />

      {pendingUploads.length > 0 ? (
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
            {pendingUploads.map((upload) => {
              const percent = Math.floor(
                (Math.min(upload.receivedChunks * upload.chunkSize, upload.fileSize) / upload.fileSize) * 100,
              );
              return (
                <li
                  key={upload.uploadId}
                  className="flex flex-wrap items-center gap-3 rounded-xl bg-white p-3"
                >
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-semibold">{upload.fileName}</p>
                    <ProgressBar label={`${upload.fileName} の受信済み`} percent={percent} />
                    <p className="mt-1 text-xs text-zinc-600">
                      {formatBytes(upload.fileSize)} 中 {percent}% 受信済み（{upload.receivedChunks}/
                      {upload.totalChunks}）
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
            })}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="media-title">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="media-title" className="text-lg font-bold">
            コンテンツ一覧
          </h2>
          <p className="text-sm text-zinc-600">{media.length} 件・表示順</p>
        </div>
        {actionData?.formError ? (
          <p role="alert" className="field-error">
            {actionData.formError}
          </p>
        ) : null}
        {media.length === 0 ? (
          <p className="mt-3 rounded-xl border border-dashed border-zinc-300 bg-white py-12 text-center text-zinc-600">
            まだコンテンツがありません。上のフォームから動画や画像をアップロードしてください。
          </p>
        ) : (
          <ol className="mt-3 space-y-3">
            {media.map((item, index) => (
              <MediaRow
                key={item.id}
                item={item}
                first={index === 0}
                last={index === media.length - 1}
                hydrated={hydrated}
                thumbnailError={
                  actionData?.thumbnailError?.mediaId === item.id ? actionData.thumbnailError : null
                }
                onPlay={() => setPlaying(item)}
                onDelete={() => setDeleting(item)}
              />
            ))}
          </ol>
        )}
      </section>

      <ConfirmDialog
        open={deleting !== null}
        title="本当に削除しますか？"
        action=""
        confirmLabel="削除する"
        onCancel={() => setDeleting(null)}
        fields={{ intent: "delete", mediaId: String(deleting?.id ?? 0) }}
      >
        「{deleting?.originalName}」を削除します。ファイルも削除され、元に戻せません。
      </ConfirmDialog>
      <VideoPlayer
        src={playing?.fileUrl ?? null}
        title={playing?.originalName ?? ""}
        onClose={() => setPlaying(null)}
      />
    </div>
  );
}

function UploadPanel({
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
  const navigation = useNavigation();
  const [category, setCategory] = useState("sample");
  const [failure, setFailure] = useState<string | null>(null);
  const { inputRef, queue, uploading, fieldError, dragging, choose, start, dropZone } = useUploadQueue({
    contestId,
    purpose: "media",
    category,
    maxUploadBytes,
    accepts: isMediaFile,
    notAccepted: UPLOAD_MESSAGES.onlyMedia,
    noFile: UPLOAD_MESSAGES.noFile,
  });
  const error = fieldError ?? serverError;
  const submitting = navigation.state === "submitting" && navigation.formAction?.includes("intent=upload");
  // With JavaScript the files go in chunks through the API; the plain form post is the fallback.
  const send = async (event: FormEvent<HTMLFormElement>) => {
    setFailure(null);
    if ((await start(event)) > 0) setFailure(UPLOAD_MESSAGES.general);
  };

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
        onSubmit={hydrated ? send : undefined}
        className="mt-4 space-y-4"
        noValidate
      >
        <div
          {...dropZone}
          data-testid="drop-zone"
          className={`rounded-xl border-2 border-dashed p-4 text-center transition-colors sm:p-6 ${dragging ? "border-brand-600 bg-brand-50" : "border-zinc-300 bg-zinc-50"} ${uploading ? "opacity-60" : ""}`}
        >
          {hydrated ? (
            <p className="mb-3 text-sm text-zinc-700">ここに動画・画像ファイルをドロップ、または</p>
          ) : null}
          <label htmlFor="media-files" className="field-label">
            アップロードするファイル
          </label>
          <input
            ref={inputRef}
            id="media-files"
            name="file"
            type="file"
            accept="video/*,image/*"
            multiple={hydrated}
            disabled={uploading}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "media-files-error" : undefined}
            onChange={(event) => {
              setFailure(null);
              choose(event.currentTarget.files);
            }}
            className="mx-auto block w-full max-w-md text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-zinc-800 file:px-4 file:py-2 file:text-sm file:font-semibold file:text-white disabled:cursor-not-allowed"
          />
          {error ? (
            <p id="media-files-error" role="alert" className="field-error">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-end gap-4">
          <div>
            <label htmlFor="media-category" className="field-label">
              カテゴリ
            </label>
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
      <UploadQueue queue={queue} />
      {failure ? (
        <p
          role="alert"
          className="mt-4 rounded-lg border-l-4 border-red-600 bg-red-50 px-4 py-3 text-sm font-semibold text-red-900"
        >
          {failure}
        </p>
      ) : null}
      {uploading ? (
        <p role="status" className="mt-3 text-sm text-zinc-600">
          アップロード中です。完了するまでこのページを閉じないでください（中断しても、同じファイルを選び直すと続きから再開できます）。
        </p>
      ) : null}
    </section>
  );
}

function MediaRow({
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
  thumbnailError: { title: string; message: string } | null;
  onPlay: () => void;
  onDelete: () => void;
}) {
  const thumbInputId = `thumbnail-${item.id}`;
  // With JavaScript a wrong-sized image is caught before it is sent (the server checks again).
  const [localThumbnailError, setLocalThumbnailError] = useState<{ title: string; message: string } | null>(
    null,
  );
  const shownThumbnailError = localThumbnailError ?? thumbnailError;
  const checkThumbnail = async (file: File | undefined) => {
    setLocalThumbnailError(null);
    if (!file) return;
    try {
      const bitmap = await createImageBitmap(file);
      const { width, height } = bitmap;
      bitmap.close();
      if (width !== THUMBNAIL_PIXELS || height !== THUMBNAIL_PIXELS)
        setLocalThumbnailError({
          title: THUMBNAIL_SIZE_ERROR_TITLE,
          message: thumbnailSizeMessage(width, height),
        });
    } catch {
      setLocalThumbnailError({
        title: "エラー",
        message: "画像を読み取れませんでした。JPEG・PNG・WebP の画像を選択してください",
      });
    }
  };
  const preview = item.thumbnailUrl ?? (item.mediaType === "image" ? item.fileUrl : null);
  return (
    <li className="rounded-2xl bg-white p-3 shadow-sm sm:p-4" aria-label={item.originalName}>
      <div className="flex gap-3 sm:gap-4">
        <div className="flex h-20 w-20 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-zinc-100 sm:h-24 sm:w-24">
          {preview ? (
            <img
              src={preview}
              alt={`${item.originalName} のプレビュー`}
              loading="lazy"
              className="h-full w-full object-cover"
            />
          ) : (
            <svg
              role="img"
              aria-label="動画"
              viewBox="0 0 24 24"
              className="h-9 w-9 text-zinc-500"
              fill="currentColor"
            >
              <path d="M4 5h11a2 2 0 0 1 2 2v2.5l4-2.5v10l-4-2.5V17a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2Z" />
            </svg>
          )}
        </div>
        <div className="min-w-0 flex-1">
          <p className="font-semibold break-all">{item.originalName}</p>
          <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-zinc-600">
            <div className="flex gap-1">
              <dt>種類:</dt>
              <dd>
                {item.mediaType === "video" ? "動画" : "画像"}（
                {CONTENT_CATEGORY_LABELS[item.category as "sample" | "others"] ?? item.category}）
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>サイズ:</dt>
              <dd>
                {formatBytes(item.size)}
                {item.width && item.height ? `・${item.width}×${item.height}` : ""}
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>アップロード:</dt>
              <dd>{formatDateTime(new Date(item.uploadedAt))}</dd>
            </div>
            <div className="flex gap-1">
              <dt>サムネイル:</dt>
              <dd>{item.thumbnailUrl ? "あり" : "なし"}</dd>
            </div>
          </dl>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <Form method="post" className="flex gap-1">
              <input type="hidden" name="intent" value="move" />
              <input type="hidden" name="mediaId" value={item.id} />
              <button
                type="submit"
                name="direction"
                value="up"
                disabled={first}
                aria-label={`${item.originalName} を上へ移動`}
                className="h-9 w-9 rounded-lg border border-zinc-300 text-sm hover:bg-zinc-100 disabled:opacity-40"
              >
                ↑
              </button>
              <button
                type="submit"
                name="direction"
                value="down"
                disabled={last}
                aria-label={`${item.originalName} を下へ移動`}
                className="h-9 w-9 rounded-lg border border-zinc-300 text-sm hover:bg-zinc-100 disabled:opacity-40"
              >
                ↓
              </button>
            </Form>
            {item.mediaType === "video" ? (
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
            ) : (
              <a
                href={item.fileUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="rounded-lg border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100"
                aria-label={`${item.originalName} を表示`}
              >
                表示
              </a>
            )}
            {item.thumbnailUrl ? (
              <Form method="post">
                <input type="hidden" name="intent" value="remove-thumbnail" />
                <input type="hidden" name="mediaId" value={item.id} />
                <button
                  type="submit"
                  className="rounded-lg border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100"
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
                className="rounded-lg border border-red-300 px-3 py-1.5 text-sm text-red-700 hover:bg-red-50"
                aria-label={`${item.originalName} を削除`}
              >
                削除
              </button>
            ) : (
              <details className="open:basis-full">
                <summary
                  className="inline-block cursor-pointer list-none rounded-lg border border-red-300 px-3 py-1.5 text-sm text-red-700 hover:bg-red-50"
                  aria-label={`${item.originalName} を削除`}
                >
                  削除
                </summary>
                <Form
                  method="post"
                  className="mt-2 max-w-sm rounded-lg border border-red-200 bg-red-50 p-3 text-sm"
                >
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
            )}
          </div>
          <details className="mt-3" open={thumbnailError ? true : undefined}>
            <summary className="cursor-pointer text-sm text-brand-700 underline">
              {item.thumbnailUrl ? "サムネイルを変更" : "サムネイルを追加"}
            </summary>
            <Form
              method="post"
              action={`?intent=thumbnail&mediaId=${item.id}`}
              encType="multipart/form-data"
              className="mt-2 flex flex-wrap items-end gap-3"
              onSubmit={(event) => {
                if (localThumbnailError) event.preventDefault();
              }}
            >
              <div className="min-w-0">
                <label htmlFor={thumbInputId} className="field-label">
                  サムネイル画像（{THUMBNAIL_PIXELS}×{THUMBNAIL_PIXELS} ピクセル）
                </label>
                <input
                  id={thumbInputId}
                  name="thumbnail"
                  type="file"
                  accept="image/jpeg,image/png,image/webp,image/gif"
                  aria-invalid={shownThumbnailError ? true : undefined}
                  aria-describedby={shownThumbnailError ? `${thumbInputId}-error` : undefined}
                  onChange={
                    hydrated ? (event) => void checkThumbnail(event.currentTarget.files?.[0]) : undefined
                  }
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
            {shownThumbnailError ? (
              <div
                id={`${thumbInputId}-error`}
                role="alert"
                className="mt-2 rounded-lg border-l-4 border-red-600 bg-red-50 px-3 py-2 text-sm text-red-900"
              >
                <p className="font-semibold">{shownThumbnailError.title}</p>
                <p>{shownThumbnailError.message}</p>
              </div>
            ) : null}
          </details>
        </div>
      </div>
    </li>
  );
}
