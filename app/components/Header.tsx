import { Form } from "@remix-run/react";
import { ChromeLink, useChromeLinkClicks } from "./ChromeLinks";
import type { CurrentUser } from "~/server/auth/users.server";
import { SHOP_NAME } from "~/lib/rules/shop";

/**
 * Menus are <details> elements so they open and close without JavaScript.
 * The account menu shows what the server knows: logged in or not.
 */
export function Header({ user }: { user: Pick<CurrentUser, "email" | "isAdmin"> | null }) {
  const onClick = useChromeLinkClicks();
  return (
    // The links' clicks bubble here (see ChromeLinks): not an interactive element of its own.
    <header
      onClick={onClick}
      className="sticky top-0 z-30 border-b border-zinc-200 bg-white/95 backdrop-blur"
    >
      <div className="mx-auto grid h-14 max-w-6xl grid-cols-[auto_1fr_auto] items-center gap-2 px-3 sm:px-4">
        <details className="group relative">
          <summary
            className="flex h-10 w-10 cursor-pointer list-none items-center justify-center rounded-lg text-zinc-700 hover:bg-zinc-100 [&::-webkit-details-marker]:hidden"
            aria-label="お問い合わせメニュー"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-6 w-6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
            </svg>
          </summary>
          <nav
            aria-label="お問い合わせ"
            className="absolute left-0 mt-2 w-56 rounded-xl border border-zinc-200 bg-white p-2 shadow-lg"
          >
            <MenuLink to="/contact">お問い合わせ</MenuLink>
            <MenuLink to="/order-lookup">注文状況の確認</MenuLink>
            <MenuLink to="/email-support">メールが届かない場合</MenuLink>
            <MenuLink to="/about">当サイトについて</MenuLink>
          </nav>
        </details>

        <ChromeLink
          to="/"
          className="min-w-0 justify-self-center truncate text-[15px] font-bold text-zinc-900 sm:text-lg sm:tracking-wide"
        >
          <span className="mr-1 hidden rounded bg-brand-600 px-1.5 py-0.5 align-middle text-xs font-bold text-white sm:inline-block">
            動画
          </span>
          {SHOP_NAME}
        </ChromeLink>

        {user ? (
          <details className="relative">
            <summary
              className="flex h-10 cursor-pointer list-none items-center gap-1 rounded-lg px-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 [&::-webkit-details-marker]:hidden"
              aria-label="アカウントメニュー"
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="h-6 w-6"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <circle cx="12" cy="8" r="4" />
                <path d="M4 21c0-4 4-6 8-6s8 2 8 6" strokeLinecap="round" />
              </svg>
            </summary>
            <div className="absolute right-0 mt-2 w-64 rounded-xl border border-zinc-200 bg-white p-2 shadow-lg">
              <p className="truncate px-3 py-2 text-xs text-zinc-500" title={user.email}>
                {user.email}
              </p>
              {user.isAdmin ? <MenuLink to="/admin">管理画面</MenuLink> : null}
              <MenuLink to="/account">アカウント</MenuLink>
              <MenuLink to="/purchase-history">購入履歴</MenuLink>
              <Form method="post" action="/logout">
                <button
                  type="submit"
                  className="block w-full rounded-lg px-3 py-2 text-left text-sm text-zinc-800 hover:bg-zinc-100"
                >
                  ログアウト
                </button>
              </Form>
            </div>
          </details>
        ) : (
          <ChromeLink
            to="/login"
            className="rounded-lg border border-zinc-300 px-2.5 py-2 text-xs font-semibold whitespace-nowrap text-zinc-800 hover:bg-zinc-100 sm:px-3 sm:text-sm"
          >
            ログイン/新規登録
          </ChromeLink>
        )}
      </div>
    </header>
  );
}

function MenuLink({ to, children }: { to: `/${string}`; children: string }) {
  return (
    <ChromeLink to={to} className="block rounded-lg px-3 py-2 text-sm text-zinc-800 hover:bg-zinc-100">
      {children}
    </ChromeLink>
  );
}
