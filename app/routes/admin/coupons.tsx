import type { SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { positiveId } from "~/lib/rules/params";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { readForm } from "~/server/http/form.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { couponContestChoices, listCoupons } from "~/server/promotions/coupon-admin.server";
import { couponsStep, COUPONS_PATH } from "~/server/promotions/coupon-admin-step.server";
import { CouponForm } from "./coupons/CouponForm";
import { CouponList } from "./coupons/CouponList";

export const meta: MetaFunction = () => [{ title: "クーポン管理 | 管理画面" }];

/**
 * クーポン管理: the list with each coupon's figures, and one form that creates a coupon or, with
 * `?edit=<id>` (a plain link, so it works without JS), changes one.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const coupons = listCoupons();
  const editId = positiveId(new URL(request.url).searchParams.get("edit"));
  const editing = coupons.find((coupon) => coupon.id === editId) ?? null;
  return { coupons, editing, contests: couponContestChoices() };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const outcome = couponsStep(await readForm(request));
  if (outcome.done) return redirectWithToast(request, COUPONS_PATH, outcome.toast, { status: 303 });
  return data<SubmissionResult<string[]>>(outcome.reply, { status: outcome.status });
}

export default function Coupons() {
  const { coupons, editing, contests } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <section className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="text-2xl font-bold">クーポン管理</h1>
      <p className="mt-1 text-sm text-zinc-600">
        お客様が注文確認画面で入力するクーポンコードです。日時はすべて日本時間です。
      </p>
      <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start">
        <div className="min-w-0">
          <CouponList coupons={coupons} editingId={editing?.id ?? null} />
        </div>
        <div className="rounded-xl bg-white p-4 shadow-sm sm:p-5 lg:sticky lg:top-4">
          <div className="mb-3 flex items-center justify-between gap-3">
            <h2 className="text-lg font-bold">
              {editing ? `クーポンを編集（${editing.code}）` : "新しいクーポン"}
            </h2>
            {editing ? (
              <Link to="/admin/coupons" className="text-sm text-brand-700 underline">
                編集をやめる
              </Link>
            ) : null}
          </div>
          <CouponForm
            // A new form once a coupon is added (the newest id changes) or another is opened;
            // a refused post keeps the same form, with what was typed.
            key={editing ? `edit-${editing.id}` : `new-after-${coupons[0]?.id ?? 0}`}
            editing={editing}
            contests={contests}
            lastResult={lastResult ?? null}
          />
        </div>
      </div>
    </section>
  );
}
