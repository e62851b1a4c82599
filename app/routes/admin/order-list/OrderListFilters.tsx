import { Form, Link } from "@remix-run/react";
import { DELETED_CONTESTS, ORDER_LIST_TABS, type OrderTab } from "~/lib/rules/order-tabs";
import type { orderListContests } from "~/server/orders/admin/order-list.server";
import { orderListHref, type OrderListPlace } from "./order-list-link";

/** The tabs (未対応・対応済み・入金待ち) and the contest filter, 返金あり and the search, above the list. */
export function OrderListFilters({
  place,
  contestOptions,
}: {
  place: OrderListPlace;
  contestOptions: ReturnType<typeof orderListContests>;
}) {
  const { tab, contestParam, q, refund } = place;
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <nav aria-label="対応状況" className="flex gap-1 rounded-lg bg-zinc-200 p-1 text-sm">
        {(Object.keys(ORDER_LIST_TABS) as OrderTab[]).map((key) => (
          <Link
            key={key}
            to={orderListHref(place, { tab: key, page: "1" })}
            aria-current={tab === key ? "page" : undefined}
            className={`rounded-md px-4 py-1.5 ${tab === key ? "bg-white font-semibold shadow-sm" : "text-zinc-600"}`}
          >
            {ORDER_LIST_TABS[key]}
          </Link>
        ))}
      </nav>
      <Form method="get" role="search" className="flex w-full flex-wrap gap-2 sm:w-auto">
        <input type="hidden" name="tab" value={tab} />
        <div className="flex w-full items-center gap-2 sm:w-auto">
          <label htmlFor="order-contest" className="shrink-0 text-sm font-semibold text-zinc-800">
            大会
          </label>
          <select
            id="order-contest"
            name="contest"
            // Remounted when the filter changes, so Back and links never leave a stale choice shown.
            key={contestParam}
            defaultValue={contestParam}
            // With JavaScript the list follows the choice at once; without it, 検索 sends it.
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
            className="field-input min-w-0 flex-1 sm:w-64 sm:flex-none"
          >
            <option value="">すべての大会</option>
            {contestOptions.contests.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
            {contestOptions.deleted ? <option value={DELETED_CONTESTS}>削除された大会</option> : null}
          </select>
        </div>
        <div className="flex w-full gap-2 sm:w-auto">
          <label htmlFor="order-q" className="sr-only">
            注文番号・メールアドレス・お名前で検索
          </label>
          <input
            id="order-q"
            name="q"
            type="search"
            defaultValue={q}
            placeholder="注文番号・メール・お名前"
            className="field-input min-w-0 flex-1 sm:w-64 sm:flex-none"
          />
          <label className="flex shrink-0 cursor-pointer items-center gap-1.5 text-sm font-semibold text-zinc-800">
            <input
              type="checkbox"
              name="refund"
              value="1"
              // Remounted when the filter changes, as the select is.
              key={String(refund)}
              defaultChecked={refund}
              // With JavaScript the list follows at once; without it, 検索 sends it.
              onChange={(event) => event.currentTarget.form?.requestSubmit()}
              className="h-4 w-4 accent-brand-600"
            />
            返金あり
          </label>
          <button type="submit" className="btn-secondary shrink-0">
            検索
          </button>
        </div>
      </Form>
    </div>
  );
}
