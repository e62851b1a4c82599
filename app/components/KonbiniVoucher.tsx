import { formatDateTime, formatYen } from "~/lib/rules/format";
import { HOSTED_VOUCHER_LABEL, konbiniSteps } from "~/lib/rules/konbini-steps";

/**
 * A konbini voucher as the customer needs it at the store: the amount, the confirmation number
 * and the deadline in Japan time, then the steps the voucher mail gives (konbiniSteps); with
 * Stripe, its hosted voucher with every store's payment number and steps.
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
      <h3 className="mt-4 text-sm font-bold text-zinc-800">お支払い方法</h3>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-zinc-700" data-testid="konbini-steps">
        {konbiniSteps({ hostedVoucher: voucherUrl !== null, due: formatDateTime(dueAt) }).map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {voucherUrl ? (
        <a href={voucherUrl} target="_blank" rel="noopener noreferrer" className="mt-4 btn-primary w-full">
          {HOSTED_VOUCHER_LABEL}
        </a>
      ) : null}
    </section>
  );
}
