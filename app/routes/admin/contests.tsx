import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { ConfirmDialog } from "~/components/ConfirmDialog";
import { NewContestDialog } from "~/routes/admin/NewContestForm";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { listContestsForAdmin } from "~/server/catalog/contest-list.server";
import { togglePhoto, toggleVideo } from "~/server/catalog/publication.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { readForm } from "~/server/http/form.server";
import { positiveId } from "~/lib/rules/params";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { SideScroll } from "~/components/SideScroll";

export const meta: MetaFunction = () => [{ title: "大会管理 | 管理画面" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  return { contests: listContestsForAdmin() };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const form = await readForm(request);
  const id = positiveId(form.get("contestId"));
  const intent = form.get("intent");
  const toggle = intent === "toggle-video" ? toggleVideo : intent === "toggle-photo" ? togglePhoto : null;
  const done = toggle && id ? toggle(id) : false;
  return redirectWithToast(
    request,
    "/admin",
    done
      ? { kind: "success", title: "更新完了", description: "大会の状態が更新されました。" }
      : { kind: "error", title: "エラー", description: "大会の更新に失敗しました: 大会が見つかりません" },
    { status: 303 },
  );
}

export default function ContestManagement() {
  const { contests } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<{ id: number; name: string } | null>(null);
  const busyId = navigation.formData?.get("contestId");
  // A link to this list is on its way (not the reload after a post here, which keeps the rows shown).
  const reloading = useIsPending({ state: "loading", to: "/admin" });

  return (
    <section className="mx-auto max-w-7xl px-4 py-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">大会管理</h1>
        <Link
          to="/admin/contests/new"
          className="btn-primary"
          onClick={(event) => {
            event.preventDefault();
            setAdding(true);
          }}
        >
          新規大会追加
        </Link>
      </div>
      <NewContestDialog open={adding} onClose={() => setAdding(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title="本当に削除しますか？"
        action={`/admin/contests/${deleting?.id ?? 0}/delete`}
        confirmLabel="削除する"
        onCancel={() => setDeleting(null)}
      >
        「{deleting?.name}」と、その選手・部門・動画形式・メディアをすべて削除します。注文は削除されません。
      </ConfirmDialog>

      {reloading ? (
        <p role="status" className="mt-6 text-zinc-500">
          読み込み中...
        </p>
      ) : null}
      {contests.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-zinc-300 bg-white py-12 text-center text-zinc-600">
          大会データがありません
        </p>
      ) : (
        <SideScroll label="大会の一覧" className="mt-6 rounded-xl shadow-sm">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <thead className="border-b border-zinc-200 bg-zinc-50 text-zinc-600">
              <tr>
                <th className="px-4 py-3 font-medium">大会名</th>
                <th className="px-4 py-3 font-medium">動画</th>
                <th className="px-4 py-3 font-medium">写真</th>
                <th className="px-4 py-3 font-medium">削除</th>
                <th className="px-4 py-3 font-medium">編集</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {contests.map((contest) => (
                <tr key={contest.id} aria-busy={String(contest.id) === busyId || undefined}>
                  <th scope="row" className="px-4 py-3 font-medium">
                    {contest.name}
                  </th>
                  <td className="px-4 py-3">
                    <Toggle
                      contestId={contest.id}
                      intent="toggle-video"
                      on={contest.videoPublished}
                      label={`${contest.name}の動画`}
                    />
                  </td>
                  <td className="px-4 py-3">
                    <Toggle
                      contestId={contest.id}
                      intent="toggle-photo"
                      on={contest.photoPublished}
                      label={`${contest.name}の写真`}
                    />
                  </td>
                  <td className="px-4 py-3">
                    <Link
                      to={`/admin/contests/${contest.id}/delete`}
                      onClick={(event) => {
                        event.preventDefault();
                        setDeleting({ id: contest.id, name: contest.name });
                      }}
                      className="rounded-lg border border-red-300 px-3 py-1.5 text-red-700 hover:bg-red-50"
                      aria-label={`${contest.name}を削除`}
                    >
                      削除
                    </Link>
                  </td>
                  <td className="px-4 py-3">
                    <Link
                      to={`/admin/contest/${contest.id}`}
                      className="rounded-lg border border-zinc-300 px-3 py-1.5 hover:bg-zinc-100"
                      aria-label={`${contest.name}を編集`}
                    >
                      編集
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </SideScroll>
      )}
    </section>
  );
}

function Toggle({
  contestId,
  intent,
  on,
  label,
}: {
  contestId: number;
  intent: string;
  on: boolean;
  label: string;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="contestId" value={contestId} />
      <button
        type="submit"
        name="intent"
        value={intent}
        aria-label={`${label}: ${on ? "公開中" : "非公開"}（切り替え）`}
        className={`min-w-20 rounded-full px-3 py-1.5 text-xs font-bold ${on ? "bg-emerald-600 text-white hover:bg-emerald-700" : "bg-zinc-200 text-zinc-700 hover:bg-zinc-300"}`}
      >
        {on ? "公開中" : "非公開"}
      </button>
    </Form>
  );
}
