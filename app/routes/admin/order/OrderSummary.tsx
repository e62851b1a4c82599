import { formatDateTime, formatYenShort } from "~/lib/rules/format";
import { PAYMENT_METHOD_NAMES } from "~/lib/rules/payment-terms";
import type { OrderPage } from "~/server/orders/admin/order-page.server";

const PAYMENT_STATUS_NAMES = {
  paid: "入金済み",
  awaiting: "入金待ち",
  expired: "期限切れ（未入金）",
} as const;

/** The order at a glance: when, who, which contest, how it was paid, and what it comes to after refunds. */
export function OrderSummary({ page }: { page: OrderPage }) {
  const { order, totals } = page;
  const refundedAny = totals.refunded + totals.inProgress > 0;
  const rows: [string, string][] = [
    ["注文日時", formatDateTime(order.createdAt)],
    ["お客様", `${order.customerName}（${order.customerEmail}）`],
    ["大会", order.contestName],
    [
      "お支払い",
      `${PAYMENT_METHOD_NAMES[order.paymentMethod]}・${PAYMENT_STATUS_NAMES[order.paymentStatus]}${
        order.paidAt ? `（${formatDateTime(order.paidAt)}）` : ""
      }`,
    ],
    // 入金確認（手動）: who marked it paid and when, and whether the payment service has said so since.
    ...(order.manualPayment
      ? ([
          [
            "入金確認",
            `管理者 ${order.manualPayment.by} が手動で確認（${formatDateTime(order.manualPayment.at)}）。${
              order.manualPayment.reportedAt
                ? `決済サービスの入金連絡: ${formatDateTime(order.manualPayment.reportedAt)}`
                : "決済サービスからの入金連絡はまだありません。"
            }`,
          ],
        ] as [string, string][])
      : []),
    ["対応状況", order.status],
    // A discounted order: what it lists at and each discount (the coupon by its code), then what was paid.
    ...(order.breakdown
      ? ([
          ["小計（通常価格）", `${formatYenShort(order.breakdown.listTotal)}（税込）`],
          ...order.breakdown.discounts.map((discount) => [
            discount.name,
            `−${formatYenShort(discount.amount)}`,
          ]),
        ] as [string, string][])
      : []),
    ["合計", `${formatYenShort(order.totalAmount)}（税込）`],
    ...(refundedAny
      ? ([
          ["返金済み", formatYenShort(totals.refunded)],
          ...(totals.inProgress > 0 ? [["返金手続き中", formatYenShort(totals.inProgress)]] : []),
          ["返金後の金額", `${formatYenShort(totals.net)}（税込）`],
        ] as [string, string][])
      : []),
  ];
  return (
    <dl className="mt-4 grid gap-x-6 gap-y-2 rounded-xl bg-white p-4 text-sm shadow-sm sm:grid-cols-[8rem_1fr] sm:p-6">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-semibold text-zinc-600">{label}</dt>
          <dd className="min-w-0 break-words" data-testid={`order-${label}`}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
