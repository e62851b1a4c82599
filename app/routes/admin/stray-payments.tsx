import crypto from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FormError } from "~/components/form-messages";
import { positiveId } from "~/lib/rules/params";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { readForm } from "~/server/http/form.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { strayPaymentLedger, strayPaymentStep } from "~/server/refunds/stray-payment-ledger.server";
import { STRAY_PAYMENTS_PATH } from "~/server/refunds/stray-ledger.server";
import { StrayPaymentList } from "./stray-payments/StrayPaymentList";
import { StrayRefundConfirm } from "./stray-payments/StrayRefundConfirm";

export const meta: MetaFunction = () => [{ title: "注文にならなかった決済 | 管理画面" }];

/**
 * The ledger of stray payments. Each one not yet refunded gets a one-time key when the page is
 * drawn (its 全額返金 posts it, so a double click or a replayed post refunds once). Without JS,
 * 全額返金 is a link to `?confirm=<id>`, which draws the confirmation here instead of a dialog.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const entries = strayPaymentLedger().map((entry) => ({
    ...entry,
    requestKey: entry.refundable ? crypto.randomUUID() : null,
  }));
  const confirmId = positiveId(new URL(request.url).searchParams.get("confirm"));
  const confirming = entries.find((entry) => entry.id === confirmId && entry.refundable) ?? null;
  return { path: STRAY_PAYMENTS_PATH, entries, confirming };
}

export async function action({ request }: ActionFunctionArgs) {
  const { admin } = await requireAdminPage(request);
  const outcome = await strayPaymentStep(admin.id, await readForm(request));
  if (outcome.done) return redirectWithToast(request, STRAY_PAYMENTS_PATH, outcome.toast, { status: 303 });
  return data({ error: outcome.message }, { status: outcome.status });
}

export default function StrayPayments() {
  const { path, entries, confirming } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  if (confirming) return <StrayRefundConfirm entry={confirming} action={path} />;
  return (
    <section className="mx-auto max-w-5xl px-4 py-6">
      <h1 className="text-2xl font-bold">注文にならなかった決済</h1>
      <p className="mt-1 text-sm text-zinc-600">
        {"決済は成功したものの注文にならなかったお支払い（同じ注文手続きの2回目の決済、金額や通貨の違う決済など）です。" +
          "内容を確かめて、お客様に全額返金してください。売上には含まれません。" +
          "注文に合わない返金の報告（返金できる残りより多い、通貨が違うなど）もここに記録します（要確認）。" +
          "注文の返金額や売上には含めていないので、決済サービスの管理画面で確認してください。"}
      </p>
      <div className="mt-4 empty:hidden">
        <FormError errors={answer?.error ? [answer.error] : null} />
      </div>
      <StrayPaymentList entries={entries} action={path} />
    </section>
  );
}
