import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  NavLink,
  Outlet,
  useLoaderData,
  useLocation,
  useParams,
  useRouteError,
} from "@remix-run/react";
import { CURRENT_TAB_IN_VIEW, useCurrentTabInView } from "~/lib/hooks/use-current-tab-in-view";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { contestSlug } from "~/lib/rules/slug";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.contest.name ?? "大会編集"} | 管理画面` },
];

/** The frame of the contest edit page: which contest, its publication, and the tabs (each its own URL). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  return {
    contest: {
      id: contest.id,
      name: contest.name,
      sitePublicStatus: contest.sitePublicStatus,
      videoPublished: contest.videoPublished,
      scheduledPublishDate: contest.scheduledPublishDate?.toISOString() ?? null,
      slug: contestSlug(contest.name),
    },
  };
}

export default function ContestEditLayout() {
  const { contest } = useLoaderData<typeof loader>();
  const base = `/admin/contest/${contest.id}`;
  const tabBar = useCurrentTabInView<HTMLElement>();
  const tabs = [
    [base, "選手管理"],
    [`${base}/production`, "制作リスト"],
    [`${base}/cover`, "カバー画像"],
    [`${base}/content`, "コンテンツ管理"],
    [`${base}/delivery`, "納品ファイル"],
    [`${base}/settings`, "大会設定"],
  ] as const;
  return (
    <section className="mx-auto max-w-7xl px-4 py-6 print:max-w-none print:p-0">
      {/* On paper only the tab's own content is printed (the 制作リスト brings its own heading). */}
      <p className="text-sm print:hidden">
        <Link to="/admin" className="text-brand-700 underline">
          ← 大会管理へ戻る
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 print:hidden">
        <h1 className="text-2xl font-bold break-words">{contest.name}</h1>
        <PublicationBadge status={contest.sitePublicStatus} />
        {contest.videoPublished ? (
          <a
            href={`/order-form/${contest.slug}`}
            target="_blank"
            rel="noopener noreferrer"
            className="text-sm text-brand-700 underline"
          >
            ショップの注文フォームを開く
          </a>
        ) : null}
      </div>
      <nav
        ref={tabBar}
        aria-label="大会編集メニュー"
        className="mt-5 overflow-x-auto border-b border-zinc-300 print:hidden"
      >
        {/* Wider than a phone: the tabs fade out at an edge while more lie beyond it. */}
        <ul className="flex gap-1 text-sm whitespace-nowrap [--tab-fade:var(--color-zinc-100)] max-md:tab-fades">
          {tabs.map(([to, label]) => (
            <li key={to}>
              <NavLink
                to={to}
                end
                className={({ isActive }) =>
                  `block rounded-t-lg border border-b-0 px-4 py-2.5 ${isActive ? `border-zinc-300 bg-white font-semibold text-zinc-900 ${CURRENT_TAB_IN_VIEW}` : "border-transparent text-zinc-600 hover:text-zinc-900"}`
                }
              >
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6 print:mt-0">
        <Outlet />
      </div>
    </section>
  );
}

function PublicationBadge({ status }: { status: string }) {
  const style =
    status === "公開"
      ? "bg-emerald-100 text-emerald-800"
      : status === "公開予約"
        ? "bg-sky-100 text-sky-800"
        : "bg-zinc-200 text-zinc-700";
  return <span className={`rounded-full px-3 py-1 text-xs font-bold ${style}`}>{status}</span>;
}

/** 大会が見つかりません for an unknown id; anything else is a load failure with a reload. */
export function ErrorBoundary() {
  const error = useRouteError();
  const params = useParams();
  const location = useLocation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A save that found the disk full (503) says so, as the root's page does.
  const outOfSpace = isRouteErrorResponse(error) && error.status === 503 && typeof error.data === "string";
  return (
    <section role="alert" className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-xl font-bold">
        {notFound
          ? `大会が見つかりません (${params.id ?? ""})`
          : outOfSpace
            ? "ただいま保存できません"
            : "大会データの読み込みに失敗しました"}
      </h1>
      {outOfSpace ? <p className="mt-3 text-zinc-600">{String(error.data)}</p> : null}
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {notFound ? null : (
          <a href={`${location.pathname}${location.search}`} className="btn-primary">
            再読み込み
          </a>
        )}
        <Link to="/admin" className="btn-secondary">
          大会管理へ戻る
        </Link>
      </div>
    </section>
  );
}
