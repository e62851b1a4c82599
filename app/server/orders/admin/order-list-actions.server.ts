import { formatDateTime } from "~/lib/rules/format";
import { positiveId } from "~/lib/rules/params";
import { orderDeliverySchema } from "~/lib/schemas/delivery-schemas";
import {
  lineRefusalSchema,
  lineRefusalWithdrawalSchema,
  REFUSAL_NOTE_MAX,
} from "~/lib/schemas/line-refusal-schemas";
import {
  completeOrder,
  DELIVERED_MESSAGES,
  deliverOrder,
  extendDownloadPage,
  NO_VIDEO_TO_MAIL,
  resendDeliveryMail,
  resetLineDownload,
  type AttachedVideo,
} from "../../delivery/order-delivery.server";
import { readForm } from "../../http/form.server";
import type { Toast } from "../../http/session.server";
import type { OrderRefundResult } from "../../refunds/order-refunds.server";
import { parseDeliveryForm } from "./delivery-form.server";
import { refuseLine, withdrawRefusal } from "./line-refusals.server";
import { refundToast } from "./order-page-steps.server";

/**
 * What the order list's 期限を延長 button adds to a download page: a week more for a customer who
 * missed the expiry, from the later of now and the current expiry.
 */
export const DOWNLOAD_PAGE_EXTENSION_DAYS = 7;

/** A refused 納品: the order's form shows the message and keeps the typed URLs. */
export type DeliverError = { orderId: number; message: string; urls: Record<string, string> };
/** A refused お断り form: its line keeps the typed note and the refund's tick, and shows why. */
export type RefusalError = {
  orderId: number;
  lineId: number;
  refusalMessage: string;
  note: string;
  refund: boolean;
};

/**
 * The order list's answer to a post: back to the list with a toast (and the order or line it is
 * about, which the list brings into view), or the list again with the form's error (and what was
 * typed) when the admin can correct it there.
 */
export type OrderListOutcome =
  | { toast: Toast; about?: { orderId: number; lineId: number | null } }
  | { status: number; error: DeliverError | RefusalError };

/** One button's post: the order it belongs to, its form, and the videos attached for 納品. */
type OrderListPost = {
  orderId: number;
  form: FormData;
  files: Map<number, AttachedVideo>;
  /** The line a リセット button names in its intent (`reset-line-{lineId}`). */
  lineId: number | null;
  /** The admin posting: who a refund made with お断り is recorded as made by. */
  adminUserId: number;
};

type Step = (post: OrderListPost) => OrderListOutcome | Promise<OrderListOutcome>;

const failed = (description: string): OrderListOutcome => ({
  toast: { kind: "error", title: "エラー", description },
});

/**
 * Reads a post of the order list and runs the step its button names. 納品 with attached videos
 * is multipart (files streamed to disk); everything else is a small form.
 */
export async function runOrderListPost(request: Request, adminUserId: number): Promise<OrderListOutcome> {
  const multipart = request.headers.get("Content-Type")?.startsWith("multipart/form-data");
  const parsed = multipart
    ? await parseDeliveryForm(request)
    : { ok: true as const, form: await readForm(request), files: new Map<number, AttachedVideo>() };
  if (!parsed.ok) return failed(parsed.message);
  const { form, files } = parsed;
  const orderId = positiveId(form.get("orderId"));
  if (!orderId) return failed("注文が見つかりません");
  const { name, lineId } = intentOf(String(form.get("intent") ?? ""));
  const step = Object.hasOwn(STEPS, name) ? STEPS[name] : undefined;
  if (!step) return failed("操作が正しくありません。");
  const outcome = await step({ orderId, form, files, lineId, adminUserId });
  if (!("toast" in outcome)) return outcome;
  // The line a button acted on: リセット names it in its intent, お断り and its undo in a field.
  return { ...outcome, about: { orderId, lineId: lineId ?? positiveId(form.get("lineId")) } };
}

/**
 * Each line's リセット sits in its order's one form, so the button names its line in the intent
 * (`reset-line-12`); every other intent is a bare name.
 */
function intentOf(intent: string): { name: string; lineId: number | null } {
  const resetLine = /^reset-line-(\d+)$/.exec(intent);
  return resetLine ? { name: "reset-line", lineId: Number(resetLine[1]) } : { name: intent, lineId: null };
}

/** お断り of one line, with the note the customer is mailed, and its refund when ticked. */
async function refuseLineStep({ orderId, form, adminUserId }: OrderListPost): Promise<OrderListOutcome> {
  const submission = lineRefusalSchema.safeParse(Object.fromEntries(form));
  const lineId = positiveId(form.get("lineId")) ?? 0;
  const note = String(form.get("note") ?? "").slice(0, REFUSAL_NOTE_MAX * 2);
  const ticked = form.get("refund") === "on";
  if (!submission.success)
    return {
      status: 400,
      error: {
        orderId,
        lineId,
        note,
        refund: ticked,
        refusalMessage: submission.error.issues[0]?.message ?? "入力内容を確認してください",
      },
    };
  const { refund, refundKey } = submission.data;
  const result = await refuseLine(
    orderId,
    submission.data.lineId,
    submission.data.note,
    refund && refundKey ? { requestKey: refundKey, adminUserId } : undefined,
  );
  if (!result.ok)
    return {
      status: result.status,
      error: { orderId, lineId, note, refund: ticked, refusalMessage: result.message },
    };
  if (result.refund) return { toast: refusalRefundToast(result.refund, result.mail) };
  return {
    toast:
      result.mail === "sent"
        ? { kind: "success", title: "お断りにしました", description: "お客様にメールでお知らせしました。" }
        : { kind: "error", title: "メール送信に失敗しました", description: MAIL_QUEUED },
  };
}

