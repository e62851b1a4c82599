import crypto from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ORDER_LIST_TABS } from "~/lib/rules/order-tabs";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { redirectWithToast } from "~/server/http/toast.server";
import {
  DOWNLOAD_PAGE_EXTENSION_DAYS,
  runOrderListPost,
} from "~/server/orders/admin/order-list-actions.server";
import {
  listOrderGroups,
  orderContestParam,
  orderListContests,
  orderListCounts,
  orderListQuery,
} from "~/server/orders/admin/order-list.server";
import { tabFilesOf } from "~/server/orders/admin/tab-files.server";
import { OrderGroup } from "./order-list/OrderGroup";
import { orderListHref, postAnchor } from "./order-list/order-list-link";
import { OrderListFilters } from "./order-list/OrderListFilters";
import { OrderListPaging } from "./order-list/OrderListPaging";
import { OrderListSummary } from "./order-list/OrderListSummary";

export const meta: MetaFunction = () => [{ title: "動画注文一覧 | 管理画面" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const { tab, q, page, contest, refund } = orderListQuery(new URL(request.url).searchParams);
  const list = listOrderGroups({ tab, q, page, contest, refund });
  return {
    tab,
    q,
    page,
    contest,
    refund,
    // お断り's refund key: one per drawing of the list, made the line's own by its id.
    refundKey: crypto.randomUUID(),
    contestParam: orderContestParam(contest),
    contestOptions: orderListContests(contest),
    counts: orderListCounts(contest),
    extensionDays: DOWNLOAD_PAGE_EXTENSION_DAYS,
    ...list,
    // 納品 offers the video already matched in 納品ファイル instead of asking for it again.
    tabFiles:
      tab === "pending"
        ? tabFilesOf(list.groups.filter((group) => group.paymentStatus === "paid").map((group) => group.id))
        : {},
  };
}

/** Every button of the list posts here; the steps, one per intent, are in order-list-actions.server.ts. */
export async function action({ request }: ActionFunctionArgs) {
  const { admin } = await requireAdminPage(request);
  const back = `/admin/orders${new URL(request.url).search}`;
  const outcome = await runOrderListPost(request, admin.id);
  if ("toast" in outcome) {
    const to = outcome.about ? `${back}#${postAnchor(outcome.about)}` : back;
    return redirectWithToast(request, to, outcome.toast, { status: 303 });
  }
  return data(outcome.error, { status: outcome.status });
}

export default function OrderList() {
  const {
    tab,
    q,
    page,
    contest,
    refund,
    refundKey,
    contestParam,
    contestOptions,
    counts,
    extensionDays,
    pages,
    total,
    groups,
    tabFiles,
  } = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>();
  const place = { tab, contestParam, q, page, refund };
  // Which order's form is on its way (its post and the reload after it), for that order's aria-busy.
  const busyOrder = useNavigation().formData?.get("orderId");

  return (
    <section className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="text-2xl font-bold">動画注文一覧</h1>
      <OrderListFilters place={place} contestOptions={contestOptions} />
      <OrderListSummary contest={contest} counts={counts} />
      <p className="mt-3 text-sm text-zinc-600">{total}件</p>

      {groups.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-zinc-300 bg-white py-12 text-center text-zinc-600">
          {refund ? `${ORDER_LIST_TABS[tab]}で返金のある` : ORDER_LIST_TABS[tab]}の注文はありません
        </p>
      ) : (
        <ul className="mt-4 space-y-4">
          {groups.map((group) => (
            <OrderGroup
              key={group.id}
              group={group}
              pending={tab === "pending"}
              action={`/admin/orders${orderListHref(place)}`}
              busy={String(group.id) === busyOrder}
              deliverError={error && "urls" in error ? error : null}
              refusalError={error && "refusalMessage" in error ? error : null}
              extensionDays={extensionDays}
              refundKey={refundKey}
              tabFiles={tabFiles}
            />
          ))}
        </ul>
      )}
      <OrderListPaging place={place} pages={pages} />
    </section>
  );
}
