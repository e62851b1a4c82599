import { Form, Link } from "@remix-run/react";
import { formatDateTime, formatYenShort } from "~/lib/rules/format";
import type { CouponListEntry, CouponState } from "~/server/promotions/coupon-admin.server";

type Entry = Pick<
  CouponListEntry,
  | "id"
  | "code"
  | "label"
  | "kind"
  | "value"
  | "minTotal"
  | "validFrom"
  | "validUntil"
  | "contests"
  | "maxUses"
  | "maxUsesPerEmail"
  | "disabledAt"
  | "state"
  | "figures"
>;

const STATE_STYLES: Record<CouponState, string> = {
  有効: "bg-emerald-100 text-emerald-800",
  期限切れ: "bg-zinc-200 text-zinc-700",
  開始前: "bg-sky-100 text-sky-800",
  停止中: "bg-red-100 text-red-800",
  上限到達: "bg-amber-100 text-amber-900",
};

export const discountLabel = (coupon: Pick<Entry, "kind" | "value">) =>
  coupon.kind === "yen" ? `${formatYenShort(coupon.value)}引き` : `${coupon.value}%引き`;

const period = (coupon: Entry) =>
  !coupon.validFrom && !coupon.validUntil
    ? "期限なし"
    : `${coupon.validFrom ? formatDateTime(coupon.validFrom) : ""} 〜 ${coupon.validUntil ? formatDateTime(coupon.validUntil) : ""}`;

/** 0 is what the form calls 制限なし (its hint: 0 = 制限なし), so the list says so too, never 「最低 0円」. */
const minTotalText = (coupon: Entry) => (coupon.minTotal > 0 ? formatYenShort(coupon.minTotal) : "制限なし");

const contestNames = (coupon: Entry) =>
  coupon.contests === null
    ? "すべての大会"
    : coupon.contests.map((contest) => contest.name ?? "（削除された大会）").join("、");

const caps = (coupon: Entry) =>
  `全体 ${coupon.maxUses === null ? "上限なし" : `${coupon.maxUses}回`} ／ 1アドレス ${coupon.maxUsesPerEmail === null ? "上限なし" : `${coupon.maxUsesPerEmail}回`}`;

function StateBadge({ state }: { state: CouponState }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-bold whitespace-nowrap ${STATE_STYLES[state]}`}>
      {state}
    </span>
  );
}

/** 編集 (a link: the form below fills with the coupon) and 停止 / 再開 (a plain post). */
function Actions({ coupon }: { coupon: Entry }) {
  const disabled = coupon.disabledAt !== null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Link
        to={`/admin/coupons?edit=${coupon.id}`}
        className="btn-secondary px-3 py-1.5 text-sm"
        aria-label={`${coupon.code} を編集`}
      >
        編集
      </Link>
      <Form method="post" action="/admin/coupons">
        <input type="hidden" name="intent" value={disabled ? "enable" : "disable"} />
        <input type="hidden" name="couponId" value={coupon.id} />
        <button
          type="submit"
          className="btn-secondary px-3 py-1.5 text-sm"
          aria-label={`${coupon.code} を${disabled ? "再開" : "停止"}`}
        >
          {disabled ? "再開" : "停止"}
        </button>
      </Form>
    </div>
  );
}

function Figures({ coupon }: { coupon: Entry }) {
  const { uses, discountGiven, holds } = coupon.figures;
  return (
    <>
      {uses}件 ／ {formatYenShort(discountGiven)}
      {holds > 0 ? <span className="block text-xs text-zinc-500">決済中 {holds}件</span> : null}
    </>
  );
}

/**
 * The coupons as cards up to a wide screen and as a table from xl up, newest first: beside the
 * form a narrower table cut its codes and its conditions into pieces.
 */
export function CouponList({ coupons, editingId }: { coupons: Entry[]; editingId: number | null }) {
  if (coupons.length === 0)
    return (
      <p className="rounded-xl border border-dashed border-zinc-300 bg-white py-12 text-center text-zinc-600">
        クーポンはまだありません
      </p>
    );
  return (
    <>
      <ul className="space-y-3 xl:hidden" aria-label="クーポン一覧">
        {coupons.map((coupon) => (
          <li
            key={coupon.id}
            data-coupon={coupon.code}
            className={`rounded-xl bg-white p-4 shadow-sm ${coupon.id === editingId ? "ring-brand-500 ring-2" : ""}`}
          >
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-lg font-bold break-all">{coupon.code}</span>
              <StateBadge state={coupon.state} />
            </div>
            {coupon.label ? <p className="mt-0.5 text-sm text-zinc-600">{coupon.label}</p> : null}
            {/* break-keep: a line breaks at a space, never inside 上限なし or 割引額. */}
            <dl className="mt-3 grid grid-cols-[6.5rem_1fr] gap-x-3 gap-y-1 text-sm break-keep">
              <dt className="text-zinc-500">割引</dt>
              <dd>{discountLabel(coupon)}</dd>
              <dt className="text-zinc-500">最低金額</dt>
              <dd>{minTotalText(coupon)}</dd>
              <dt className="text-zinc-500">有効期間</dt>
              <dd>{period(coupon)}</dd>
              <dt className="text-zinc-500">対象の大会</dt>
              <dd className="break-words">{contestNames(coupon)}</dd>
              <dt className="text-zinc-500">利用上限</dt>
              <dd>{caps(coupon)}</dd>
              <dt className="text-zinc-500">利用 ／ 割引額</dt>
              <dd>
                <Figures coupon={coupon} />
              </dd>
            </dl>
            <div className="mt-3">
              <Actions coupon={coupon} />
            </div>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-xl bg-white shadow-sm xl:block">
        <table className="w-full text-left text-sm break-keep">
          <caption className="sr-only">クーポン一覧</caption>
          <thead className="border-b border-zinc-200 bg-zinc-50 text-xs text-zinc-600">
            <tr>
              <th className="px-3 py-2">コード</th>
              <th className="px-3 py-2">割引</th>
              <th className="px-3 py-2">条件</th>
              <th className="px-3 py-2">対象の大会</th>
              <th className="px-3 py-2">状態</th>
              <th className="px-3 py-2 text-right">利用 ／ 割引額</th>
              <th className="px-3 py-2">
                <span className="sr-only">操作</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {coupons.map((coupon) => (
              <tr
                key={coupon.id}
                data-coupon={coupon.code}
                className={`border-b border-zinc-100 align-top last:border-0 ${coupon.id === editingId ? "bg-brand-50" : ""}`}
              >
                <td className="px-3 py-2">
                  <span className="font-mono font-bold">{coupon.code}</span>
                  {coupon.label ? <span className="block text-xs text-zinc-500">{coupon.label}</span> : null}
                </td>
                <td className="px-3 py-2 whitespace-nowrap">{discountLabel(coupon)}</td>
                <td className="px-3 py-2 text-xs">
                  <span className="block">最低金額 {minTotalText(coupon)}</span>
                  <span className="block">{period(coupon)}</span>
                  <span className="block">{caps(coupon)}</span>
                </td>
                <td className="max-w-48 px-3 py-2 text-xs break-words">{contestNames(coupon)}</td>
                <td className="px-3 py-2">
                  <StateBadge state={coupon.state} />
                </td>
                <td className="px-3 py-2 text-right whitespace-nowrap">
                  <Figures coupon={coupon} />
                </td>
                <td className="px-3 py-2">
                  <Actions coupon={coupon} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
