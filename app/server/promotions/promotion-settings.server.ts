import { parseForm } from "~/lib/schemas/parse-form";
import { promotionSettingsSummary, promotionsSavedNote, styleNamesOf } from "~/lib/rules/promotion-notices";
import { PROMOTIONS_INTENT, promotionSettingsSchema } from "~/lib/schemas/promotion-schemas";
import { toTokyoDateTimeInput } from "~/lib/schemas/contest-settings-schemas";
import type { SettingsTabOutcome } from "../catalog/contest-settings-tab.server";
import { pricedFormats } from "../catalog/pricing.server";
import { now } from "../core/clock.server";
import { promotionsOf, promotionsRow, saveContestPromotions } from "./contest-promotions.server";

/**
 * 大会設定's キャンペーン価格: the form's values as saved, the promotions in words, and its post
 * (the intent "promotions", checked with the schema the browser checks with). The order form
 * and every checkout step read the saved row through contestPromotionsOf, whose cache the
 * catalogue's triggers clear on each save.
 */

/** What the section shows: the saved values as the form's fields hold them, and the state in words. */
export function promotionSettingsPage(contestId: number) {
  const row = promotionsRow(contestId);
  const styles = styleNamesOf(pricedFormats(contestId));
  const text = (value: number | null | undefined) => (value == null ? "" : String(value));
  return {
    styles,
    values: {
      earlyBirdVerticalPrice: text(row?.earlyBirdVerticalPrice),
      earlyBirdHorizontalPrice: text(row?.earlyBirdHorizontalPrice),
      earlyBirdEndsAt: row?.earlyBirdEndsAt ? toTokyoDateTimeInput(row.earlyBirdEndsAt) : "",
      setDiscount: text(row?.setDiscount),
      quantityMinItems: text(row?.quantityMinItems),
      quantityDiscountKind: row?.quantityDiscountKind ?? "yen",
      quantityDiscountValue: text(row?.quantityDiscountValue),
    },
    summary: promotionSettingsSummary(promotionsOf(row), now().getTime(), styles),
  };
}

/** The section's post: a refusal keeps what was typed beside its fields; a save says what now applies. */
export function savePromotionSettings(contestId: number, form: FormData): SettingsTabOutcome {
  const submission = parseForm(form, { schema: promotionSettingsSchema });
  if (submission.status !== "success")
    return {
      saved: false,
      status: 400,
      data: { intent: PROMOTIONS_INTENT, target: null, reply: submission.reply() },
    };
  saveContestPromotions(contestId, submission.value);
  const saved = promotionsOf({ contestId, updatedAt: null, ...submission.value });
  return { saved: true, section: "promotions", description: promotionsSavedNote(saved, now().getTime()) };
}
