import { formatDayWithWeekday, formatYenShort } from "~/lib/rules/format";
import { ORIENTATION_LABELS, ORIENTATIONS } from "~/lib/rules/pricing";
import { SHOP_NAME } from "~/lib/rules/shop";
import { contestSlug } from "~/lib/rules/slug";
import { tokyoDay } from "~/lib/rules/tokyo-date";
import { pricedFormats, orderFormOptions } from "../catalog/pricing.server";
import { storefrontPublication } from "../catalog/publication.server";
import { now } from "../core/clock.server";
import { siteUrl } from "../core/site-url.server";
import type { contests } from "../db/schema";
import { contestPromotionsOf } from "../promotions/contest-promotions.server";

/**
 * What a contest's flyer for the venue says (the PDF is contest-flyer-pdf.server.ts): where to
 * order (the order form's address, printed as a QR code, and the shop's), the 合言葉 that opens
 * it, from when orders are taken, and the prices as the order form will ask them — the
 * athletes' own prices per format (a range where they differ) and the 早割 while it lasts.
 * Read when the admin asks for it, so a flyer printed after a change says what the shop sells.
 */
export type ContestFlyer = {
  shopName: string;
  shopUrl: string;
  contestName: string;
  /** The contest's date and place as 大会設定 has them (未定 / empty are left out). */
  heldAt: string;
  orderFormUrl: string;
  accessCode: string | null;
  /** From when parents can order: now, a 公開予約's time, or not yet decided (非公開). */
  sales: string;
  /** One line per format on sale: 「縦動画 3,000円」 or 「縦動画 2,800円〜3,500円」. */
  prices: string[];
  /** 「早割 12月24日（木）23:59 までのご注文: 縦動画 2,500円」, while it lasts. */
  earlyBird: string | null;
};

type FlyerContest = Pick<
  typeof contests.$inferSelect,
  | "id"
  | "name"
  | "date"
  | "location"
  | "accessCode"
  | "videoPublished"
  | "sitePublicStatus"
  | "scheduledPublishDate"
>;

const time = new Intl.DateTimeFormat("ja-JP", { timeZone: "Asia/Tokyo", hour: "2-digit", minute: "2-digit" });

/** 「2026年12月24日（木）23:59」: when something starts or ends, as a parent reads it on paper. */
function when(at: Date | number): string {
  return `${formatDayWithWeekday(tokyoDay(at))} ${time.format(at)}`;
}

function priceRange(prices: number[]): string {
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return low === high ? formatYenShort(low) : `${formatYenShort(low)}〜${formatYenShort(high)}`;
}

export function contestFlyer(contest: FlyerContest): ContestFlyer {
  const at = now();
  const publication = storefrontPublication(contest, at);
  const formats = pricedFormats(contest.id);
  const { athletes } = orderFormOptions(contest.id);
  const prices = athletes.length
    ? formats.map(
        (format) =>
          `${format.name} ${priceRange(athletes.map((athlete) => (format.orientation === "vertical" ? athlete.verticalPrice : athlete.horizontalPrice)))}`,
      )
    : [];
  const { earlyBird } = contestPromotionsOf(contest.id);
  const earlyPrices =
    earlyBird && earlyBird.endsAt > at.getTime()
      ? ORIENTATIONS.flatMap((orientation) => {
          const price = earlyBird.prices[orientation];
          const format = formats.find((f) => f.orientation === orientation);
          return price === null
            ? []
            : [`${format?.name ?? ORIENTATION_LABELS[orientation]} ${formatYenShort(price)}`];
        })
      : [];
  return {
    shopName: SHOP_NAME,
    shopUrl: siteUrl("/"),
    contestName: contest.name,
    heldAt: [contest.date === "未定" ? "" : contest.date, contest.location].filter(Boolean).join("\u3000"),
    orderFormUrl: siteUrl(`/order-form/${encodeURIComponent(contestSlug(contest.name))}`),
    accessCode: contest.accessCode,
    sales: !publication.listed
      ? "受付開始の日時はショップでお知らせします"
      : publication.salesStartAt
        ? `${when(publication.salesStartAt)} から受付`
        : "受付中",
    prices,
    earlyBird:
      earlyBird && earlyPrices.length
        ? `早割 ${when(earlyBird.endsAt)} までのご注文: ${earlyPrices.join("、")}`
        : null,
  };
}
