import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { ConfirmDialog } from "~/components/ConfirmDialog";
import { formatDate, formatDateTime } from "~/lib/rules/format";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { listUsers, userListQuery } from "~/server/accounts/user-admin.server";
import { SideScroll } from "~/components/SideScroll";

export const meta: MetaFunction = () => [{ title: "ユーザー管理 | 管理画面" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { admin } = await requireAdminPage(request);
  const { q, page } = userListQuery(new URL(request.url).searchParams);
  return { q, page, me: admin.id, ...listUsers({ q, page }) };
}

export default function UserManagement() {
  const { q, page, pages, rows, matching, registered, me } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [deleting, setDeleting] = useState<{ id: number; email: string } | null>(null);
  const busyPath = navigation.formAction;
  const pageLink = (n: number) =>
    `?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) }).toString()}`;

  return (
    <section className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="text-2xl font-bold">ユーザー管理</h1>
      <p className="mt-1 text-zinc-600">
        登録ユーザー数:{" "}
        <span className="font-semibold" data-testid="user-count">
          {registered}
        </span>
        人
      </p>
      <Form method="get" role="search" className="mt-4 flex gap-2">
        <label htmlFor="q" className="sr-only">
          メールアドレスで検索
        </label>
        <input
          id="q"
          name="q"
          type="search"
          defaultValue={q}
          placeholder="メールアドレスで検索"
          className="field-input max-w-sm"
        />
        <button type="submit" className="btn-secondary shrink-0">
          検索
        </button>
      </Form>
      <ConfirmDialog
        open={deleting !== null}
        title="ユーザーを削除しますか？"
        action={`/admin/users/${deleting?.id ?? 0}/delete`}
        confirmLabel="削除する"
        onCancel={() => setDeleting(null)}
      >
        {deleting?.email} を削除します。この操作は取り消せません。
      </ConfirmDialog>

      {rows.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-zinc-300 bg-white py-12 text-center text-zinc-600">
          {q ? "該当するユーザーはいません" : "登録ユーザーはいません"}
        </p>
      ) : (
        <SideScroll label="ユーザーの一覧" className="mt-4 rounded-xl shadow-sm">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <thead className="border-b border-zinc-200 bg-zinc-50 text-zinc-600">
              <tr>
                <th className="px-4 py-3 font-medium">メールアドレス</th>
                <th className="px-4 py-3 font-medium">権限</th>
                <th className="px-4 py-3 font-medium">登録日</th>
                <th className="px-4 py-3 font-medium">最終ログイン</th>
                <th className="px-4 py-3 font-medium">削除</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {rows.map((user) => {
                const busy = busyPath === `/admin/users/${user.id}/delete`;
                return (
                  <tr key={user.id} aria-busy={busy || undefined} className={busy ? "opacity-50" : undefined}>
                    <td className="px-4 py-3 break-all">
                      {user.email}
                      {user.id === me ? <span className="ml-2 text-xs text-zinc-500">（あなた）</span> : null}
                    </td>
                    <td className="px-4 py-3">{user.isAdmin ? "管理者" : "一般"}</td>
                    <td className="px-4 py-3 whitespace-nowrap">{formatDate(new Date(user.createdAt))}</td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      {user.lastLoginAt ? formatDateTime(new Date(user.lastLoginAt)) : "なし"}
                    </td>
                    <td className="px-4 py-3">
                      <Link
                        to={`/admin/users/${user.id}/delete`}
                        onClick={(event) => {
                          event.preventDefault();
                          setDeleting({ id: user.id, email: user.email });
                        }}
                        aria-label={`${user.email}を削除`}
                        className="inline-flex items-center gap-1 rounded-lg border border-red-300 px-3 py-1.5 text-red-700 hover:bg-red-50"
                      >
                        {busy ? (
                          <span
                            className="h-3 w-3 animate-spin rounded-full border-2 border-red-700 border-t-transparent"
                            aria-hidden="true"
                          />
                        ) : null}
                        削除
                      </Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </SideScroll>
      )}
      {pages > 1 ? (
        <nav aria-label="ページ" className="mt-4 flex items-center justify-between text-sm">
          {page > 1 ? <Link to={pageLink(page - 1)}>← 前へ</Link> : <span />}
          <span>
            {page} / {pages}（{matching}件）
          </span>
          {page < pages ? <Link to={pageLink(page + 1)}>次へ →</Link> : <span />}
        </nav>
      ) : null}
    </section>
  );
}
