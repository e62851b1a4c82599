import { z } from "zod";
import { COUPON_CODE_FORMAT_MESSAGE, COUPON_CODE_PATTERN, normaliseCouponCode } from "../rules/coupons";
import { AMOUNT_KINDS } from "../rules/promotions";
import { tokyoDateTime } from "./contest-settings-schemas";

/**
 * クーポン管理's form (create and edit alike), read by the screen in the browser and on the
 * server through conform, and by the JSON calls. A date is what a datetime-local field types, in
 * Japan time ("2026-12-01T09:00"), or, from a script, an ISO 8601 time with its zone.
 */

export const COUPON_YEN_MAX = 1_000_000;
export const COUPON_LABEL_MAX = 100;

/** An ISO 8601 time with its zone (Z or ±hh:mm), as the JSON API answers times. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A coupon's date as typed (Japan time) or sent by a script (with its zone); null when it is neither. */
export function couponInstant(value: string): Date | null {
  const typed = tokyoDateTime(value);
  if (typed) return typed;
  if (!ISO_INSTANT.test(value)) return null;
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

const count = (name: string) =>
  z
    .number({ invalid_type_error: `${name}は数字で入力してください` })
    .int(`${name}は整数で入力してください`)
    .min(1, `${name}は1以上で入力してください`)
    .max(1_000_000, `${name}は1,000,000以下で入力してください`)
    .nullable()
    .default(null);

const dateField = (name: string) =>
  z
    .string({ invalid_type_error: `${name}を正しく入力してください` })
    .trim()
    .nullable()
    .optional()
    .transform((value, ctx) => {
      if (!value) return null;
      const instant = couponInstant(value);
      if (instant) return instant;
      ctx.addIssue({ code: "custom", message: `${name}を正しく入力してください（例: 2026-12-01T09:00）` });
      return z.NEVER;
    });

export const couponFormSchema = z
  .object({
    code: z
      .string({
        required_error: "クーポンコードを入力してください",
        invalid_type_error: COUPON_CODE_FORMAT_MESSAGE,
      })
      .transform(normaliseCouponCode)
      .refine((code) => code !== "", "クーポンコードを入力してください")
      .refine((code) => code === "" || COUPON_CODE_PATTERN.test(code), COUPON_CODE_FORMAT_MESSAGE),
    label: z
      .string({ invalid_type_error: "メモは文字で入力してください" })
      .trim()
      .max(COUPON_LABEL_MAX, `メモは${COUPON_LABEL_MAX}文字以内で入力してください`)
      .default(""),
    kind: z.enum(AMOUNT_KINDS, { errorMap: () => ({ message: "割引の種類（円 か %）を選んでください" }) }),
    value: z
      .number({
        required_error: "割引額を入力してください",
        invalid_type_error: "割引額は数字で入力してください",
      })
      .int("割引額は整数で入力してください"),
    minTotal: z
      .number({ invalid_type_error: "最低金額は数字で入力してください" })
      .int("最低金額は整数で入力してください")
      .min(0, "最低金額は0円以上で入力してください")
      .max(100_000_000, "最低金額は100,000,000円以下で入力してください")
      .default(0),
    validFrom: dateField("開始日時"),
    validUntil: dateField("終了日時"),
    contestIds: z
      .array(
        z
          .number({ invalid_type_error: "対象の大会を正しく選んでください" })
          .int()
          .positive("対象の大会を正しく選んでください"),
        { invalid_type_error: "対象の大会を正しく選んでください" },
      )
      .max(500, "対象の大会は500件までです")
      .nullable()
      .default([]),
    maxUses: count("利用上限（全体）"),
    maxUsesPerEmail: count("利用上限（1アドレスあたり）"),
  })
  .superRefine((value, ctx) => {
    if (value.kind === "yen" && (value.value < 1 || value.value > COUPON_YEN_MAX))
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: "円の割引額は1〜1,000,000円で入力してください",
      });
    if (value.kind === "percent" && (value.value < 1 || value.value > 100))
      ctx.addIssue({ code: "custom", path: ["value"], message: "%の割引は1〜100%で入力してください" });
    if (value.validFrom && value.validUntil && value.validUntil <= value.validFrom)
      ctx.addIssue({
        code: "custom",
        path: ["validUntil"],
        message: "終了日時は開始日時より後にしてください",
      });
  })
  .transform((value) => ({
    ...value,
    // None ticked: every contest, as the coupons table keeps it (null).
    contestIds: value.contestIds?.length ? [...new Set(value.contestIds)].sort((a, b) => a - b) : null,
  }));

export type CouponFormInput = z.input<typeof couponFormSchema>;
export type CouponValues = z.output<typeof couponFormSchema>;

/** 停止 / 再開: the coupon's id and which of the two. */
export const couponSwitchSchema = z.object({
  intent: z.enum(["disable", "enable"], { errorMap: () => ({ message: "操作を選んでください" }) }),
  couponId: z
    .number({ invalid_type_error: "クーポンを選んでください" })
    .int()
    .positive("クーポンを選んでください"),
});

/** `POST /api/checkout/coupon`'s body: the code as typed (applyCheckoutCoupon normalises and checks it). */
export const checkoutCouponCallSchema = z.object({
  code: z
    .string({
      required_error: "クーポンコードを入力してください",
      invalid_type_error: COUPON_CODE_FORMAT_MESSAGE,
    })
    .max(64, COUPON_CODE_FORMAT_MESSAGE),
});
