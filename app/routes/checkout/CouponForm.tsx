import { Form } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { Field } from "~/components/forms";
import { FormError } from "~/components/form-messages";
import { formatYenShort } from "~/lib/rules/format";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useStorefrontForm } from "~/lib/hooks/use-storefront-form";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";

export type CouponView = { code: string; applied: boolean; message: string | null; amount: number } | null;

/**
 * The confirmation page's coupon: a plain form (no JavaScript needed) to apply a code, and once one
 * is kept, what it takes off or why it no longer applies (期限切れ, 使用済み …) with a button to
 * take it off.
 */
export function CouponForm({
  coupon,
  lastResult,
}: {
  coupon: CouponView;
  lastResult?: SubmissionResult<string[]>;
}) {
  const busy = useIsPending();
  // Checked in the browser once the field is touched: zod stays out of the page's first load.
  const validation = useDeferredValidation("checkoutCoupon");
  const [form, fields] = useStorefrontForm({
    id: "coupon",
    lastResult,
    validate: validation.validate,
  });
  return (
    <section aria-labelledby="coupon-heading" className="mt-4 rounded-xl border border-zinc-200 bg-white p-4">
      <h2 id="coupon-heading" className="font-semibold">
        クーポンコード
      </h2>
      {coupon ? (
        <div className="mt-2 space-y-2 text-sm">
          {coupon.applied ? (
            <p className="font-medium text-emerald-800">
              クーポン「{coupon.code}」を適用しました（−{formatYenShort(coupon.amount)}）
            </p>
          ) : (
            <p
              role="alert"
              className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900"
            >
              クーポン「{coupon.code}」はお使いいただけません。{coupon.message}
              。合計金額はクーポンなしの金額です。
            </p>
          )}
          <Form method="post">
            <input type="hidden" name="intent" value="remove-coupon" />
            <button type="submit" className="btn-secondary min-h-11 text-sm" disabled={busy}>
              クーポンを外す
            </button>
          </Form>
        </div>
      ) : (
        <Form method="post" {...form.props} onFocus={validation.load} className="mt-2">
          <FormError id={form.errorId} errors={form.errors} />
          <input type="hidden" name="intent" value="apply-coupon" />
          <Field
            label="お持ちの方はご入力ください"
            meta={fields.couponCode}
            type="text"
            announce
            inputProps={{
              autoComplete: "off",
              autoCapitalize: "characters",
              spellCheck: false,
              // A code is short: the field gives way to the button beside it (phone too), rather
              // than the full-width field pushing the button, and the error under it, a row down.
              className: "field-input min-w-0 flex-1 basis-48",
            }}
            beside={
              <button type="submit" className="btn-secondary shrink-0" disabled={busy}>
                適用する
              </button>
            }
          />
        </Form>
      )}
    </section>
  );
}
