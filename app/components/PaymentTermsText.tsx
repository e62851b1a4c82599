import type { PaymentTerms } from "~/lib/rules/payment-terms";

/** Lines that differ by payment method: one reads as text, several as a list. */
export function TermLines({ lines }: { lines: string[] }) {
  if (lines.length === 1) return <>{lines[0]}</>;
  return (
    <ul className="list-none space-y-1 p-0">
      {lines.map((line) => (
        <li key={line} className="m-0 p-0">
          {line}
        </li>
      ))}
    </ul>
  );
}

/**
 * The facts Japanese law asks to show on the final confirmation screen (特定商取引法 第12条の6):
 * how and when to pay, when the videos come, and what cancelling can and cannot do, for the
 * methods `/payment` offers.
 */
export function FinalConfirmationNotice({ terms }: { terms: PaymentTerms }) {
  return (
    <section
      aria-label="ご注文前にご確認ください"
      className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm leading-relaxed text-amber-950"
    >
      <h2 className="font-bold">ご注文前にご確認ください</h2>
      <dl className="mt-2 grid gap-x-4 gap-y-2 sm:grid-cols-[8rem_1fr]">
        <dt className="font-semibold">お支払い方法</dt>
        <dd>
          <TermLines lines={terms.methodDetails} />
        </dd>
        <dt className="font-semibold">お支払い時期</dt>
        <dd>
          <TermLines lines={terms.paymentTiming} />
        </dd>
        <dt className="font-semibold">お届け時期</dt>
        <dd>
          <TermLines lines={terms.delivery} />
        </dd>
        <dt className="font-semibold">キャンセル・返品</dt>
        <dd>
          <TermLines lines={[...terms.cancellation, terms.refundSummary]} />
        </dd>
      </dl>
    </section>
  );
}
