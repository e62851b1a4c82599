import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { CheckboxField, Field } from "~/components/forms";
import { FormError } from "~/components/form-messages";
import { OrderLines } from "~/routes/checkout/OrderLines";
import { CouponForm } from "~/routes/checkout/CouponForm";
import { checkoutCouponSchema, COUPON_FORM_INTENTS } from "~/lib/schemas/checkout-coupon-schemas";
import { applyCheckoutCoupon, removeCheckoutCoupon } from "~/server/checkout/coupon.server";
import type { Checkout } from "~/server/checkout/draft.server";
import { FinalConfirmationNotice } from "~/components/PaymentTermsText";
import { customerSchema } from "~/lib/schemas/order-schemas";
import { PASSWORD_HINT, PASSWORD_MIN } from "~/lib/rules/password-rules";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { requirePricedCheckout, saveCustomer, verifiedAddress } from "~/server/checkout/steps.server";
import { redirectToPage } from "~/server/http/security-headers.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { getCurrentUser } from "~/server/auth/users.server";
import { readForm } from "~/server/http/form.server";
import { retryAfterHeaders } from "~/server/http/rate-limit.server";
import { shopPaymentTerms } from "~/server/core/payment-terms.server";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useStorefrontForm } from "~/lib/hooks/use-storefront-form";