const MAIL_QUEUED =
  "お断りにしましたが、お客様へのメール送信に失敗しました。メールサーバーが復旧ししだい自動で再送します。";

/** お断り with its refund: what the provider made of the refund, and the mail's fate when it failed. */
function refusalRefundToast(refund: OrderRefundResult, mail: "sent" | "queued"): Toast {
  if (!refund.ok)
    return {
      kind: "error",
      title: "お断りにしましたが、返金できませんでした",
      description: `${refund.message} 注文ページから返金してください。`,
    };
  const made = refundToast(refund.refund);
  if (made.kind === "error") return { ...made, title: `お断りにしました。${made.title}` };
  if (mail === "queued")
    return { kind: "error", title: "メール送信に失敗しました", description: MAIL_QUEUED };
  return refund.refund.status === "succeeded"
    ? {
        kind: "success",
        title: "お断りにして返金しました",
        description: "お客様にメールでお知らせしました。",
      }
    : { ...made, title: `お断りにしました。${made.title}` };
}

/** Undoes a line's お断り; the customer is mailed that it will be made after all. */
async function withdrawRefusalStep({ orderId, form }: OrderListPost): Promise<OrderListOutcome> {
  const submission = lineRefusalWithdrawalSchema.safeParse(Object.fromEntries(form));
  const result = submission.success
    ? await withdrawRefusal(orderId, submission.data.lineId)
    : ({ ok: false, message: "明細が見つかりません。" } as const);
  if (!result.ok) return failed(result.message);
  return {
    toast: {
      kind: "success",
      title: "お断りを取り消しました",
      description:
        result.mail === "sent"
          ? "お客様にメールでお知らせしました。"
          : "お客様へのメールはメールサーバーが復旧ししだい自動で送信します。",
    },
  };
}

/** 完了: the order moves to 対応済み without a delivery. */
function completeStep({ orderId }: OrderListPost): OrderListOutcome {
  return completeOrder(orderId)
    ? { toast: { kind: "success", title: "処理完了", description: "注文を対応済みに移動しました。" } }
    : failed("完了処理に失敗しました。");
}

/** 納品: every line's URL (`url-{lineId}`) or attached video, then the customer's mail. */
async function deliverStep({ orderId, form, files }: OrderListPost): Promise<OrderListOutcome> {
  const downloadUrls: Record<string, string> = {};
  // What the admin typed, shown again in the form when the delivery is refused.
  const typed: Record<string, string> = {};
  for (const [key, value] of form) {
    const match = /^url-(\d+)$/.exec(key);
    if (match?.[1] && typeof value === "string") {
      downloadUrls[match[1]] = value;
      typed[key] = value.slice(0, 2000);
    }
  }
  const urls = orderDeliverySchema.safeParse({ downloadUrls });
  const result = urls.success
    ? await deliverOrder(orderId, urls.data.downloadUrls, files)
    : ({ ok: false, status: 400, message: urls.error.issues[0]?.message ?? "" } as const);
  if (!result.ok) return { status: result.status, error: { orderId, message: result.message, urls: typed } };
  if (result.mail === "queued")
    return {
      toast: { kind: "error", title: "メール送信に失敗しました", description: DELIVERED_MESSAGES.queued },
    };
  return { toast: { kind: "success", title: "納品処理完了", description: DELIVERED_MESSAGES[result.mail] } };
}

/** 納品メールを再送信, for a customer who lost the mail. */
async function resendStep({ orderId }: OrderListPost): Promise<OrderListOutcome> {
  const resent = await resendDeliveryMail(orderId);
  if (resent === "sent") return { toast: { kind: "success", title: "メールを再送信しました" } };
  if (resent === "no-video")
    return { toast: { kind: "error", title: "送信しません", description: NO_VIDEO_TO_MAIL } };
  return failed(
    resent === "queued"
      ? "メールの再送信に失敗しました。メールサーバーが復旧ししだい自動で再送します。"
      : "メールの再送信に失敗しました。",
  );
}

/** 期限を延長: the download page stays open DOWNLOAD_PAGE_EXTENSION_DAYS more. */
function extendStep({ orderId }: OrderListPost): OrderListOutcome {
  const until = extendDownloadPage(orderId, DOWNLOAD_PAGE_EXTENSION_DAYS);
  return until
    ? {
        toast: {
          kind: "success",
          title: "有効期限を延長しました",
          description: `新しい期限: ${formatDateTime(until)}`,
        },
      }
    : failed("ダウンロードページがありません。");
}

/** リセット: the line can be downloaded again (a broken file, a lost phone). */
function resetLineStep({ orderId, lineId }: OrderListPost): OrderListOutcome {
  // A bare `reset-line` names no line: no button posts it.
  if (lineId === null) return failed("操作が正しくありません。");
  return resetLineDownload(orderId, lineId)
    ? { toast: { kind: "success", title: "ダウンロード回数をリセットしました" } }
    : failed("明細が見つかりません。");
}

/** The order list's buttons, by the intent each posts. */
const STEPS: Record<string, Step> = {
  "refuse-line": refuseLineStep,
  "withdraw-refusal": withdrawRefusalStep,
  complete: completeStep,
  deliver: deliverStep,
  resend: resendStep,
  extend: extendStep,
  "reset-line": resetLineStep,
};
