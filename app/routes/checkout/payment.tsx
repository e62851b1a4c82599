import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { Field } from "~/components/forms";
import { FormError } from "~/components/form-messages";
import { OrderLines } from "~/routes/checkout/OrderLines";
import { formatYen } from "~/lib/rules/format";
import { numberLabelOf } from "~/lib/rules/number-label";
import { testCardSchema, testKonbiniSchema } from "~/lib/schemas/payment-schemas";
import { requireVerifiedCustomer } from "~/server/checkout/steps.server";
import { env } from "~/server/core/env.server";
import { completePayment, preparePayment } from "~/server/checkout/payment.server";
import { paymentProvider, testProvider } from "~/server/payments/index.server";
import { startTestKonbini } from "~/server/orders/konbini.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { readForm } from "~/server/http/form.server";
import { KONBINI_STORES } from "~/lib/rules/konbini-steps";
import { disabledMethodRefusal, shopPaymentTerms } from "~/server/core/payment-terms.server";
import { TermLines } from "~/components/PaymentTermsText";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useStorefrontForm } from "~/lib/hooks/use-storefront-form";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";

const StripeCardForm = lazy(() => import("~/routes/checkout/StripeCardForm"));

export const meta: MetaFunction = () => [{ title: "お支払い | コンテスト動画ショップ" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  let customer = requireVerifiedCustomer(session);
  let notice = customer.priceChange;
  let prepared = await preparePayment(customer);
  if (!prepared.ok && prepared.couponTaken) {
    // The coupon's last use went to another checkout a moment ago: the page shows the price
    // without it, and why, before anything can be paid.
    notice = prepared.message;
    customer = requireVerifiedCustomer(session);
    prepared = await preparePayment(customer);
  }
  const summary = {
    name: customer.name,
    email: customer.email,
    contestName: customer.contest.name,
    numberLabel: numberLabelOf(customer.contest),
    lines: customer.lines,
    total: customer.total,
    listTotal: customer.listTotal,
    discounts: customer.discounts,
    couponRefusal: customer.coupon && !customer.coupon.applied ? customer.coupon : null,
    notice,
    orderFormUrl: customer.orderFormUrl,
  };
  const konbini = { days: env().KONBINI_EXPIRES_AFTER_DAYS, stores: KONBINI_STORES };
  // Only the methods the shop offers (PAYMENT_METHODS), said as the legal texts say them.
  const terms = shopPaymentTerms();
  if (!prepared.ok)
    return data({ summary, konbini, terms, error: prepared.message, payment: null }, { status: 400 });
  const mode = paymentProvider().mode;
  return {
    summary,
    konbini,
    terms,
    error: null,
    payment:
      mode === "stripe"
        ? {
            mode,
            clientSecret: prepared.intent.clientSecret ?? "",
            publishableKey: env().STRIPE_PUBLISHABLE_KEY ?? "",
            returnUrl: `${env().SITE_URL}/payment/return`,
          }
        : { mode, clientSecret: "", publishableKey: "", returnUrl: "" },
  };
}

/**
 * The test provider's card and konbini forms post here; the intent is the checkout's, never one
 * the form names. With Stripe, its own Payment Element confirms and the browser returns to /payment/return.
 */
export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  const customer = requireVerifiedCustomer(session);
  const form = await readForm(request);
  const konbini = form.get("method") === "konbini";
  const submission = konbini
    ? parseForm(form, { schema: testKonbiniSchema })
    : parseForm(form, { schema: testCardSchema });
  const refusal = disabledMethodRefusal(konbini ? "konbini" : "card");
  if (refusal)
    return data(submission.reply({ formErrors: [refusal], hideFields: ["cardNumber", "cvc"] }), {
      status: 400,
    });
  if (submission.status !== "success")
    return data(submission.reply({ hideFields: ["cardNumber", "cvc"] }), { status: 400 });
  if (paymentProvider().mode !== "test")
    return data(submission.reply({ formErrors: ["このお支払い方法はご利用いただけません"] }), {
      status: 400,
    });
  const prepared = await preparePayment(customer, submission.value.shownTotal);
  if (!prepared.ok)
    return data(submission.reply({ formErrors: [prepared.message], hideFields: ["cardNumber", "cvc"] }), {
      status: prepared.status,
    });
  if (konbini) {
    await startTestKonbini(prepared.intent.id);
  } else if ("cardNumber" in submission.value) {
    const confirmed = await testProvider.confirmCard(prepared.intent.id, submission.value.cardNumber);
    if (!confirmed.ok) {
      return data(
        submission.reply({
          formErrors: [`決済エラー: ${confirmed.message}`],
          hideFields: ["cardNumber", "cvc"],
        }),
        { status: 402 },
      );
    }
  }
  const completed = await completePayment(session, prepared.intent.id);
  if (!completed.ok) return data(submission.reply({ formErrors: [completed.message] }), { status: 409 });
  session.flash("toast", completed.toast);
  return redirect("/payment-complete", { headers: { "Set-Cookie": await commitSession(session) } });
}

