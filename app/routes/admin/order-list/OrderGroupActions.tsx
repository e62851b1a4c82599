import { formatDateTime } from "~/lib/rules/format";
import type { OrderGroup } from "~/server/orders/admin/order-list.server";

/**
 * The order's buttons under its lines, by where it stands: unpaid, it only shows its payment;
 * open, 完了 and 納品; handled, its download page with 期限を延長 and 納品メールを再送信.
 */
export function OrderGroupActions({
  group,
  pending,
  extensionDays,
}: {
  group: OrderGroup;
  pending: boolean;
  /** What 期限を延長 adds to the download page, in days. */
  extensionDays: number;
}) {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      {group.paymentStatus !== "paid" ? (
        <PaymentBadge status={group.paymentStatus} dueAt={group.paymentDueAt} />
      ) : pending ? (
        <>
          <button type="submit" name="intent" value="complete" formNoValidate className="btn-secondary">
            完了
          </button>
          <button type="submit" name="intent" value="deliver" formNoValidate className="btn-primary">
            納品
          </button>
        </>
      ) : (
        <>
          <span className="rounded-full bg-emerald-100 px-3 py-1 text-xs font-bold text-emerald-800">
            {group.status === "納品済み" ? "納品完了" : "対応済み"}
          </span>
          {group.downloadPage ? (
            <>
              <a
                href={`/download/${group.downloadPage.id}`}
                target="_blank"
                rel="noopener noreferrer"
                className="text-sm text-brand-700 underline"
              >
                ダウンロードページ
              </a>
              <span className="text-xs text-zinc-500">
                期限 {formatDateTime(new Date(group.downloadPage.expiresAt))}
              </span>
              <button
                type="submit"
                name="intent"
                value="extend"
                className="btn-secondary min-h-9 py-1 text-sm"
              >
                期限を{extensionDays}日延長
              </button>
              <button
                type="submit"
                name="intent"
                value="resend"
                className="btn-secondary min-h-9 py-1 text-sm"
              >
                納品メールを再送信
              </button>
            </>
          ) : null}
        </>
      )}
    </div>
  );
}

/** A konbini order whose money is not in: waiting until its deadline, or expired unpaid. */
function PaymentBadge({ status, dueAt }: { status: "awaiting" | "expired"; dueAt: Date | null }) {
  return status === "awaiting" ? (
    <span className="rounded-full bg-amber-100 px-3 py-1 text-xs font-bold text-amber-900">
      入金待ち（コンビニ払い・期限 {dueAt ? formatDateTime(dueAt) : "-"}）
    </span>
  ) : (
    <span className="rounded-full bg-zinc-200 px-3 py-1 text-xs font-bold text-zinc-700">
      期限切れ（未入金のため取り消し）
    </span>
  );
}
