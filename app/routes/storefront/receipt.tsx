import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { Field } from "~/components/forms";
import { FormError, FormNotice } from "~/components/form-messages";
import { formatYen } from "~/lib/rules/format";
import { RECEIPT_ADDRESSEE_MAX, receiptPath, receiptPdfPath } from "~/lib/rules/receipt";
import { receiptAddresseeSchema } from "~/lib/schemas/receipt-schemas";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { readForm } from "~/server/http/form.server";
import { issueReceipt, receiptByToken, reissueReceipt } from "~/server/receipts/receipts.server";
import { ReceiptSheet } from "./ReceiptSheet";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useStorefrontForm } from "~/lib/hooks/use-storefront-form";

// The token in the address is the order's secret: never indexed; no Referer leaves the site
// (the Referrer-Policy and no-store are set for /orders/… with the security headers).
export const meta: MetaFunction = () => [
  { title: "領収書 | コンテスト動画ショップ" },
  { name: "robots", content: "noindex" },
];

// A fully refunded order is refused as an unpaid one is: there is nothing received to certify.
const STATUS = { "not-found": 404, unpaid: 409, refunded: 409, "not-issued": 200, issued: 200 } as const;

export function loader({ params }: LoaderFunctionArgs) {
  const state = receiptByToken(params.token ?? "");
  return data(
    { state, token: state.kind === "not-found" ? "" : (params.token ?? "") },
    { status: STATUS[state.kind] },
  );
}

/**
 * 領収書を発行する (intent=issue, with the addressee) or 再発行する (intent=reissue). Each is
 * one issue (see receipts.server); looking at the page or its PDF is not. A success goes back
 * to the page (no repost on reload).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const token = params.token ?? "";
  const formData = await readForm(request);
  if (formData.get("intent") === "reissue") {
    const result = reissueReceipt(token);
    if (!result.ok) return data({ result: null, message: result.message }, { status: result.status });
    return redirect(receiptPath(token), 303);
  }
  const submission = parseForm(formData, { schema: receiptAddresseeSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), message: null }, { status: 400 });
  const result = issueReceipt(token, submission.value.addressee);
  if (!result.ok)
    return data(
      { result: submission.reply({ formErrors: [result.message] }), message: result.message },
      { status: result.status },
    );
  return redirect(receiptPath(token), 303);
}

export default function ReceiptPage() {
  const { state, token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (state.kind === "not-found") {
    return (
      <div className="mx-auto max-w-lg px-4 py-16 text-center">
        <h1 className="text-2xl font-bold">ご注文が見つかりません</h1>
        <p className="mt-3 text-zinc-600">URLが正しくありません。メールに記載のURLをご確認ください。</p>
        <Link to="/contact" className="mt-8 btn-secondary">
          お問い合わせ
        </Link>
      </div>
    );
  }
  if (state.kind === "refunded" || state.kind === "unpaid") {
    return (
      <NoReceipt orderNumber={state.orderNumber} message={state.message} token={token}>
        {/* Given back whole: no receipt (one for 0円 would certify nothing), the refunds instead. */}
        {state.kind === "refunded" ? (
          <ul className="mt-4 space-y-1 text-left text-sm text-zinc-700" data-testid="receipt-refunds">
            {state.refunds.map((refund, index) => (
              <li key={index}>{refund.sentence}</li>
            ))}
          </ul>
        ) : null}
      </NoReceipt>
    );
  }
  if (state.kind === "not-issued") return <IssueForm state={state} actionData={actionData} />;
  return (
    <IssuedReceipt
      receipt={state.receipt}
      laterRefund={state.laterRefund}
      token={token}
      message={actionData?.message ?? null}
    />
  );
}

type ActionData = ReturnType<typeof useActionData<typeof action>>;

