import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConfirmPage } from "~/components/ConfirmDialog";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { findContest } from "~/server/catalog/contest-list.server";
import { deleteContest } from "~/server/media/contest-deletion.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { positiveId } from "~/lib/rules/params";
import { notFound } from "~/server/http/not-found.server";

export const meta: MetaFunction = () => [{ title: "大会の削除 | 管理画面" }];

/** Without JS, 削除 comes here to ask 本当に削除しますか？ */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const id = positiveId(params.id);
  const contest = id ? findContest(id) : null;
  if (!contest) notFound();
  return { id: contest.id, name: contest.name };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const id = positiveId(params.id);
  const deleted = id ? await deleteContest(id) : false;
  return redirectWithToast(
    request,
    "/admin",
    deleted
      ? { kind: "success", title: "削除完了", description: "大会が削除されました。" }
      : { kind: "error", title: "エラー", description: "大会の削除に失敗しました: 大会が見つかりません" },
    { status: 303 },
  );
}

export default function DeleteContest() {
  const { id, name } = useLoaderData<typeof loader>();
  return (
    <ConfirmPage title="本当に削除しますか？" action={`/admin/contests/${id}/delete`} cancelTo="/admin">
      <p className="mt-3 text-zinc-700">
        「{name}
        」と、その選手・部門・動画形式・メディアをすべて削除します。注文は削除されません。この操作は取り消せません。
      </p>
    </ConfirmPage>
  );
}
