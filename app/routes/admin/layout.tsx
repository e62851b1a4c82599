import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { requireAdminPage } from "~/server/auth/admin-session.server";

/** Every /admin page sits behind this check, on the server. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { admin } = await requireAdminPage(request);
  return { email: admin.email };
}

const TABS = [
  ["/admin", "大会管理"],
  ["/admin/orders", "動画注文一覧"],
  ["/admin/sales", "売上集計"],
  ["/admin/users", "ユーザー管理"],
] as const;

export default function AdminLayout() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <div className="min-h-dvh bg-zinc-100 print:min-h-0 print:bg-white">
      <header className="border-b border-zinc-200 bg-zinc-900 text-white print:hidden">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <Link to="/admin" className="font-bold">
            管理画面 <span className="font-normal text-zinc-400">コンテスト動画ショップ</span>
          </Link>
          <div className="flex items-center gap-3 text-sm">
            <span className="max-w-[14rem] truncate text-zinc-300" title={email}>
              {email}
            </span>
            <Form method="post" action="/admin/logout">
              <button
                type="submit"
                className="rounded-lg border border-zinc-600 px-3 py-1.5 hover:bg-zinc-800"
              >
                ログアウト
              </button>
            </Form>
          </div>
        </div>
        <nav aria-label="管理メニュー" className="mx-auto max-w-7xl overflow-x-auto px-2">
          <ul className="flex gap-1 text-sm whitespace-nowrap">
            {TABS.map(([to, label]) => (
              <li key={to}>
                <NavLink
                  to={to}
                  end
                  className={({ isActive }) =>
                    `block rounded-t-lg px-4 py-2.5 ${isActive ? "bg-zinc-100 font-semibold text-zinc-900" : "text-zinc-300 hover:text-white"}`
                  }
                >
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <Outlet />
      {/* Floating on wide screens; on phones a row after the content, so it never covers a table or a button. Not on paper. */}
      <nav
        aria-label="その他の管理機能"
        className="mx-auto flex max-w-7xl flex-wrap justify-end gap-2 px-4 pb-6 text-sm xl:fixed xl:right-4 xl:bottom-4 xl:z-20 xl:flex-col xl:p-0 print:hidden"
      >
        <Link
          to="/admin/security"
          className="rounded-full bg-zinc-900 px-4 py-2.5 font-semibold text-white shadow-lg hover:bg-zinc-700"
        >
          セキュリティ監視
        </Link>
        <Link
          to="/admin/two-factor-setup"
          className="rounded-full bg-white px-4 py-2.5 font-semibold text-zinc-900 shadow-lg ring-1 ring-zinc-300 hover:bg-zinc-50"
        >
          2段階認証の設定
        </Link>
        <Link
          to="/"
          className="rounded-full bg-white px-4 py-2.5 font-semibold text-zinc-900 shadow-lg ring-1 ring-zinc-300 hover:bg-zinc-50"
        >
          ショップを表示
        </Link>
      </nav>
    </div>
  );
}