export default function Payment() {
  const { summary, konbini, terms, error, payment } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-2xl px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-bold">お支払い</h1>
      <section aria-label="ご注文内容" className="mt-5 space-y-3">
        <dl className="grid grid-cols-[6rem_1fr] gap-y-1 rounded-xl border border-zinc-200 bg-white px-4 py-3 text-sm">
          <dt className="text-zinc-500">お名前</dt>
          <dd>{summary.name}</dd>
          <dt className="text-zinc-500">メール</dt>
          <dd className="break-all">{summary.email}</dd>
          <dt className="text-zinc-500">大会</dt>
          <dd>{summary.contestName}</dd>
        </dl>
        <OrderLines
          lines={summary.lines}
          numberLabel={summary.numberLabel}
          total={summary.total}
          listTotal={summary.listTotal}
          discounts={summary.discounts}
        />
      </section>

      {summary.notice ? (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900"
        >
          {summary.notice}
        </p>
      ) : null}
      {summary.couponRefusal ? (
        <p className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          クーポン「{summary.couponRefusal.code}」はお使いいただけません。{summary.couponRefusal.message}。
          お支払い金額はクーポンなしの{formatYen(summary.total)}です。クーポンは
          <Link to="/order-confirmation" className="underline">
            注文内容の確認
          </Link>
          で外せます。
        </p>
      ) : null}

      {error ? (
        <p
          role="alert"
          className="mt-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 font-medium text-red-800"
        >
          {error}
        </p>
      ) : payment?.mode === "stripe" ? (
        <section className="mt-8">
          <h2 className="text-lg font-bold">お支払い方法</h2>
          <div className="mt-1 text-sm text-zinc-600">
            <p>{terms.methodDetails.join("、または")}でお支払いいただけます。</p>
            <TermLines lines={terms.paymentTiming} />
          </div>
          <Suspense fallback={<p className="mt-3 text-zinc-600">お支払いの準備中です...</p>}>
            <StripeCardForm
              clientSecret={payment.clientSecret}
              publishableKey={payment.publishableKey}
              returnUrl={payment.returnUrl}
              total={summary.total}
            />
          </Suspense>
          <noscript>
            <p className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm">
              お支払いには JavaScript を有効にしてください。
            </p>
          </noscript>
        </section>
      ) : (
        <>
          {terms.methods.includes("card") ? <TestCardForm total={summary.total} /> : null}
          {terms.methods.includes("konbini") ? (
            <TestKonbiniForm total={summary.total} days={konbini.days} stores={konbini.stores} />
          ) : null}
        </>
      )}

      {/* Back to the confirmation (address and name, with the order form one step further): a
          verified address is not asked again unless it is changed. */}
      <nav aria-label="ご注文内容の変更" className="mt-4 flex flex-wrap gap-x-6 text-sm">
        <Link to="/order-confirmation" className="inline-flex min-h-11 items-center text-brand-700 underline">
          戻る（お客様情報の変更）
        </Link>
        <Link
          to={summary.orderFormUrl}
          className="inline-flex min-h-11 items-center text-brand-700 underline"
        >
          選んだ動画を変更する
        </Link>
      </nav>
    </div>
  );
}