function IssueForm({
  state,
  actionData,
}: {
  state: { orderNumber: string; total: number; refunded: number; paidOn: string };
  actionData: ActionData;
}) {
  const validation = useDeferredValidation("receiptAddressee");
  const [form, fields] = useStorefrontForm({
    id: "receipt-addressee",
    lastResult: actionData?.result,
    validate: validation.validate,
  });
  const busy = useIsPending();
  return (
    <div className="mx-auto w-full max-w-lg px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold">領収書の発行</h1>
      <dl className="mt-4 grid grid-cols-[7rem_1fr] gap-y-1 rounded-xl border border-zinc-200 bg-white px-4 py-3 text-sm">
        <dt className="text-zinc-500">注文番号</dt>
        <dd className="font-semibold tracking-wider">{state.orderNumber}</dd>
        <dt className="text-zinc-500">お支払い日</dt>
        <dd>{state.paidOn}</dd>
        <dt className="text-zinc-500">金額</dt>
        <dd className="font-semibold">
          {formatYen(state.total)}
          {state.refunded > 0 ? (
            <span className="block text-xs font-normal text-zinc-600">
              返金 {formatYen(state.refunded)} を差し引いた金額です
            </span>
          ) : null}
        </dd>
      </dl>
      <Form
        method="post"
        {...form.props}
        onFocus={validation.load}
        className="mt-6 space-y-5 rounded-2xl border border-zinc-200 bg-white p-5 shadow-sm"
      >
        <FormError id={form.errorId} errors={form.errors} />
        <Field
          label="宛名"
          meta={fields.addressee}
          type="text"
          hint={`会社名やお名前を${RECEIPT_ADDRESSEE_MAX}文字以内で入力してください（「様」は自動で付きます）。空欄のまま発行すると宛名は空白になり、手書きでご記入いただけます。`}
          inputProps={{ autoComplete: "name", placeholder: "例: 株式会社サンプル" }}
        />
        <FormNotice kind="warning">
          宛名は発行後に変更できません。お間違いのないようご確認ください。
        </FormNotice>
        <button type="submit" name="intent" value="issue" className="btn-primary w-full" disabled={busy}>
          {busy ? "発行中..." : "領収書を発行する"}
        </button>
      </Form>
    </div>
  );
}

function IssuedReceipt({
  receipt,
  laterRefund,
  token,
  message,
}: {
  receipt: Extract<ReturnType<typeof receiptByToken>, { kind: "issued" }>["receipt"];
  laterRefund: string | null;
  token: string;
  message: string | null;
}) {
  const hydrated = useHydrated();
  const busy = useIsPending();
  return (
    <div className="mx-auto w-full max-w-4xl px-3 py-6 sm:px-4 sm:py-10 print:p-0">
      <div className="mb-5 space-y-4 print:hidden">
        <FormError errors={message ? [message] : null} />
        {laterRefund ? <FormNotice kind="warning">{laterRefund}</FormNotice> : null}
        <div className="flex flex-wrap items-center gap-3">
          {hydrated ? (
            <button type="button" onClick={() => window.print()} className="btn-primary">
              印刷する
            </button>
          ) : null}
          <a href={receiptPdfPath(token)} className="btn-secondary" download>
            PDFをダウンロード
          </a>
        </div>
        {hydrated ? null : (
          <p className="text-sm text-zinc-600">
            印刷はブラウザの印刷機能からどうぞ（A4サイズで印刷できます）。
          </p>
        )}
      </div>

      <ReceiptSheet receipt={receipt} />

      <section
        aria-labelledby="reissue-heading"
        className="mx-auto mt-8 max-w-[210mm] rounded-xl border border-zinc-200 bg-white p-4 text-sm print:hidden"
      >
        <h2 id="reissue-heading" className="font-bold">
          領収書の再発行
        </h2>
        <p className="mt-1 text-zinc-600">
          紛失などで改めて必要な場合は再発行できます。再発行した領収書には「再発行」と表示されます（宛名は変わりません）。
        </p>
        <Form method="post" className="mt-3">
          <button type="submit" name="intent" value="reissue" className="btn-secondary" disabled={busy}>
            {busy ? "発行中..." : "再発行する"}
          </button>
        </Form>
      </section>
    </div>
  );
}

/** Why an order has no receipt (not paid, or refunded whole), and the way back to its status page. */
function NoReceipt({
  orderNumber,
  message,
  token,
  children,
}: {
  orderNumber: string;
  message: string;
  token: string;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">領収書を発行できません</h1>
      <p className="mt-2 text-sm text-zinc-600">注文番号 {orderNumber}</p>
      <p
        role="alert"
        className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-left text-amber-950"
      >
        {message}
      </p>
      {children}
      <Link to={`/orders/${token}`} className="mt-8 btn-secondary">
        ご注文の状況を見る
      </Link>
    </div>
  );
}
