import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { FieldError, SubmitRow } from "~/components/forms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { formatDateTime } from "~/lib/rules/format";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { COVER_MAX_BYTES, currentCover, receiveCover, RECOMMENDED_COVER } from "~/server/media/cover.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { redirectWithToast } from "~/server/http/toast.server";

export const meta: MetaFunction = () => [{ title: "カバー画像 | 管理画面" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  return { cover: currentCover(contest.id), maxBytes: COVER_MAX_BYTES, recommended: RECOMMENDED_COVER };
}

export async function action({ request, params }: ActionFunctionArgs) {
  // Checked before a single byte of the upload is read.
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const result = await receiveCover(request, contest.id);
  if (!result.ok) return data({ error: result.message }, { status: result.status });
  return redirectWithToast(
    request,
    `/admin/contest/${contest.id}/cover`,
    {
      kind: "success",
      title: "アップロード完了",
      description: `カバー画像を更新しました（${result.width}×${result.height}ピクセル）。`,
    },
    { status: 303 },
  );
}

type Preview = { url: string; name: string; width: number | null; height: number | null };

export default function ContestCover() {
  const { cover, maxBytes, recommended } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const uploading = useIsPending({ state: "submitting" });
  const busy = useIsPending();
  const [preview, setPreview] = useState<Preview | null>(null);
  const previewUrl = preview?.url;
  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );
  // The chosen file is gone once the upload has replaced the cover.
  useEffect(() => {
    if (!busy && !actionData) setPreview(null);
  }, [cover?.id, busy, actionData]);

  const offSize = cover && (cover.width !== recommended.width || cover.height !== recommended.height);
  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <section aria-labelledby="current-cover-title" className="rounded-2xl bg-white p-5 shadow-sm">
        <h2 id="current-cover-title" className="text-lg font-bold">
          現在のカバー画像
        </h2>
        {cover ? (
          <>
            <figure className="mt-4">
              <div className="aspect-video overflow-hidden rounded-lg bg-zinc-100">
                <img
                  src={cover.url}
                  alt="現在のカバー画像"
                  width={960}
                  height={540}
                  className="h-full w-full object-cover"
                />
              </div>
              <figcaption className="mt-3 space-y-1 text-sm text-zinc-700">
                <span className="block break-all">{cover.originalName}</span>
                <span className="block">
                  <span data-testid="cover-size">
                    {cover.width ?? "?"}×{cover.height ?? "?"}ピクセル
                  </span>
                  ・{formatMegabytes(cover.size)}・{formatDateTime(new Date(cover.uploadedAt))} アップロード
                </span>
              </figcaption>
            </figure>
            {offSize ? (
              <p
                role="note"
                className="mt-3 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
              >
                推奨サイズは{recommended.width}×{recommended.height}
                ピクセルです。この画像はショップでは16:9に切り抜いて表示されます。
              </p>
            ) : null}
          </>
        ) : (
          <div className="mt-4 flex aspect-video items-center justify-center rounded-lg border border-dashed border-zinc-300 text-sm text-zinc-500">
            カバー画像はまだありません
          </div>
        )}
      </section>

      <section aria-labelledby="upload-cover-title" className="rounded-2xl bg-white p-5 shadow-sm">
        <h2 id="upload-cover-title" className="text-lg font-bold">
          カバー画像をアップロード
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          JPEG・PNG・WebP形式、{maxBytes / 1024 / 1024}MBまで。推奨サイズは{recommended.width}×
          {recommended.height}
          ピクセル（16:9）です。新しい画像をアップロードすると、以前のカバー画像は削除されます。
        </p>
        <Form method="post" encType="multipart/form-data" className="mt-4 space-y-4">
          <div>
            <label htmlFor="cover-file" className="field-label">
              画像ファイル
            </label>
            <input
              id="cover-file"
              name="cover"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              aria-invalid={actionData?.error ? true : undefined}
              aria-describedby={actionData?.error ? "cover-file-error" : undefined}
              className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-lg file:border file:border-zinc-300 file:bg-white file:px-4 file:font-semibold file:text-zinc-800 hover:file:bg-zinc-100"
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                if (!file || !file.type.startsWith("image/")) return setPreview(null);
                const url = URL.createObjectURL(file);
                setPreview({ url, name: file.name, width: null, height: null });
              }}
            />
            <FieldError
              id="cover-file-error"
              errors={actionData?.error ? [actionData.error] : null}
              announce
            />
          </div>
          {preview ? (
            <figure aria-label="選択した画像のプレビュー">
              <div className="aspect-video overflow-hidden rounded-lg bg-zinc-100">
                <img
                  src={preview.url}
                  alt="選択した画像のプレビュー"
                  className="h-full w-full object-cover"
                  onLoad={(event) => {
                    const { naturalWidth, naturalHeight } = event.currentTarget;
                    setPreview((current) =>
                      current && current.url === preview.url
                        ? { ...current, width: naturalWidth, height: naturalHeight }
                        : current,
                    );
                  }}
                />
              </div>
              <figcaption className="mt-2 text-sm text-zinc-700">
                <span className="break-all">{preview.name}</span>
                {preview.width && preview.height ? (
                  <span className="block">
                    {preview.width}×{preview.height}ピクセル
                    {preview.width !== recommended.width || preview.height !== recommended.height
                      ? `（推奨は${recommended.width}×${recommended.height}ピクセルです）`
                      : ""}
                  </span>
                ) : null}
              </figcaption>
            </figure>
          ) : null}
          <SubmitRow busy={uploading} busyLabel="アップロード中...">
            アップロード
          </SubmitRow>
        </Form>
      </section>
    </div>
  );
}

function formatMegabytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)}MB`
    : `${Math.max(1, Math.round(bytes / 1024))}KB`;
}
