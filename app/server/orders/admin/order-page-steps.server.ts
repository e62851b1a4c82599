import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/schemas/parse-form";
import { and, eq } from "drizzle-orm";
import { positiveId } from "~/lib/rules/params";
import { refundFormSchema } from "~/lib/schemas/refund-schemas";
import { db } from "../../db/client.server";
import { refunds } from "../../db/schema";
import type { Toast } from "../../http/session.server";
import { completeTestKonbiniRefund } from "../../payments/test-refunds.server";
import { paymentProvider } from "../../payments/index.server";
import { refundOrder } from "../../refunds/order-refunds.server";
import { recordProviderRefund } from "../../refunds/provider-refunds.server";
import { sendRefund, type RefundRow } from "../../refunds/refund-sending.server";
import { confirmPaymentByHand, manualPaymentRefusal } from "./manual-payment.server";
import { orderPage, type OrderPageOrder } from "./order-page.server";

/**
 * The order page's posts: the refund form's 確認 / 返金する / 戻る, a refund's 再送信,
 * テストモード's end of a konbini refund, and a konbini order's 入金確認（手動） with its
 * confirmation. The form's mistakes come back beside its fields with what was typed; a refund made
 * (or found again by its key) or a payment confirmed goes back to the page with a toast.
 */

/** What 返金する will do, shown (and posted again as hidden fields) on the confirmation. */
export type RefundConfirmation = {
  amount: number;
  lineIds: number[];
  /** The chosen lines as the page names them; empty for a typed amount. */
  lineNumbers: string[];
  reason: string;
  requestKey: string;
};

/** 入金確認（手動）'s answer on the page: its confirmation, or why it was refused. */
export type ManualPaymentAnswer = { step: "confirm" } | { step: "refused"; message: string };

export type OrderPageOutcome =
  | { done: true; toast: Toast }
  | {
      done: false;
      status: number;
      reply: SubmissionResult<string[]> | null;
      confirm: RefundConfirmation | null;
      manualPayment?: ManualPaymentAnswer;
    };

export async function orderPageStep(
  order: OrderPageOrder,
  admin: { id: number; email: string },
  form: FormData,
): Promise<OrderPageOutcome> {
  const intent = String(form.get("intent") ?? "");
  if (intent === "resend-refund") return resendStep(order, form);
  if (intent === "complete-test-refund") return completeTestStep(order, form);
  if (intent === "review-manual-payment" || intent === "manual-payment")
    return manualPaymentStep(order, admin, intent === "manual-payment");
  return refundFormStep(order, admin.id, form);
}

/**
 * 入金確認（手動）: the first post shows what it will do (with JavaScript off as on), the second
 * (入金済みにする) does it. A refusal (reported meanwhile, expired) comes back in the section.
 */
async function manualPaymentStep(
  order: OrderPageOrder,
  admin: { email: string },
  confirmed: boolean,
): Promise<OrderPageOutcome> {
  const refused = (status: number, message: string): OrderPageOutcome => ({
    done: false,
    status,
    reply: null,
    confirm: null,
    manualPayment: { step: "refused", message },
  });
  if (!confirmed) {
    const why = manualPaymentRefusal(order);
    if (why) return refused(409, why);
    return { done: false, status: 200, reply: null, confirm: null, manualPayment: { step: "confirm" } };
  }
  const result = await confirmPaymentByHand(order.id, admin);
  if (!result.ok) return refused(result.status, result.message);
  return {
    done: true,
    toast: result.reported
      ? {
          kind: "success",
          title: "決済サービスで入金が確認できたため、入金済みにしました",
          description: "手動の入金確認ではなく、決済サービスの入金として記録しました。",
        }
      : {
          kind: "success",
          title: "入金済みにしました（入金確認（手動））",
          description: "お客様に「お支払いを確認しました」のメールを送ります。制作の対象になりました。",
        },
  };
}

