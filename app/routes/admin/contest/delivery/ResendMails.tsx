import { Form } from "@remix-run/react";

/** Delivered orders whose file was replaced after their mail: one 再送信 button each. */
export function ResendMails({
  orders,
}: {
  orders: { id: number; orderNumber: string; customerName: string }[];
}) {
  if (orders.length === 0) return null;
  return (
    <section
      aria-labelledby="resend-title"
      className="rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:p-5"
    >
      <h2 id="resend-title" className="font-bold text-amber-900">
        差し替えた注文への納品メール
      </h2>
      <p className="mt-1 text-sm text-amber-900">
        ファイルを差し替えた納品済みの注文です。お客様に知らせる場合は納品メールを再送信してください（ダウンロード回数はリセット済みです）。
      </p>
      <ul className="mt-3 space-y-2">
        {orders.map((order) => (
          <li key={order.id} className="flex flex-wrap items-center gap-3 rounded-xl bg-white p-3 text-sm">
            <span className="flex-1">
              注文番号 {order.orderNumber}・{order.customerName} 様
            </span>
            <Form method="post">
              <input type="hidden" name="intent" value="resend" />
              <input type="hidden" name="orderId" value={order.id} />
              <button type="submit" className="btn-secondary min-h-9 py-1 text-sm">
                納品メールを再送信
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
