import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/schemas/parse-form";
import { positiveId } from "~/lib/rules/params";
import { deliveryActionSchema, fileMatchSchema, type DeliveryAction } from "~/lib/schemas/delivery-schemas";
import { UPLOAD_MESSAGES } from "~/lib/schemas/media-schemas";
import { readForm } from "../http/form.server";
import type { Toast } from "../http/session.server";
import { retryVideoJobs } from "../media/video-states.server";
import { deliverContest, resendAfterReplacement } from "./batch-delivery.server";
import { NO_VIDEO_TO_MAIL } from "./order-delivery.server";
import {
  matchFileByHand,
  receiveDeliveryForm,
  removeWaitingFile,
  replaceFile,
} from "./delivery-files.server";

/**
 * The 納品ファイル tab's posts, one named step each: the uploads (a plain multipart form), a
 * replacement, a hand match, back to the name's match, removal, 再実行 of a video's failed
 * processing, 一括納品 and the re-sent mail.
 * Each answers what the route sends back: a toast on the way back to the tab (PRG), or the tab
 * again with the error beside the file it is about.
 */

/** A refusal the admin can correct on the tab: the file it is about (null: the upload form), the match form's reply or a message. */
export type DeliveryTabError = { fileId: number | null; reply?: SubmissionResult<string[]>; error?: string };

export type DeliveryTabOutcome = { toast: Toast } | { status: number; error: DeliveryTabError };

type TabContest = { id: number; bibNumberLabel: string };

const done = (title: string, description?: string): DeliveryTabOutcome => ({
  toast: { kind: "success", title, description },
});
const failed = (title: string, description?: string): DeliveryTabOutcome => ({
  toast: { kind: "error", title, description },
});
const refused = (status: number, error: DeliveryTabError): DeliveryTabOutcome => ({ status, error });

/** Reads a post of the tab and runs the step it names: files come as multipart, the buttons as small forms. */
export async function runDeliveryTabPost(request: Request, contest: TabContest): Promise<DeliveryTabOutcome> {
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    const query = new URL(request.url).searchParams;
    return query.get("intent") === "replace"
      ? replaceStep(request, contest, query.get("fileId"))
      : uploadStep(request, contest);
  }
  const form = await readForm(request);
  if (form.get("intent") === "match") return matchStep(form, contest);
  // Ticked boxes repeat their name: the only field read as a list.
  const parsed = deliveryActionSchema.safeParse({
    ...Object.fromEntries(form),
    closeOrderId: form.getAll("closeOrderId"),
  });
  if (!parsed.success)
    return refused(400, { fileId: null, error: "操作を読み取れませんでした。もう一度お試しください。" });
  return buttonStep(parsed.data, contest);
}

/** アップロード without JavaScript: every video is kept, the others refused by name and reason. */
async function uploadStep(request: Request, contest: TabContest): Promise<DeliveryTabOutcome> {
  const received = await receiveDeliveryForm(contest.id, request);
  if (!received.ok) return refused(received.status, { fileId: null, error: received.message });
  if (received.refused.length > 0)
    // Each reason names its file; the title is the one the queue shows with JavaScript.
    return failed(
      UPLOAD_MESSAGES.filesRefused(received.refused.length),
      `${received.refused.map((file) => file.message).join(" ")}${received.stored.length ? `（他の ${received.stored.length} 件はアップロードしました）` : ""}`,
    );
  return done("アップロード完了", `${received.stored.length} 件のファイルをアップロードしました。`);
}

/** 差し替え: a corrected video for a file, keeping its athlete and style. */
async function replaceStep(
  request: Request,
  contest: TabContest,
  fileIdParam: string | null,
): Promise<DeliveryTabOutcome> {
  const fileId = positiveId(fileIdParam);
  if (!fileId) return refused(404, { fileId: null, error: "ファイルが見つかりません" });
  const replaced = await replaceFile(contest.id, fileId, request);
  if (!replaced.ok) return refused(replaced.status, { fileId, error: replaced.message });
  return done(
    "ファイルを差し替えました",
    replaced.delivered
      ? `「${replaced.file.originalName}」は一括納品で納品済みの注文に反映されます。`
      : `「${replaced.file.originalName}」に差し替えました。`,
  );
}

