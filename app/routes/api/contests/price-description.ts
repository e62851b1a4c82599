import { filledPriceItems, priceDescriptionSchema } from "~/lib/schemas/contest-settings-schemas";
import { requireApiContest } from "~/server/catalog/contest-api.server";
import { priceDescriptionOf, savePriceDescription } from "~/server/catalog/contest-settings.server";
import { jsonApi, parseApiInput, readApiBody, apiJson } from "~/server/http/json-api.server";

/** A price written as a JSON number is the same text the form would post. */
function priceAsText(items: unknown): unknown {
  if (!Array.isArray(items)) return items;
  return items.map((item: unknown) =>
    item && typeof item === "object" && typeof (item as { price?: unknown }).price === "number"
      ? { ...item, price: String((item as { price: number }).price) }
      : item,
  );
}

/**
 * The order form's 料金説明: items [{name, price}] (price is free text, "3,000円〜") and notes.
 * PUT replaces both, as 大会設定 saves them: rows blank on both sides are dropped.
 */
export const loader = jsonApi({
  async GET({ request, params }) {
    const contest = await requireApiContest(request, params);
    return apiJson(priceDescriptionOf(contest.id));
  },
  async PUT({ request, params }) {
    const contest = await requireApiContest(request, params);
    const body = await readApiBody(request);
    const { items, notes } = parseApiInput(priceDescriptionSchema, {
      ...body,
      items: priceAsText(body.items),
      intent: "price",
    });
    savePriceDescription(contest.id, filledPriceItems(items), notes);
    return apiJson(priceDescriptionOf(contest.id));
  },
});
export const action = loader;
