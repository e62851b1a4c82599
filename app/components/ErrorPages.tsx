import { Link, useLocation } from "@remix-run/react";
import { ProblemMark } from "~/components/icons";

export function NotFoundPage() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <p className="text-6xl font-bold text-zinc-300">404</p>
      <h1 className="mt-4 text-2xl font-bold">Page Not Found</h1>
      <p className="mt-3 text-zinc-600">お探しのページは見つかりませんでした。URL をお確かめください。</p>
      <Link to="/" className="mt-8 btn-primary">
        ホームへ戻る
      </Link>
    </section>
  );
}

const REFUSED_TITLES: Record<number, string> = {
  413: "送信内容が大きすぎます",
  503: "ただいまご利用いただけません",
};

/**
 * A request the shop refused before reading it (a post from another site, a body too large), or
 * could not write for lack of disk space (503), with its reason.
 */
export function RefusedPage({ status, message }: { status: number; message: string }) {
  return (
    <section role="alert" className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <p className="text-6xl font-bold text-zinc-300">{status}</p>
      <h1 className="mt-4 text-2xl font-bold">{REFUSED_TITLES[status] ?? "この操作は受け付けられません"}</h1>
      <p className="mt-3 text-zinc-600">{message}</p>
      <Link to="/" className="mt-8 btn-primary">
        ホームへ戻る
      </Link>
    </section>
  );
}

/** The full-page fallback for any uncaught error. Both buttons are links, so they work without JS. */
export function ErrorFallback() {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <section role="alert" className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <ProblemMark className="h-14 w-14 text-brand-600" />
      <h1 className="mt-4 text-2xl font-bold">エラーが発生しました</h1>
      <p className="mt-3 text-zinc-600">
        申し訳ありません。一時的な問題が起きた可能性があります。もう一度お試しください。
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={here} replace className="btn-primary">
          再試行
        </Link>
        <a
          href={here}
          className="btn-secondary"
          onClick={(event) => {
            event.preventDefault();
            window.location.reload();
          }}
        >
          ページをリロード
        </a>
      </div>
    </section>
  );
}
