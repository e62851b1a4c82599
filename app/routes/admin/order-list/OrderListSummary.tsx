import { Link } from "@remix-run/react";
import type { OrderContestFilter, OrderListCounts } from "~/server/orders/admin/order-list.server";

/**
 * The counts of the contest shown (or of every contest), and for one contest the way to its
 * 制作リスト and 納品ファイル, where the list's work continues.
 */
export function OrderListSummary({
  contest,
  counts,
}: {
  contest: OrderContestFilter;
  counts: OrderListCounts;
}) {
  return (
    <div
      aria-label="件数"
      role="region"
      className="mt-4 flex flex-wrap items-center justify-between gap-x-6 gap-y-3 rounded-xl bg-white px-4 py-3 shadow-sm"
    >
      <div className="min-w-0">
        <p className="text-sm font-semibold break-words">
          {contest.kind === "contest"
            ? contest.name
            : contest.kind === "deleted"
              ? "削除された大会"
              : "すべての大会"}
        </p>
        <dl className="mt-1 flex flex-wrap gap-x-5 gap-y-1 text-sm">
          {(
            [
              ["未対応", `${counts.pending}件`, "pending"],
              ["対応済み", `${counts.handled}件`, "handled"],
              ["入金待ち", `${counts.awaiting}件`, "awaiting"],
              ["ファイル未設定の明細", `${counts.linesWithoutFile}本`, "lines-without-file"],
            ] as const
          ).map(([label, value, id]) => (
            <div key={id} className="flex items-baseline gap-1.5">
              <dt className="text-zinc-600">{label}</dt>
              <dd className="font-bold" data-testid={`count-${id}`}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
      </div>
      {contest.kind === "contest" ? (
        <nav aria-label="この大会の作業" className="flex flex-wrap gap-2">
          <Link to={`/admin/contest/${contest.id}/production`} className="btn-secondary min-h-9 py-1 text-sm">
            制作リスト
          </Link>
          <Link to={`/admin/contest/${contest.id}/delivery`} className="btn-secondary min-h-9 py-1 text-sm">
            納品ファイル
          </Link>
        </nav>
      ) : null}
    </div>
  );
}
