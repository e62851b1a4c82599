import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/schemas/parse-form";
import { positiveId } from "~/lib/rules/params";
import { couponFormSchema, couponSwitchSchema } from "~/lib/schemas/coupon-schemas";
import type { Toast } from "../http/session.server";
import {
  COUPON_NOT_FOUND_MESSAGE,
  createCoupon,
  setCouponDisabled,
  updateCoupon,
} from "./coupon-admin.server";

/**
 * クーポン管理's posts as named steps: 保存 (`intent=save`, a new coupon, or with `couponId` a
 * change) and 停止 / 再開. A refusal answers conform's reply, so every typed value comes back
 * with the message beside its field (400 for what the form's schema refuses, 404/409 for a rule).
 */

export const COUPONS_PATH = "/admin/coupons";

export type CouponsStepOutcome =
  { done: true; toast: Toast } | { done: false; status: 400 | 404 | 409; reply: SubmissionResult<string[]> };

export function couponsStep(form: FormData): CouponsStepOutcome {
  const intent = form.get("intent");
  if (intent === "disable" || intent === "enable") return switchStep(form);
  const submission = parseForm(form, { schema: couponFormSchema });
  if (submission.status !== "success") return { done: false, status: 400, reply: submission.reply() };
  const rawId = form.get("couponId");
  const id = rawId ? positiveId(String(rawId)) : null;
  if (rawId && !id)
    return { done: false, status: 404, reply: submission.reply({ formErrors: [COUPON_NOT_FOUND_MESSAGE] }) };
  const result = id ? updateCoupon(id, submission.value) : createCoupon(submission.value);
  if (!result.ok)
    return {
      done: false,
      status: result.status,
      reply: result.field
        ? submission.reply({ fieldErrors: { [result.field]: [result.message] } })
        : submission.reply({ formErrors: [result.message] }),
    };
  return {
    done: true,
    toast: {
      kind: "success",
      title: id ? "保存しました" : "追加しました",
      description: `クーポン ${result.coupon.code} を${id ? "保存" : "追加"}しました。`,
    },
  };
}

function switchStep(form: FormData): CouponsStepOutcome {
  const submission = parseForm(form, { schema: couponSwitchSchema });
  if (submission.status !== "success") return { done: false, status: 400, reply: submission.reply() };
  const { intent, couponId } = submission.value;
  const coupon = setCouponDisabled(couponId, intent === "disable");
  if (!coupon)
    return { done: false, status: 404, reply: submission.reply({ formErrors: [COUPON_NOT_FOUND_MESSAGE] }) };
  return {
    done: true,
    toast: {
      kind: "success",
      title: intent === "disable" ? "停止しました" : "再開しました",
      description:
        intent === "disable"
          ? `クーポン ${coupon.code} は使えなくなりました（作成済みの注文はそのままです）。`
          : `クーポン ${coupon.code} を再び使えるようにしました。`,
    },
  };
}
