import { formatDateTime, formatYen } from "~/lib/rules/format";

/**
 * A konbini voucher as the customer needs it at the store: the amount, the confirmation number
 * and the deadline in Japan time; with Stripe, its hosted voucher with every store's steps.
 */
export function KonbiniVoucher({
  confirmationNumber,
  dueAt,
  voucherUrl,
  total,
}: {
  confirmationNumber: string | null;
  dueAt: number;
  voucherUrl: string | null;
  total: number;
}) {
  return (
    <section
      aria-label="コンビニでのお支払い"
      className="mt-4 rounded-2xl border-2 border-amber-300 bg-white p-4 text-left"
    >
      <h2 className="font-bold text-amber-950">コンビニでお支払いください</h2>
      <dl className="mt-3 grid grid-cols-[7rem_1fr] gap-y-2 text-sm">
        <dt className="text-zinc-600">お支払い金額</dt>
        <dd className="font-bold">{formatYen(total)}</dd>
        {confirmationNumber ? (
          <>
            <dt className="text-zinc-600">確認番号</dt>
            <dd className="font-mono text-xl font-bold tracking-widest" data-testid="konbini-number">
              {confirmationNumber}
            </dd>
          </>
        ) : null}
        <dt className="text-zinc-600">お支払い期限</dt>
        <dd className="font-bold" data-testid="konbini-due">
          {formatDateTime(dueAt)}（日本時間）
        </dd>
      </dl>
      {voucherUrl ? (
        <a href={voucherUrl} target="_blank" rel="noopener noreferrer" className="mt-4 btn-primary w-full">
          払込票を開く（店舗ごとのお支払い方法）
        </a>
      ) : (
        <p className="mt-3 text-sm text-zinc-700">
          店頭の端末またはレジで「インターネット代金支払い」を選び、確認番号をお伝えください。
        </p>
      )}
      <p className="mt-3 text-xs text-zinc-600">
        期限までにお支払いがない場合、ご注文は自動的に取り消されます（料金はかかりません）。
      </p>
    </section>
  );
}
