import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/schemas/parse-form";
import { orderFormSchema } from "~/lib/schemas/order-schemas";
import { MAX_ORDER_ITEMS } from "~/lib/rules/pricing";
import { now } from "../core/clock.server";
import { catalogueCached } from "../catalog/catalogue-cache.server";
import type { CheckoutItem } from "../db/schema";
import { savedPriceDescription } from "../catalog/contest-settings.server";
import { findContestBySlug } from "../catalog/contests.server";
import { isOnSale } from "../catalog/publication.server";
import { orderFormOptions } from "../catalog/pricing.server";
import { completeItems, priceItems } from "../promotions/order-pricing.server";
import { currentCheckout, saveDraft } from "./draft.server";
import type { ShopSession } from "../http/session.server";
import { notFound } from "../http/not-found.server";
import { positiveId } from "~/lib/rules/params";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";
import { contestPromotionsOf } from "../promotions/contest-promotions.server";

/** The contest of an order-form URL, only while it is on sale; anything else is a 404. */
export function orderFormContest(slug: string) {
  const contest = findContestBySlug(slug);
  if (!contest || !isOnSale(contest, now())) notFound();
  return contest;
}

export function orderFormPage(session: ShopSession, contest: { id: number; namesHidden?: boolean }) {
  const checkout = currentCheckout(session);
  // A new form starts with one empty item; a saved draft is shown as it is, even when emptied.
  const draft = checkout?.contestId === contest.id ? checkout.items : [emptyItem()];
  const description = catalogueCached(`price-description:${contest.id}`, () =>
    savedPriceDescription(contest.id),
  );
  const options = orderFormOptions(contest.id);
  return {
    // 番号のみ表示: the names never leave the server, not even in the page's data.
    options: contest.namesHidden
      ? { ...options, athletes: options.athletes.map((athlete) => ({ ...athlete, name: "" })) }
      : options,
    draft,
    draftVersion: checkout?.updatedAt?.getTime() ?? 0,
    priceDescription: description,
    promotions: contestPromotionsOf(contest.id),
    pricedAt: pricingMinute(now()),
  };
}

/**
 * The server's time the page prices at (the browser runs the same rule at it, not at its own
 * clock, which may be wrong), to the minute: an early-bird ends on a whole minute (its end is
 * typed as a date and minute), so the price is the same for every moment of that minute, and
 * the page drawn for a minute stays the same page for the render cache.
 */
function pricingMinute(at: Date): number {
  return Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS;
}

function emptyItem(): CheckoutItem {
  return { category: "", athleteId: null, formatId: null };
}

/** Whatever the form holds, kept as a draft even when incomplete (so nothing typed is lost). */
function draftFrom(payload: Record<string, unknown>): CheckoutItem[] {
  // A body may name items[3] alone: the parsed array then has holes before it, which are no
  // items at all (filter skips holes), and a stored hole would read back as null.
  const raw = Array.isArray(payload.items)
    ? payload.items.filter((item) => item !== undefined).slice(0, MAX_ORDER_ITEMS)
    : [];
  return raw.map((item) => {
    const fields = typeof item === "object" && item !== null ? (item as Record<string, unknown>) : {};
    return {
      category: typeof fields.category === "string" ? fields.category.slice(0, 200) : "",
      athleteId: positiveId(fields.athleteId),
      formatId: positiveId(fields.formatId),
    };
  });
}

export type OrderFormOutcome =
  | { kind: "reload" }
  | { kind: "confirm" }
  | { kind: "invalid"; status: 400 | 422; reply: SubmissionResult<string[]> }
  /** Too many new drafts from this address: nothing saved, the choices go back into the form. */
  | { kind: "refused"; status: 429; reply: SubmissionResult<string[]>; items: CheckoutItem[] };

/**
 * One handler for every button of the form: add an item, remove one, 金額を計算する (without JS
 * a choice posts nothing; the page drawn after it prices the choices), or go on to the
 * confirmation. Each saves the draft on the server first.
 */
export function handleOrderForm(
  session: ShopSession,
  contest: { id: number },
  formData: FormData,
  request: Request,
): OrderFormOutcome {
  const intent = String(formData.get("intent") ?? "next");
  const submission = parseForm(formData, { schema: orderFormSchema });
  const chosen = draftFrom(submission.payload);
  const items = itemsAfter(intent, chosen);
  // Every button saves the draft first; a new one only within its address's limit.
  if (!saveDraft(session, contest.id, items, request)) {
    return {
      kind: "refused",
      status: 429,
      items: chosen.length > 0 ? chosen : [emptyItem()],
      reply: submission.reply({
        formErrors: [
          "ただいまアクセスが集中しているため、ご注文を受け付けられませんでした。しばらく時間をおいてから、もう一度お試しください。",
        ],
      }),
    };
  }
  if (intent === "add" || intent === "price" || /^remove-\d+$/.test(intent)) return { kind: "reload" };

  if (submission.status !== "success") return { kind: "invalid", status: 400, reply: submission.reply() };
  const pricing = priceItems(contest.id, completeItems(items));
  if (!pricing.ok) {
    return {
      kind: "invalid",
      status: 422,
      reply: submission.reply({ formErrors: [`商品${pricing.index + 1}: ${pricing.message}`] }),
    };
  }
  return { kind: "confirm" };
}

/** The items the form keeps after its button: one more (＋ 商品を追加), one fewer (削除), or as chosen. */
function itemsAfter(intent: string, items: CheckoutItem[]): CheckoutItem[] {
  if (intent === "add") return items.length < MAX_ORDER_ITEMS ? [...items, emptyItem()] : items;
  const removed = /^remove-(\d+)$/.exec(intent);
  return removed ? items.filter((_, index) => index !== Number(removed[1])) : items;
}
