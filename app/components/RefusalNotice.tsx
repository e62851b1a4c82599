/**
 * An order line marked お断り, as the customer sees it: not made, the shop's note, the refund to
 * follow (or, once `refunded`, the line's refund beside it says where it stands).
 */
export function RefusalNotice({ note, refunded = false }: { note: string; refunded?: boolean }) {
  return (
    <div className="mt-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
      <p className="font-bold">
        <span className="mr-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-bold text-red-700">お断り</span>
        この動画は制作できませんでした
      </p>
      {note ? <p className="mt-1 break-words whitespace-pre-line">{note}</p> : null}
      {refunded ? null : (
        <p className="mt-1 text-xs text-red-800">返金につきましては、ショップよりご連絡いたします。</p>
      )}
    </div>
  );
}
