import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { formatBytes, formatDateTime } from "~/lib/rules/format";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { COVER_MAX_BYTES, currentCover, receiveCover, RECOMMENDED_COVER } from "~/server/media/cover.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { CoverUploadForm } from "./cover/CoverUploadForm";

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

export default function ContestCover() {
  const { cover, maxBytes, recommended } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
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
                  ・{formatBytes(cover.size)}・{formatDateTime(new Date(cover.uploadedAt))} アップロード
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

      <CoverUploadForm
        key={cover?.id ?? "none"}
        maxBytes={maxBytes}
        recommended={recommended}
        refusal={actionData?.error ?? null}
      />
    </div>
  );
}
