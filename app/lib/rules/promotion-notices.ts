import { formatDateTime, formatYenShort } from "./format";
import { ORIENTATION_LABELS, ORIENTATIONS, type Orientation } from "./pricing";
import { applyPromotions, earlyBirdOpen, NO_PROMOTIONS, type ContestPromotions } from "./promotions";

/**
 * A contest's promotions in words: the state 大会設定 shows the admin, and the short lines the
 * order form shows parents. Pure, so the order form says the same on the server and in the browser.
 */

/** The names of the two priced styles (the contest's first two formats), 縦 and 横 unless renamed. */
export type StyleNames = Record<Orientation, string>;

/** The names the contest's priced formats give the two styles (縦 and 横 unless renamed). */
export function styleNamesOf(formats: readonly { name: string; orientation: Orientation }[]): StyleNames {
  const names: StyleNames = { ...ORIENTATION_LABELS };
  for (const format of formats) names[format.orientation] = format.name;
  return names;
}

// "12/1 23:59" in Japan time: the order form's short date.
const shortDateTime = new Intl.DateTimeFormat("ja-JP", {
  timeZone: "Asia/Tokyo",
  month: "numeric",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

function quantityOff(quantity: NonNullable<ContestPromotions["quantity"]>): string {
  return quantity.kind === "yen" ? `${formatYenShort(quantity.value)}引き` : `${quantity.value}%引き`;
}

function earlyPrices(early: NonNullable<ContestPromotions["earlyBird"]>, styles: StyleNames): string {
  return ORIENTATIONS.flatMap((orientation) => {
    const price = early.prices[orientation];
    return price === null ? [] : [`${styles[orientation]} ${formatYenShort(price)}`];
  }).join("・");
}

/** 大会設定's summary, one line per promotion, ended ones said to be so (「早割：… まで（終了しました）」). */
export function promotionSettingsSummary(
  promotions: ContestPromotions,
  at: number,
  styles: StyleNames,
): string[] {
  const { earlyBird, setDiscount, quantity } = promotions;
  return [
    earlyBird
      ? `早割：${earlyPrices(earlyBird, styles)}、${formatDateTime(earlyBird.endsAt)} まで（${earlyBirdOpen(promotions, at) ? "実施中" : "終了しました"}）`
      : "早割：なし",
    setDiscount
      ? `セット割：同じ選手の${styles.vertical}・${styles.horizontal}セットで${formatYenShort(setDiscount)}引き`
      : "セット割：なし",
    quantity
      ? `まとめ割：1回のご注文で${quantity.minItems}本以上なら1本あたり${quantityOff(quantity)}`
      : "まとめ割：なし",
  ];
}

/**
 * The save's toast in one short sentence: which promotions run now. The section under it lists
 * each one in full (promotionSettingsSummary); its three lines run together in a toast.
 */
export function promotionsSavedNote(promotions: ContestPromotions, at: number): string {
  const { earlyBird, setDiscount, quantity } = promotions;
  const earlyOpen = earlyBird !== null && earlyBirdOpen(promotions, at);
  const running = [earlyOpen ? "早割" : null, setDiscount ? "セット割" : null, quantity ? "まとめ割" : null];
  const names = running.filter((name) => name !== null);
  const now = names.length > 0 ? `実施中: ${names.join("・")}。` : "実施中のキャンペーンはありません。";
  return `キャンペーン価格を保存しました。${now}${earlyBird && !earlyOpen ? "早割は終了しています。" : ""}`;
}

/** What the order form says the contest offers: the promotions that apply at `at`. */
export function orderFormPromotionNotes(
  promotions: ContestPromotions,
  at: number,
  styles: StyleNames,
): string[] {
  const { earlyBird, setDiscount, quantity } = promotions;
  return [
    ...(earlyBird && earlyBirdOpen(promotions, at)
      ? [`${shortDateTime.format(earlyBird.endsAt)}までのご注文は早割価格`]
      : []),
    ...(setDiscount
      ? [`${styles.vertical}・${styles.horizontal}セットで${formatYenShort(setDiscount)}引き`]
      : []),
    ...(quantity ? [`${quantity.minItems}本以上で1本あたり${quantityOff(quantity)}`] : []),
  ];
}

/**
 * The price one video of an athlete costs at `at` before any discount that depends on the rest of
 * the order: the early price where it runs and is lower, else the list price. Worked out by the
 * rule itself, so the chosen athlete's prices never say a price the order would not get.
 */
export function earlyBirdPrice(
  promotions: ContestPromotions,
  at: number,
  orientation: Orientation,
  listPrice: number,
): number {
  if (!promotions.earlyBird) return listPrice;
  const earlyOnly = { ...NO_PROMOTIONS, earlyBird: promotions.earlyBird };
  return applyPromotions([{ athleteId: 0, orientation, listPrice }], earlyOnly, at).total;
}