export const meta: MetaFunction = () => [{ title: "注文内容の確認 | コンテスト動画ショップ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const { checkout, contest, lines, total, listTotal, discounts, coupon, priceChange, orderFormUrl } =
    requirePricedCheckout(session);
  const user = await getCurrentUser(session);
  return {
    contestName: contest.name,
    // This page's own fallback label, as the spec has it.
    numberLabel: contest.bibNumberLabel || "ビッグナンバー",
    lines,
    total,
    listTotal,
    discounts,
    coupon: coupon && {
      code: coupon.code,
      applied: coupon.applied,
      message: coupon.message,
      amount: discounts.find((d) => d.kind === "coupon")?.amount ?? 0,
    },
    priceChange,
    orderFormUrl,
    loggedIn: user !== null,
    // Back from the payment page, or the logged-in customer's confirmed address: no code for it.
    verifiedEmail: verifiedAddress(checkout, user?.id ?? null),
    customer: {
      email: checkout.customerEmail ?? user?.email ?? "",
      name: checkout.customerName ?? user?.name ?? "",
      autoLogin: checkout.autoLogin,
    },
    // The final-confirmation box (特定商取引法 第12条の6), for the methods /payment offers.
    paymentTerms: shopPaymentTerms(),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  const { checkout, contest } = requirePricedCheckout(session);
  const form = await readForm(request);
  if (isCouponIntent(form.get("intent"))) return couponAction(request, form, checkout, contest.id);
  const submission = parseForm(form, { schema: customerSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password", "confirmPassword"] }), { status: 400 });
  }
  const user = await getCurrentUser(session);
  const saved = await saveCustomer(request, checkout, submission.value, user?.id ?? null);
  if (!saved.ok) {
    return data(
      submission.reply({ formErrors: [saved.message], hideFields: ["password", "confirmPassword"] }),
      { status: saved.status, headers: retryAfterHeaders(saved) },
    );
  }
  return redirectToPage(saved.next, { headers: { "Set-Cookie": await commitSession(session) } });
}

function isCouponIntent(value: unknown): boolean {
  return COUPON_FORM_INTENTS.some((intent) => intent === value);
}

/** The coupon form: applied or taken off, then the page again (its prices with or without it). */
function couponAction(request: Request, form: FormData, checkout: Checkout, contestId: number) {
  const submission = parseForm(form, { schema: checkoutCouponSchema });
  if (submission.status !== "success") return data({ coupon: submission.reply() }, { status: 400 });
  if (submission.value.intent === "remove-coupon") {
    removeCheckoutCoupon(checkout);
    return redirect("/order-confirmation");
  }
  const applied = applyCheckoutCoupon(request, checkout, contestId, submission.value.couponCode);
  if (!applied.ok)
    return data(
      { coupon: submission.reply({ fieldErrors: { couponCode: [applied.message] } }) },
      { status: applied.status, headers: retryAfterHeaders(applied) },
    );
  return redirect("/order-confirmation");
}

export default function OrderConfirmation() {
  const {
    contestName,
    numberLabel,
    lines,
    total,
    listTotal,
    discounts,
    coupon,
    priceChange,
    orderFormUrl,
    customer,
    loggedIn,
    verifiedEmail,
    paymentTerms,
  } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  // The page has two forms; each shows only its own answer.
  const couponResult = answer && "coupon" in answer ? answer.coupon : undefined;
  const lastResult = answer && !("coupon" in answer) ? answer : undefined;
  const busy = useIsPending();
  // "送信中..." only while the post is on its way, not while the next step's page loads.
  const sending = useIsPending({ state: "submitting" });
  const validation = useDeferredValidation("customer");
  const [form, fields] = useStorefrontForm({
    lastResult,
    defaultValue: {
      email: customer.email,
      name: customer.name,
      autoLogin: customer.autoLogin ? "on" : undefined,
    },
    validate: validation.validate,
  });
  const [autoLogin, setAutoLogin] = useState(customer.autoLogin);
  // Follows the typed address (JS on); without JS the label fits the address the page opened with.
  const [typedEmail, setTypedEmail] = useState(customer.email);
  const codeNeeded = verifiedEmail === null || typedEmail.trim().toLowerCase() !== verifiedEmail;

  return (
    <div className="mx-auto max-w-2xl px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-bold">注文内容の確認</h1>
      <p className="mt-1 text-zinc-600">{contestName}</p>

      {priceChange ? (
        <p
          role="alert"
          className="mt-5 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900"
        >
          {priceChange}
        </p>
      ) : null}

      <section aria-label="ご注文内容" className="mt-5">
        <OrderLines
          lines={lines}
          numberLabel={numberLabel}
          total={total}
          listTotal={listTotal}
          discounts={discounts}
        />
      </section>

      <CouponForm coupon={coupon} lastResult={couponResult} />

      <Form method="post" {...form.props} onFocus={validation.load} className="mt-8 space-y-5">
        <h2 className="text-lg font-bold">お客様情報</h2>
        <FormError id={form.errorId} errors={form.errors} />
        <Field
          label="メールアドレス"
          meta={fields.email}
          type="email"
          hint={
            codeNeeded
              ? "確認コードとダウンロードURLをこのアドレスにお送りします。"
              : "確認済みのアドレスです。ダウンロードURLをこのアドレスにお送りします（変更すると確認コードを改めてお送りします）。"
          }
          inputProps={{
            autoComplete: "email",
            inputMode: "email",
            onInput: (event) => setTypedEmail(event.currentTarget.value),
          }}
        />
        <Field label="お名前" meta={fields.name} type="text" inputProps={{ autoComplete: "name" }} />

        {loggedIn ? null : (
          <div className="rounded-xl border border-zinc-200 bg-white p-4">
            <CheckboxField
              label="次回から自動ログイン"
              meta={fields.autoLogin}
              className="flex items-center gap-3"
              labelClassName="font-semibold"
              inputProps={{
                className: "h-5 w-5 accent-brand-600",
                onChange: (event) => setAutoLogin(event.currentTarget.checked),
              }}
            />
            <p className="mt-1 text-sm text-zinc-600">
              お支払い後にアカウントを作成し、購入履歴からいつでも動画を確認できます。
            </p>
            {/* Without JS the fields are always shown; they only count when the box is ticked. */}
            <div className={`mt-4 space-y-4 ${autoLogin ? "" : "js-hidden"}`} data-autologin-fields>
              <Field
                label={`パスワード（${PASSWORD_MIN}文字以上）`}
                meta={fields.password}
                type="password"
                hint={PASSWORD_HINT}
                inputProps={{ autoComplete: "new-password" }}
              />
              <Field
                label="パスワード（確認）"
                meta={fields.confirmPassword}
                type="password"
                inputProps={{ autoComplete: "new-password" }}
              />
            </div>
          </div>
        )}

        <FinalConfirmationNotice terms={paymentTerms} />

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
          <Link to={orderFormUrl} className="btn-secondary">
            戻る
          </Link>
          <button type="submit" className="btn-primary" disabled={busy}>
            {sending ? "送信中..." : codeNeeded ? "確認コードを送信して次へ" : "お支払いへ進む"}
          </button>
        </div>
      </Form>
    </div>
  );
}
