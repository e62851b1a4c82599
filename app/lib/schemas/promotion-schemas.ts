import { z } from "zod";
import { AMOUNT_KINDS, type AmountKind } from "../rules/promotions";
import { wholeNumber } from "../rules/typed-amounts";
import { tokyoDateTime } from "./contest-settings-schemas";

/**
 * 大会設定's キャンペーン価格 form: 早割 (a price per style until a time, Japan time), セット割
 * (yen off an athlete ordered in both styles) and まとめ割 (from N videos, yen or percent off
 * each). One schema for the browser's check and the action's; a field left empty turns its
 * promotion off, so emptying the form ends every promotion.
 */

/** The form's intent on the 大会設定 tab. */
export const PROMOTIONS_INTENT = "promotions";

export const MAX_PROMOTION_YEN = 1_000_000;
export const MAX_PROMOTION_PERCENT = 90;
export const MIN_QUANTITY_ITEMS = 2;
export const MAX_QUANTITY_ITEMS = 50;

export const PROMOTION_MESSAGES = {
  earlyBirdPrice: `早割価格は1円から${MAX_PROMOTION_YEN.toLocaleString("ja-JP")}円までの整数で入力してください`,
  earlyBirdPriceMissing: "早割価格を少なくとも一方のスタイルに入力してください",
  earlyBirdEndsAtMissing: "早割の終了日時を入力してください",
  earlyBirdEndsAt: "早割の終了日時を正しく入力してください",
  setDiscount: `セット割の値引き額は1円から${MAX_PROMOTION_YEN.toLocaleString("ja-JP")}円までの整数で入力してください`,
  quantityMinItems: `まとめ割の本数は${MIN_QUANTITY_ITEMS}本から${MAX_QUANTITY_ITEMS}本までの整数で入力してください`,
  quantityMinItemsMissing: "まとめ割が適用される本数を入力してください",
  quantityYen: `まとめ割の値引き額は1円から${MAX_PROMOTION_YEN.toLocaleString("ja-JP")}円までの整数で入力してください`,
  quantityPercent: `まとめ割の割引率は1%から${MAX_PROMOTION_PERCENT}%までの整数で入力してください`,
  quantityValueMissing: "まとめ割の値引きを入力してください",
  quantityKind: "まとめ割の値引きの種類（円引き・％引き）を選んでください",
} as const;

/** What the saved row holds (server/promotions/contest-promotions.server's PromotionsValues). */
export type PromotionSettings = {
  earlyBirdVerticalPrice: number | null;
  earlyBirdHorizontalPrice: number | null;
  earlyBirdEndsAt: Date | null;
  setDiscount: number | null;
  quantityMinItems: number | null;
  quantityDiscountKind: AmountKind | null;
  quantityDiscountValue: number | null;
};

// Only the form posts here, and it posts text; anything else is answered in the field's own words.
const typed = (message: string) => z.string({ invalid_type_error: message }).trim().optional().default("");

export const promotionSettingsSchema = z
  .object({
    intent: z.literal(PROMOTIONS_INTENT),
    earlyBirdVerticalPrice: typed(PROMOTION_MESSAGES.earlyBirdPrice),
    earlyBirdHorizontalPrice: typed(PROMOTION_MESSAGES.earlyBirdPrice),
    earlyBirdEndsAt: typed(PROMOTION_MESSAGES.earlyBirdEndsAt),
    setDiscount: typed(PROMOTION_MESSAGES.setDiscount),
    quantityMinItems: typed(PROMOTION_MESSAGES.quantityMinItems),
    quantityDiscountKind: z
      .enum(AMOUNT_KINDS, { errorMap: () => ({ message: PROMOTION_MESSAGES.quantityKind }) })
      .default("yen"),
    quantityDiscountValue: typed(PROMOTION_MESSAGES.quantityYen),
  })
  .transform((form, ctx): PromotionSettings => {
    /** A typed amount within `min`–`max`, null when empty; an issue on its field otherwise. */
    const amount = (field: keyof typeof form, min: number, max: number, message: string) => {
      const text = form[field];
      if (!text) return null;
      const value = wholeNumber(text);
      if (value === null || value < min || value > max) {
        ctx.addIssue({ code: "custom", path: [field], message });
        return null;
      }
      return value;
    };
    const yen = (field: keyof typeof form, message: string) => amount(field, 1, MAX_PROMOTION_YEN, message);

    // 早割: a price for at least one style and its end, or neither.
    const vertical = yen("earlyBirdVerticalPrice", PROMOTION_MESSAGES.earlyBirdPrice);
    const horizontal = yen("earlyBirdHorizontalPrice", PROMOTION_MESSAGES.earlyBirdPrice);
    const pricesTyped = Boolean(form.earlyBirdVerticalPrice || form.earlyBirdHorizontalPrice);
    let endsAt: Date | null = null;
    if (form.earlyBirdEndsAt) {
      endsAt = tokyoDateTime(form.earlyBirdEndsAt);
      if (!endsAt)
        ctx.addIssue({
          code: "custom",
          path: ["earlyBirdEndsAt"],
          message: PROMOTION_MESSAGES.earlyBirdEndsAt,
        });
      else if (!pricesTyped)
        ctx.addIssue({
          code: "custom",
          path: ["earlyBirdVerticalPrice"],
          message: PROMOTION_MESSAGES.earlyBirdPriceMissing,
        });
    } else if (pricesTyped) {
      ctx.addIssue({
        code: "custom",
        path: ["earlyBirdEndsAt"],
        message: PROMOTION_MESSAGES.earlyBirdEndsAtMissing,
      });
    }

    const setDiscount = yen("setDiscount", PROMOTION_MESSAGES.setDiscount);

    // まとめ割: the number of videos and the amount off each, or neither.
    const minItems = amount(
      "quantityMinItems",
      MIN_QUANTITY_ITEMS,
      MAX_QUANTITY_ITEMS,
      PROMOTION_MESSAGES.quantityMinItems,
    );
    const kind = form.quantityDiscountKind;
    const value =
      kind === "percent"
        ? amount("quantityDiscountValue", 1, MAX_PROMOTION_PERCENT, PROMOTION_MESSAGES.quantityPercent)
        : yen("quantityDiscountValue", PROMOTION_MESSAGES.quantityYen);
    if (form.quantityMinItems && !form.quantityDiscountValue)
      ctx.addIssue({
        code: "custom",
        path: ["quantityDiscountValue"],
        message: PROMOTION_MESSAGES.quantityValueMissing,
      });
    if (!form.quantityMinItems && form.quantityDiscountValue)
      ctx.addIssue({
        code: "custom",
        path: ["quantityMinItems"],
        message: PROMOTION_MESSAGES.quantityMinItemsMissing,
      });
    const quantityOn = minItems !== null && value !== null;

    const early = endsAt && (vertical !== null || horizontal !== null);
    return {
      earlyBirdVerticalPrice: early ? vertical : null,
      earlyBirdHorizontalPrice: early ? horizontal : null,
      earlyBirdEndsAt: early ? endsAt : null,
      setDiscount,
      quantityMinItems: quantityOn ? minItems : null,
      quantityDiscountKind: quantityOn ? kind : null,
      quantityDiscountValue: quantityOn ? value : null,
    };
  });