/** Which of the two test forms an action's answer belongs to (each shows only its own errors). */
function useLastResultOf(method: "card" | "konbini") {
  const lastResult = useActionData<typeof action>();
  const konbini = lastResult?.initialValue?.method === "konbini";
  return (method === "konbini") === konbini ? lastResult : undefined;
}

function TestCardForm({ total }: { total: number }) {
  const lastResult = useLastResultOf("card");
  const busy = useIsPending();
  const paying = useIsPending({ state: "submitting" });
  const validation = useDeferredValidation("testCard");
  const [form, fields] = useStorefrontForm({
    id: "card-payment",
    lastResult,
    validate: validation.validate,
  });
  return (
    <Form
      method="post"
      {...form.props}
      onFocus={validation.load}
      className="mt-8 space-y-4 rounded-2xl border border-zinc-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-bold">カード情報</h2>
        <span className="rounded-full bg-amber-100 px-3 py-1 text-xs font-bold text-amber-900">
          テストモード
        </span>
      </div>
      <p className="text-sm text-zinc-600">
        テスト用カード 4242 4242 4242 4242 で決済が成功します。実際の請求は発生しません。
      </p>
      <FormError id={form.errorId} errors={form.errors} />
      <input type="hidden" name="shownTotal" value={total} />
      <Field
        label="カード名義"
        meta={fields.cardholderName}
        type="text"
        inputProps={{ autoComplete: "cc-name", placeholder: "TARO YAMADA" }}
      />
      <Field
        label="カード番号"
        meta={fields.cardNumber}
        type="text"
        inputProps={{ inputMode: "numeric", autoComplete: "cc-number", placeholder: "4242 4242 4242 4242" }}
      />
      <div className="grid grid-cols-2 gap-4">
        <Field
          label="有効期限（MM/YY）"
          meta={fields.expiry}
          type="text"
          inputProps={{ inputMode: "numeric", autoComplete: "cc-exp", placeholder: "12/30" }}
        />
        <Field
          label="セキュリティコード"
          meta={fields.cvc}
          type="text"
          inputProps={{ inputMode: "numeric", autoComplete: "cc-csc", placeholder: "123" }}
        />
      </div>
      <button type="submit" className="btn-primary w-full text-lg" disabled={busy}>
        {paying ? "決済処理中..." : `${formatYen(total)}を支払う`}
      </button>
    </Form>
  );
}

/** テストモードのコンビニ払い: the order is made at once as 入金待ち, with a voucher to pay at a store. */
function TestKonbiniForm({ total, days, stores }: { total: number; days: number; stores: string }) {
  const lastResult = useLastResultOf("konbini");
  const navigation = useNavigation();
  const pending = useIsPending();
  const submitting = useIsPending({ state: "submitting" });
  const validation = useDeferredValidation("testKonbini");
  const [form] = useStorefrontForm({
    id: "konbini-payment",
    lastResult,
    validate: validation.validate,
  });
  // The card form posts to the same action: only this form's post says 手続き中.
  const busy = submitting && navigation.formData?.get("method") === "konbini";
  return (
    <Form
      method="post"
      {...form.props}
      onFocus={validation.load}
      className="mt-6 space-y-3 rounded-2xl border border-zinc-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-bold">コンビニ払い</h2>
        <span className="rounded-full bg-amber-100 px-3 py-1 text-xs font-bold text-amber-900">
          テストモード
        </span>
      </div>
      <p className="text-sm text-zinc-700">
        {stores}
        でお支払いいただけます（{formatYen(total)}）。ご注文後に確認番号とお支払い期限（{days}
        日後の23:59）をお知らせします。お支払いを確認してから動画の制作を始めます。
      </p>
      <FormError id={form.errorId} errors={form.errors} />
      <input type="hidden" name="method" value="konbini" />
      <input type="hidden" name="shownTotal" value={total} />
      <button type="submit" className="btn-secondary w-full text-lg" disabled={pending}>
        {busy ? "手続き中..." : "コンビニ払いで注文する"}
      </button>
    </Form>
  );
}