/** 割り当て: the admin's athlete number and style for a waiting file; a wrong number comes back on the field. */
function matchStep(form: FormData, contest: TabContest): DeliveryTabOutcome {
  const submission = parseForm(form, { schema: fileMatchSchema });
  const fileId = positiveId(form.get("fileId"));
  if (submission.status !== "success") return refused(400, { fileId, reply: submission.reply() });
  const { athleteNumber, orientation } = submission.value;
  const matched = matchFileByHand(
    contest.id,
    submission.value.fileId,
    { athleteNumber, orientation },
    contest.bibNumberLabel,
  );
  if (!matched.ok)
    return refused(matched.status, {
      fileId,
      reply: submission.reply({ fieldErrors: { athleteNumber: [matched.message] } }),
    });
  return done("割り当てました", `${contest.bibNumberLabel} ${athleteNumber} に割り当てました。`);
}

/** The tab's other buttons. */
async function buttonStep(input: DeliveryAction, contest: TabContest): Promise<DeliveryTabOutcome> {
  switch (input.intent) {
    case "match-by-name": {
      const result = matchFileByHand(contest.id, input.fileId, null, contest.bibNumberLabel);
      return result.ok ? done("ファイル名での照合に戻しました") : failed("エラー", result.message);
    }
    case "remove": {
      const result = await removeWaitingFile(contest.id, input.fileId);
      return result.ok ? done("ファイルを削除しました") : failed("エラー", result.message);
    }
    case "retry":
      return retryVideoJobs(contest.id, "delivery", input.fileId)
        ? done("再実行します", "順番が来ると処理を始めます。")
        : failed("再実行できません", "失敗した処理のあるファイルが見つかりません。");
    case "deliver-all":
      return deliverAllStep(contest, input.closeOrderId);
    case "resend": {
      const result = await resendAfterReplacement(contest.id, input.orderId);
      if (result === "sent") return done("納品メールを再送信しました");
      if (result === "queued")
        return failed("メール送信に失敗しました", "メールサーバーが復旧ししだい自動で再送します。");
      if (result === "no-video") return failed("送信しません", NO_VIDEO_TO_MAIL);
      return failed("エラー", "注文が見つかりません");
    }
  }
}

/** 一括納品, told in one toast: what was delivered, closed, replaced and left waiting. */
function deliverAllStep(contest: TabContest, closeOrderIds: number[]): DeliveryTabOutcome {
  const result = deliverContest(contest.id, { closeOrderIds });
  if (!result) return failed("エラー", "大会が見つかりません");
  const unconfirmed = result.unconfirmed.length
    ? `動画のない ${result.unconfirmed.length} 件の注文は、確認のチェックがないため未対応のままです。`
    : "";
  if (result.delivered.length === 0 && result.replaced.length === 0 && result.closed.length === 0)
    return failed(
      "納品できる注文はありません",
      unconfirmed || "すべての明細にファイルがそろった注文がありません。",
    );
  const parts = [
    result.delivered.length
      ? `${result.delivered.length} 件の注文を納品しました（納品メール ${result.mails} 通）。`
      : "",
    result.closed.length
      ? `動画のない ${result.closed.length} 件の注文を対応済みにしました（メールは送っていません）。`
      : "",
    result.replaced.length ? `${result.replaced.length} 件の納品済みの注文のファイルを差し替えました。` : "",
    result.incomplete.length
      ? `ファイルが足りない ${result.incomplete.length} 件の注文は未対応のままです。`
      : "",
    unconfirmed,
  ];
  return done("一括納品完了", parts.join(""));
}
