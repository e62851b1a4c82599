import { useEffect, useMemo, useState } from "react";
import { formatYen, formatYenShort } from "~/lib/rules/format";
import { athletePrices } from "~/lib/rules/pricing";
import { earlyBirdPrice, orderFormPromotionNotes, type StyleNames } from "~/lib/rules/promotion-notices";
import { priceFormItems, type FormItem, type PricedFormItem } from "~/lib/rules/order-form-pricing";
import {
  earlyBirdOpen,
  minimumChargeNote,
  type ContestPromotions,
  type Discount,
  type PromotionPricing,
} from "~/lib/rules/promotions";
import type { OrderFormAthlete, OrderFormFormat } from "~/server/catalog/pricing.server";

/**
 * The order form's prices with the contest's promotions: each chosen line's price (the regular
 * one struck through when a discount applies, and what the discount is), the discounts under
 * the lines and the total, the chosen athlete's prices and a line saying what the contest offers.
 * The browser runs the server's own rule (lib/rules/promotions.ts) at the server's time, so the
 * live total is the one the next step will charge; without JavaScript the server draws the
 * same after each post.
 */

type Offer = { athletes: readonly OrderFormAthlete[]; formats: readonly OrderFormFormat[] };

export type OrderFormPricing = {
  /** The rule's answer for the complete lines. */
  pricing: PromotionPricing<PricedFormItem>;
  /** The priced line of the form's item at `index`, or null while it is incomplete. */
  lineAt: (index: number) => PromotionPricing<PricedFormItem>["lines"][number] | null;
};

/**
 * The time the page prices at: the server's (to the minute) and, when an early-bird ends while
 * the page is open, its end from then on. The timer waits from the start of the server's
 * minute, so it fires at the end or just after it, never before: the page never drops the
 * early price while the server still gives it.
 */
export function usePricingTime(pricedAt: number, promotions: ContestPromotions): number {
  const endsAt = promotions.earlyBird?.endsAt ?? null;
  const [ended, setEnded] = useState<{ pricedAt: number; at: number } | null>(null);
  useEffect(() => {
    if (endsAt === null || endsAt <= pricedAt) return;
    const wait = endsAt - pricedAt;
    // setTimeout cannot wait longer than about 24 days; a page is not open that long.
    if (wait > 2 ** 31 - 1) return;
    const timer = setTimeout(() => setEnded({ pricedAt, at: endsAt }), wait);
    return () => clearTimeout(timer);
  }, [endsAt, pricedAt]);
  return ended?.pricedAt === pricedAt ? ended.at : pricedAt;
}

/** The form's items priced by the rule (lib/rules/order-form-pricing.ts), kept while they are unchanged. */
export function useOrderFormPricing(
  offer: Offer,
  items: readonly FormItem[],
  promotions: ContestPromotions,
  at: number,
): OrderFormPricing {
  return useMemo(() => {
    const pricing = priceFormItems(offer, items, promotions, at);
    const byIndex = new Map(pricing.lines.map((line) => [line.index, line]));
    return { pricing, lineAt: (index) => byIndex.get(index) ?? null };
  }, [offer, items, promotions, at]);
}

/**
 * Each athlete's prices, said under the number list for the chosen athlete: each style's price,
 * the early price with the regular one beside it while the early-bird runs. Worked out once per
 * render, not once per item.
 */
export function useAthletePrices(offer: Offer, promotions: ContestPromotions, at: number) {
  return useMemo(() => {
    const open = earlyBirdOpen(promotions, at);
    const prices = new Map<number, string>();
    for (const athlete of offer.athletes) {
      const text = athletePrices(athlete, offer.formats)
        .map(({ format, price }) => {
          const early = open ? earlyBirdPrice(promotions, at, format.orientation, price) : price;
          return early < price
            ? `${format.name} 早割${formatYenShort(early)}（通常${formatYenShort(price)}）`
            : `${format.name} ${formatYenShort(price)}`;
        })
        .join("・");
      if (text) prices.set(athlete.id, text);
    }
    return prices;
  }, [offer, promotions, at]);
}

/** What the contest offers, in a line each (nothing when it has no promotion running). */
export function PromotionNotes({
  promotions,
  at,
  styles,
}: {
  promotions: ContestPromotions;
  at: number;
  styles: StyleNames;
}) {
  const notes = orderFormPromotionNotes(promotions, at, styles);
  if (notes.length === 0) return null;
  return (
    <section aria-label="キャンペーン" className="mt-5 rounded-xl border border-amber-300 bg-amber-50 p-4">
      <h2 className="font-semibold">キャンペーン</h2>
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm">
        {notes.map((note) => (
          <li key={note}>{note}</li>
        ))}
      </ul>
    </section>
  );
}

function DiscountList({ discounts, className }: { discounts: readonly Discount[]; className: string }) {
  if (discounts.length === 0) return null;
  return (
    <ul className={className}>
      {discounts.map((discount) => (
        <li key={`${discount.kind}-${discount.name}`}>
          {discount.name} −{formatYenShort(discount.amount)}
        </li>
      ))}
    </ul>
  );
}

/** One line's price: the price that applies, the regular price struck through and each discount. */
export function LinePrice({ line }: { line: OrderFormPricing["pricing"]["lines"][number] | null }) {
  return (
    <div className="mt-4 text-right text-sm text-zinc-600">
      <p>
        価格:{" "}
        {line && line.price < line.listPrice ? (
          <>
            <del className="mr-1 text-zinc-500">
              <span className="sr-only">通常価格</span>
              {formatYenShort(line.listPrice)}
            </del>{" "}
          </>
        ) : null}
        <span className="text-base font-bold text-zinc-900">{line ? formatYen(line.price) : "—"}</span>
      </p>
      {line ? <DiscountList discounts={line.discounts} className="mt-1 text-xs text-rose-700" /> : null}
    </div>
  );
}

/**
 * Under the lines: the regular total and each discount (nothing when there is none). Apart from
 * the total, which stays at the foot of a phone's screen: the breakdown would cover the form there.
 */
export function OrderDiscounts({ pricing }: { pricing: OrderFormPricing["pricing"] }) {
  if (pricing.discounts.length === 0) return null;
  const note = minimumChargeNote(pricing);
  return (
    <section aria-label="割引" className="rounded-xl border border-zinc-200 bg-white p-4">
      <dl className="space-y-0.5 text-sm text-zinc-600">
        <div className="flex justify-between gap-4">
          <dt>通常価格の合計</dt>
          <dd>{formatYenShort(pricing.listTotal)}</dd>
        </div>
        {pricing.discounts.map((discount) => (
          <div key={`${discount.kind}-${discount.name}`} className="flex justify-between gap-4 text-rose-700">
            <dt>{discount.name}</dt>
            <dd>−{formatYenShort(discount.amount)}</dd>
          </div>
        ))}
      </dl>
      {note ? <p className="mt-2 text-sm text-zinc-700">{note}</p> : null}
    </section>
  );
}

/** The total to pay, said again as it changes. */
export function OrderTotal({ pricing }: { pricing: OrderFormPricing["pricing"] }) {
  return (
    <div className="flex items-baseline justify-between">
      <span className="font-semibold">合計</span>
      <span className="text-xl font-bold" aria-live="polite">
        {formatYen(pricing.total)}
      </span>
    </div>
  );
}
