import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { CURRENT_TAB_IN_VIEW, useCurrentTabInView } from "~/lib/hooks/use-current-tab-in-view";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { unrefundedStrayPaymentCount } from "~/server/refunds/stray-payment-ledger.server";

/**
 * Every /admin page sits behind this check, on the server. The stray payments not yet refunded
 * are counted here (one small indexed query), so money waiting to go back shows on every page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { admin } = await requireAdminPage(request);
  return { email: admin.email, unrefundedStrayPayments: unrefundedStrayPaymentCount() };
}

const TABS = [
  ["/admin", "大会管理"],
  ["/admin/orders", "動画注文一覧"],
  ["/admin/sales", "売上集計"],
  ["/admin/coupons", "クーポン管理"],
  ["/admin/users", "ユーザー管理"],
  ["/admin/stray-payments", "注文にならなかった決済"],
] as const;

/**
 * The admin's own pages and the way back to the shop. They sit in the header, in the page's flow:
 * floating buttons covered 「選択した選手を削除」, the upload status and the sales chart.
 */
const ACCOUNT_LINKS = [
  ["/admin/security", "セキュリティ監視"],
  ["/admin/two-factor-setup", "2段階認証の設定"],
  ["/", "ショップを表示"],
] as const;

export default function AdminLayout() {
  const { email, unrefundedStrayPayments } = useLoaderData<typeof loader>();
  const tabBar = useCurrentTabInView<HTMLElement>();
  return (
    // pb-32: the page ends with room for a toast (the bottom corner), so the last of it scrolls clear.
    <div className="min-h-dvh bg-zinc-100 pb-32 print:min-h-0 print:bg-white print:pb-0">
      <header className="border-b border-zinc-200 bg-zinc-900 text-white print:hidden">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2.5">
          <Link to="/admin" className="mr-auto font-bold">
            管理画面{" "}
            <span className="hidden font-normal text-zinc-400 sm:inline">コンテスト動画ショップ</span>
          </Link>
          {/* Under the title on phones and tablets, beside it once there is room for one line. */}
          <nav aria-label="その他の管理機能" className="order-last w-full lg:order-none lg:w-auto">
            <ul className="-mx-2 flex flex-wrap text-sm">
              {ACCOUNT_LINKS.map(([to, label]) => (
                <li key={to}>
                  <NavLink
                    to={to}
                    end
                    className={({ isActive }) =>
                      `block rounded-lg px-2 py-1.5 underline-offset-4 hover:bg-zinc-800 hover:text-white ${isActive ? "font-semibold text-white underline" : "text-zinc-300"}`
                    }
                  >
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="flex min-w-0 items-center gap-3 text-sm">
            <span className="max-w-[14rem] min-w-0 truncate text-zinc-300" title={email}>
              {email}
            </span>
            <Form method="post" action="/admin/logout">
              <button
                type="submit"
                className="rounded-lg border border-zinc-600 px-3 py-1.5 whitespace-nowrap hover:bg-zinc-800"
              >
                ログアウト
              </button>
            </Form>
          </div>
        </div>
        {/* relative: the tabs' screen-reader text (absolutely positioned) stays inside this scrolling
            menu; without it, it widened every admin page on a phone. There the tabs are wider than
            the screen: they fade out at an edge while more lie beyond it (tab-fades). */}
        <nav
          ref={tabBar}
          aria-label="管理メニュー"
          className="relative mx-auto max-w-7xl overflow-x-auto md:px-2"
        >
          <ul className="flex gap-1 text-sm whitespace-nowrap [--tab-fade:var(--color-zinc-900)] max-md:tab-fades">
            {TABS.map(([to, label]) => (
              <li key={to}>
                <NavLink
                  to={to}
                  end
                  className={({ isActive }) =>
                    `block rounded-t-lg px-4 py-2.5 ${isActive ? `bg-zinc-100 font-semibold text-zinc-900 ${CURRENT_TAB_IN_VIEW}` : "text-zinc-300 hover:text-white"}`
                  }
                >
                  {label}
                  {to === "/admin/stray-payments" && unrefundedStrayPayments > 0 ? (
                    <span className="ml-1.5 rounded-full bg-red-600 px-1.5 py-0.5 text-xs font-bold text-white">
                      {unrefundedStrayPayments}
                      <span className="sr-only">件 未返金</span>
                    </span>
                  ) : null}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <Outlet />
    </div>
  );
}
