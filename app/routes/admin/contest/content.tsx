import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { ConfirmDialog } from "~/components/ConfirmDialog";
import { FormError } from "~/components/form-messages";
import { VideoPlayer } from "~/components/VideoPlayer";
import { contentActionSchema } from "~/lib/schemas/media-schemas";
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
import { contentVideoStates, retryVideoJobs } from "~/server/media/video-states.server";
import { receiveThumbnailForm, removeThumbnail } from "~/server/media/thumbnails.server";
import { discardUpload, listPendingUploads } from "~/server/media/upload-sessions.server";
import { receiveFormUpload } from "~/server/media/form-upload.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { positiveId } from "~/lib/rules/params";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { useRefreshWhileProcessing } from "~/lib/hooks/use-refresh-while-processing";
import { anyUnfinished } from "~/lib/rules/video-job-states";
import { ProcessingHint } from "~/components/VideoJobState";
import { MediaRow } from "./content/MediaRow";
import { PendingUploads } from "./content/PendingUploads";
import type { ThumbnailError } from "./content/ThumbnailForm";
import { UploadPanel } from "./content/UploadPanel";

export const meta: MetaFunction = () => [{ title: "コンテンツ管理 | 管理画面" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  return {
    contestId: contest.id,
    media: listContentMedia(contest.id),
    videos: contentVideoStates(contest.id),
    pendingUploads: await listPendingUploads(contest.id),
    maxUploadBytes: env().MAX_UPLOAD_BYTES,
  };
}

type ActionResult = {
  uploadError?: string;
  thumbnailError?: ThumbnailError & { mediaId: number };
  formError?: string;
};

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const back = `/admin/contest/${contest.id}/content`;
  const toast = (kind: "success" | "error", title: string, description: string) =>
    redirectWithToast(request, back, { kind, title, description }, { status: 303 });
  const done = (title: string, description: string) => toast("success", title, description);
  const failed = (description: string) => toast("error", "エラー", description);

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
  switch (input.intent) {
    case "move":
      return moveMediaBy(contest.id, input.mediaId, input.direction)
        ? done("並べ替え完了", "表示順を変更しました。")
        : failed("メディアが見つかりません");
    case "delete":
      return (await deleteMedia(contest.id, input.mediaId))
        ? done("削除完了", "メディアを削除しました。")
        : failed("メディアの削除に失敗しました: メディアが見つかりません");
    case "remove-thumbnail":
      return (await removeThumbnail(contest.id, input.mediaId))
        ? done("サムネイル削除完了", "サムネイルを削除しました。")
        : failed("メディアが見つかりません");
    case "retry":
      return retryVideoJobs(contest.id, "sample", input.mediaId)
        ? done("再実行します", "順番が来るとポスター画像の作成を始めます。")
        : toast("error", "再実行できません", "失敗した処理のある動画が見つかりません。");
    case "discard-upload":
      await discardUpload(contest.id, input.uploadId);
      return done("破棄しました", "中断されたアップロードを破棄しました。");
  }
}

export default function ContentManagement() {
  const { contestId, media, videos, pendingUploads, maxUploadBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const processing = anyUnfinished(Object.values(videos).map((video) => video.state));
  useRefreshWhileProcessing(processing);
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

      <PendingUploads uploads={pendingUploads} />

      <section aria-labelledby="media-title">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="media-title" className="text-lg font-bold">
            コンテンツ一覧
          </h2>
          <p className="text-sm text-zinc-600">{media.length} 件・表示順</p>
        </div>
        <ProcessingHint processing={processing} hydrated={hydrated} className="mt-3" />
        {actionData?.formError ? (
          <div className="mt-3">
            <FormError errors={[actionData.formError]} />
          </div>
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
                video={videos[item.id] ?? null}
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
        poster={playing ? (playing.thumbnailUrl ?? videos[playing.id]?.posterUrl ?? undefined) : undefined}
        onClose={() => setPlaying(null)}
      />
    </div>
  );
}
