import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConfirmPage } from "~/components/ConfirmDialog";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { logOut } from "~/server/auth/login/session-login.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { deleteUser, findUser } from "~/server/accounts/user-admin.server";
import { positiveId } from "~/lib/rules/params";
import { notFound } from "~/server/http/not-found.server";

export const meta: MetaFunction = () => [{ title: "ユーザーの削除 | 管理画面" }];

/** Without JS, 削除 comes here to ask ユーザーを削除しますか？ */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const id = positiveId(params.id);
  const user = id ? findUser(id) : null;
  if (!user) notFound();
  return { id: user.id, email: user.email };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { admin } = await requireAdminPage(request);
  const id = positiveId(params.id);
  const result = id
    ? deleteUser(admin.id, id)
    : ({ ok: false, message: "ユーザーが見つかりません" } as const);
  if (!result.ok)
    return redirectWithToast(
      request,
      "/admin/users",
      { kind: "error", title: "削除に失敗しました", description: result.message },
      { status: 303 },
    );
  if (result.self) {
    // The account behind this session is gone: end the session with the destructive toast.
    const session = await getSession(request);
    logOut(session);
    session.flash("toast", {
      kind: "error",
      title: "アカウントが削除されました",
      description: "ご自身のアカウントを削除したため、ログアウトしました。",
    });
    return redirect("/admin-login", { status: 303, headers: { "Set-Cookie": await commitSession(session) } });
  }
  return redirectWithToast(
    request,
    "/admin/users",
    { kind: "success", title: "ユーザーを削除しました", description: result.deletedUserEmail },
    { status: 303 },
  );
}

export default function DeleteUser() {
  const { id, email } = useLoaderData<typeof loader>();
  return (
    <ConfirmPage
      title="ユーザーを削除しますか？"
      action={`/admin/users/${id}/delete`}
      cancelTo="/admin/users"
    >
      <p className="mt-3 break-all text-zinc-700">{email} を削除します。この操作は取り消せません。</p>
    </ConfirmPage>
  );
}