async function refundFormStep(
  order: OrderPageOrder,
  adminUserId: number,
  form: FormData,
): Promise<OrderPageOutcome> {
  const { left, lines } = orderPage(order);
  const submission = parseForm(form, { schema: refundFormSchema({ left }) });
  if (submission.status !== "success")
    return { done: false, status: 400, reply: submission.reply(), confirm: null };
  const value = submission.value;
  // 戻る: the form again, as it was typed.
  if (value.intent === "edit") return { done: false, status: 200, reply: submission.reply(), confirm: null };
  const chosen = lines.filter((line) => value.lineIds.includes(line.id));
  if (value.intent === "review") {
    if (chosen.length !== new Set(value.lineIds).size || chosen.some((line) => line.refundState))
      return refusedBy(submission.reply, 409, "選んだ明細は返金できません。画面を再読み込みしてください。");
    const amount = value.amount ?? chosen.reduce((sum, line) => sum + line.price, 0);
    if (amount > left)
      return refusedBy(submission.reply, 409, "選んだ明細の合計が、返金できる残りの金額を超えています。");
    return {
      done: false,
      status: 200,
      reply: submission.reply(),
      confirm: {
        amount,
        lineIds: chosen.map((line) => line.id),
        lineNumbers: chosen.map((line) => line.lineNumber),
        reason: value.reason,
        requestKey: value.requestKey,
      },
    };
  }
  const result = await refundOrder({
    orderId: order.id,
    lineIds: value.lineIds,
    amount: value.lineIds.length ? null : (value.amount ?? null),
    reason: value.reason,
    requestKey: value.requestKey,
    adminUserId,
  });
  if (!result.ok) return refusedBy(submission.reply, result.status, result.message);
  return { done: true, toast: refundToast(result.refund) };
}

function refusedBy(
  reply: (options: { formErrors: string[] }) => SubmissionResult<string[]>,
  status: number,
  message: string,
): OrderPageOutcome {
  return { done: false, status, reply: reply({ formErrors: [message] }), confirm: null };
}

/** The toast after a refund was asked for, by what the provider made of it. */
export function refundToast(refund: RefundRow): Toast {
  switch (refund.status) {
    case "succeeded":
      return {
        kind: "success",
        title: "返金しました",
        description: "お客様に返金のお知らせをメールします。",
      };
    case "processing":
      return {
        kind: "success",
        title: "返金の手続きを開始しました（コンビニ払い: お客様の口座登録待ち）",
        description: "決済サービスからお客様に、返金の受け取り方法をメールでお知らせします。",
      };
    case "requested":
      return {
        kind: "error",
        title: "返金を決済サービスに送れませんでした",
        description:
          "返金は記録しました。注文ページの「再送信」で送り直してください（起動時にも自動で再送します）。",
      };
    case "failed":
      return {
        kind: "error",
        title: "返金できませんでした",
        description: refund.failureReason ?? "決済サービスが返金を受け付けませんでした。",
      };
  }
}

/** The refund the post names, if it is this order's. */
function refundOfOrder(order: OrderPageOrder, form: FormData): RefundRow | undefined {
  const id = positiveId(form.get("refundId"));
  if (!id) return undefined;
  return db()
    .select()
    .from(refunds)
    .where(and(eq(refunds.id, id), eq(refunds.orderId, order.id)))
    .get();
}

const notFound = (message: string): OrderPageOutcome => ({
  done: true,
  toast: { kind: "error", title: "エラー", description: message },
});

/** 再送信: a refund the provider was not reached for, sent again under its own idempotency key. */
async function resendStep(order: OrderPageOrder, form: FormData): Promise<OrderPageOutcome> {
  const refund = refundOfOrder(order, form);
  if (!refund) return notFound("返金が見つかりません。画面を再読み込みしてください。");
  if (refund.status !== "requested") return notFound("この返金は決済サービスに送信済みです。");
  return { done: true, toast: refundToast(await sendRefund(refund.id)) };
}

/**
 * テストモード: the customer gave a bank account and the transfer went out, as Stripe's webhook
 * would report it; only with the test provider (Stripe reports the real one itself).
 */
async function completeTestStep(order: OrderPageOrder, form: FormData): Promise<OrderPageOutcome> {
  if (paymentProvider().mode !== "test") return notFound("テストモードでのみ使えます。");
  const refund = refundOfOrder(order, form);
  if (!refund?.providerRefundId || refund.method !== "konbini")
    return notFound("返金が見つかりません。画面を再読み込みしてください。");
  const reported = await completeTestKonbiniRefund(refund.providerRefundId);
  if (!reported) return notFound("この返金は手続き中ではありません。");
  const recorded = recordProviderRefund(reported);
  return {
    done: true,
    toast:
      recorded?.status === "succeeded"
        ? { kind: "success", title: "返金済みにしました（テストモード）" }
        : { kind: "error", title: "エラー", description: "返金の状態を記録できませんでした。" },
  };
}
