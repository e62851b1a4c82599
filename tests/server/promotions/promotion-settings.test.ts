import { parseForm } from "~/lib/schemas/parse-form";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contestSlug } from "~/lib/rules/slug";
import {
  earlyBirdPrice,
  orderFormPromotionNotes,
  promotionSettingsSummary,
  promotionsSavedNote,
} from "~/lib/rules/promotion-notices";
import { NO_PROMOTIONS, type ContestPromotions } from "~/lib/rules/promotions";
import { formatDateTime } from "~/lib/rules/format";
import { toTokyoDateTimeInput } from "~/lib/schemas/contest-settings-schemas";
import { PROMOTION_MESSAGES, promotionSettingsSchema } from "~/lib/schemas/promotion-schemas";
import { setClock } from "~/server/core/clock.server";
import { contestPromotionsOf, promotionsRow } from "~/server/promotions/contest-promotions.server";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest, seedContest } from "../../helpers/shop";

const settingsRoute = () => import("~/routes/admin/contest/settings");
const orderFormRoute = () => import("~/routes/storefront/order-form");

// 2026-12-01 23:59 in Japan time.
const DEC_1_2359_JST = Date.UTC(2026, 11, 1, 14, 59);
const STYLES = { vertical: "縦", horizontal: "横" };

// The tab's posts run near the real time: an admin's session ends when the clock moves days on.
const END = Math.ceil((Date.now() + 5 * 60_000) / 60_000) * 60_000;
const ON_SITE: Fields = { earlyBirdEndsAt: toTokyoDateTimeInput(END) };

let admin = "";
beforeEach(async () => {
  admin = await adminCookie();
});
afterEach(() => setClock(null));

type Fields = Record<string, string>;

const FULL: Fields = {
  intent: "promotions",
  earlyBirdVerticalPrice: "2500",
  earlyBirdHorizontalPrice: "",
  earlyBirdEndsAt: "2026-12-01T23:59",
  setDiscount: "500",
  quantityMinItems: "3",
  quantityDiscountKind: "yen",
  quantityDiscountValue: "300",
};

function parse(fields: Fields) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return parseForm(form, { schema: promotionSettingsSchema });
}

/** The field errors of a refused form. */
function refusals(fields: Fields) {
  const submission = parse(fields);
  expect(submission.status).toBe("error");
  return submission.reply().error ?? {};
}

async function post(contestId: number, fields: Fields, cookie = admin) {
  const { action } = await settingsRoute();
  return callRoute(
    action,
    formRequest(`/admin/contest/${contestId}/settings`, Object.entries(fields), cookie),
    { id: String(contestId) },
  );
}

describe("キャンペーン価格: the form's schema (browser and server)", () => {
  it("reads a full form, forgiving 全角 digits and thousands commas, and an empty one as no promotions", () => {
    const full = parse({ ...FULL, earlyBirdVerticalPrice: "２,５００", setDiscount: "1,000" });
    expect(full.status).toBe("success");
    expect(full.status === "success" && full.value).toEqual({
      earlyBirdVerticalPrice: 2500,
      earlyBirdHorizontalPrice: null,
      earlyBirdEndsAt: new Date(DEC_1_2359_JST),
      setDiscount: 1000,
      quantityMinItems: 3,
      quantityDiscountKind: "yen",
      quantityDiscountValue: 300,
    });
    const empty = parse({ intent: "promotions" });
    expect(empty.status === "success" && empty.value).toEqual({
      earlyBirdVerticalPrice: null,
      earlyBirdHorizontalPrice: null,
      earlyBirdEndsAt: null,
      setDiscount: null,
      quantityMinItems: null,
      quantityDiscountKind: null,
      quantityDiscountValue: null,
    });
  });

  it("takes whole yen from 1 to 1,000,000 only", () => {
    for (const typed of ["0", "1000001", "1.5", "-100", "abc", "3千"]) {
      expect(refusals({ ...FULL, earlyBirdHorizontalPrice: typed }).earlyBirdHorizontalPrice).toEqual([
        PROMOTION_MESSAGES.earlyBirdPrice,
      ]);
      expect(refusals({ ...FULL, setDiscount: typed }).setDiscount).toEqual([PROMOTION_MESSAGES.setDiscount]);
      expect(refusals({ ...FULL, quantityDiscountValue: typed }).quantityDiscountValue).toEqual([
        PROMOTION_MESSAGES.quantityYen,
      ]);
    }
    expect(parse({ ...FULL, setDiscount: "1" }).status).toBe("success");
    expect(parse({ ...FULL, setDiscount: "1000000" }).status).toBe("success");
  });

  it("takes a percent from 1 to 90 and N videos from 2 to 50", () => {
    const percent = { ...FULL, quantityDiscountKind: "percent" };
    for (const typed of ["0", "91", "300"])
      expect(refusals({ ...percent, quantityDiscountValue: typed }).quantityDiscountValue).toEqual([
        PROMOTION_MESSAGES.quantityPercent,
      ]);
    expect(parse({ ...percent, quantityDiscountValue: "90" }).status).toBe("success");
    for (const typed of ["1", "51", "2.5"])
      expect(refusals({ ...FULL, quantityMinItems: typed }).quantityMinItems).toEqual([
        PROMOTION_MESSAGES.quantityMinItems,
      ]);
    expect(parse({ ...FULL, quantityMinItems: "2" }).status).toBe("success");
    expect(parse({ ...FULL, quantityMinItems: "50" }).status).toBe("success");
    expect(refusals({ ...FULL, quantityDiscountKind: "free" }).quantityDiscountKind).toEqual([
      PROMOTION_MESSAGES.quantityKind,
    ]);
  });

  it("wants an early price with its end and an end with a price, and N with its discount", () => {
    expect(refusals({ ...FULL, earlyBirdEndsAt: "" }).earlyBirdEndsAt).toEqual([
      PROMOTION_MESSAGES.earlyBirdEndsAtMissing,
    ]);
    expect(refusals({ ...FULL, earlyBirdVerticalPrice: "" }).earlyBirdVerticalPrice).toEqual([
      PROMOTION_MESSAGES.earlyBirdPriceMissing,
    ]);
    for (const typed of ["2026-02-30T10:00", "2026-12-01", "tomorrow"])
      expect(refusals({ ...FULL, earlyBirdEndsAt: typed }).earlyBirdEndsAt).toEqual([
        PROMOTION_MESSAGES.earlyBirdEndsAt,
      ]);
    expect(refusals({ ...FULL, quantityDiscountValue: "" }).quantityDiscountValue).toEqual([
      PROMOTION_MESSAGES.quantityValueMissing,
    ]);
    expect(refusals({ ...FULL, quantityMinItems: "" }).quantityMinItems).toEqual([
      PROMOTION_MESSAGES.quantityMinItemsMissing,
    ]);
  });
});

describe("キャンペーン価格 in words", () => {
  const promotions: ContestPromotions = {
    earlyBird: { prices: { vertical: 2500, horizontal: null }, endsAt: DEC_1_2359_JST },
    setDiscount: 500,
    quantity: { minItems: 3, kind: "percent", value: 10 },
  };

  it("says each promotion's state to the admin, an ended early-bird as ended", () => {
    expect(promotionSettingsSummary(promotions, DEC_1_2359_JST - 1, STYLES)).toEqual([
      "早割：縦 2,500円、2026/12/01 23:59 まで（実施中）",
      "セット割：同じ選手の縦・横セットで500円引き",
      "まとめ割：1回のご注文で3本以上なら1本あたり10%引き",
    ]);
    expect(promotionSettingsSummary(promotions, DEC_1_2359_JST, STYLES)[0]).toBe(
      "早割：縦 2,500円、2026/12/01 23:59 まで（終了しました）",
    );
    expect(promotionSettingsSummary(NO_PROMOTIONS, 0, STYLES)).toEqual([
      "早割：なし",
      "セット割：なし",
      "まとめ割：なし",
    ]);
  });

  it("says a save in one short sentence naming what runs now, for the toast", () => {
    expect(promotionsSavedNote(promotions, DEC_1_2359_JST - 1)).toBe(
      "キャンペーン価格を保存しました。実施中: 早割・セット割・まとめ割。",
    );
    expect(promotionsSavedNote(promotions, DEC_1_2359_JST)).toBe(
      "キャンペーン価格を保存しました。実施中: セット割・まとめ割。早割は終了しています。",
    );
    expect(promotionsSavedNote(NO_PROMOTIONS, 0)).toBe(
      "キャンペーン価格を保存しました。実施中のキャンペーンはありません。",
    );
  });

  it("tells parents what runs now, and prices the number list with the early price while it runs", () => {
    expect(orderFormPromotionNotes(promotions, DEC_1_2359_JST - 1, STYLES)).toEqual([
      "12/1 23:59までのご注文は早割価格",
      "縦・横セットで500円引き",
      "3本以上で1本あたり10%引き",
    ]);
    expect(orderFormPromotionNotes(promotions, DEC_1_2359_JST, STYLES)).toEqual([
      "縦・横セットで500円引き",
      "3本以上で1本あたり10%引き",
    ]);
    expect(earlyBirdPrice(promotions, DEC_1_2359_JST - 1, "vertical", 3000)).toBe(2500);
    // Only where it is lower than the athlete's own price, and only for a style that has one.
    expect(earlyBirdPrice(promotions, DEC_1_2359_JST - 1, "vertical", 2000)).toBe(2000);
    expect(earlyBirdPrice(promotions, DEC_1_2359_JST - 1, "horizontal", 4500)).toBe(4500);
    expect(earlyBirdPrice(promotions, DEC_1_2359_JST, "vertical", 3000)).toBe(3000);
  });
});

describe("キャンペーン価格 on the 大会設定 tab (without JS)", () => {
  it("is for admins only: a visitor and a customer are turned away and nothing is saved", async () => {
    const shop = seedContest();
    const visitor = await post(shop.contestId, FULL, "");
    expect(visitor.status).toBe(302);
    expect(visitor.location).toBe("/admin-login");
    const customer = await post(shop.contestId, FULL, await adminCookie({ isAdmin: false }));
    expect(customer.status).not.toBe(303);
    expect(customer.status).toBeLessThan(500);
    expect(promotionsRow(shop.contestId)).toBeUndefined();
    const { loader } = await settingsRoute();
    const page = await callRoute(
      loader,
      new Request(`http://shop.test/admin/contest/${shop.contestId}/settings`),
      { id: String(shop.contestId) },
    );
    expect(page.location).toBe("/admin-login");
  });

  it("saves the promotions, which the pricing reads at once, and shows them in the form and in words", async () => {
    const shop = seedContest();
    const saved = await post(shop.contestId, { ...FULL, ...ON_SITE });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/admin/contest/${shop.contestId}/settings#promotions`);
    expect(promotionsRow(shop.contestId)).toMatchObject({
      earlyBirdVerticalPrice: 2500,
      earlyBirdHorizontalPrice: null,
      earlyBirdEndsAt: new Date(END),
      setDiscount: 500,
      quantityMinItems: 3,
      quantityDiscountKind: "yen",
      quantityDiscountValue: 300,
    });
    expect(contestPromotionsOf(shop.contestId)).toEqual({
      earlyBird: { prices: { vertical: 2500, horizontal: null }, endsAt: END },
      setDiscount: 500,
      quantity: { minItems: 3, kind: "yen", value: 300 },
    });

    const { loader } = await settingsRoute();
    const load = () =>
      callRoute(
        loader,
        new Request(`http://shop.test/admin/contest/${shop.contestId}/settings`, {
          headers: { Cookie: admin },
        }),
        {
          id: String(shop.contestId),
        },
      );
    const page = (await load()).data as { promotions: { values: Fields; summary: string[] } };
    expect(page.promotions.values).toEqual({
      earlyBirdVerticalPrice: "2500",
      earlyBirdHorizontalPrice: "",
      earlyBirdEndsAt: toTokyoDateTimeInput(END),
      setDiscount: "500",
      quantityMinItems: "3",
      quantityDiscountKind: "yen",
      quantityDiscountValue: "300",
    });
    expect(page.promotions.summary[0]).toBe(`早割：縦 2,500円、${formatDateTime(END)} まで（実施中）`);
    setClock(() => END);
    const ended = (await load()).data as { promotions: { summary: string[] } };
    expect(ended.promotions.summary[0]).toBe(`早割：縦 2,500円、${formatDateTime(END)} まで（終了しました）`);

    // Emptied, every promotion ends.
    expect((await post(shop.contestId, { intent: "promotions" })).status).toBe(303);
    expect(contestPromotionsOf(shop.contestId)).toEqual(NO_PROMOTIONS);
  });

  it("refuses a mistake with 400, its message beside its field and everything typed kept; nothing is saved", async () => {
    const shop = seedContest();
    const typed = {
      ...FULL,
      earlyBirdEndsAt: "",
      quantityDiscountKind: "percent",
      quantityDiscountValue: "95",
    };
    const refused = await post(shop.contestId, typed);
    expect(refused.status).toBe(400);
    const data = refused.data as {
      intent: string;
      reply: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> };
    };
    expect(data.intent).toBe("promotions");
    expect(data.reply.error).toMatchObject({
      earlyBirdEndsAt: [PROMOTION_MESSAGES.earlyBirdEndsAtMissing],
      quantityDiscountValue: [PROMOTION_MESSAGES.quantityPercent],
    });
    expect(data.reply.initialValue).toMatchObject({
      earlyBirdVerticalPrice: "2500",
      setDiscount: "500",
      quantityMinItems: "3",
      quantityDiscountKind: "percent",
      quantityDiscountValue: "95",
    });
    expect(promotionsRow(shop.contestId)).toBeUndefined();
  });
});

describe("the order form's loader", () => {
  it("passes the contest's promotions and the server's time to the minute, the early-bird's end being on one", async () => {
    const shop = seedContest();
    expect((await post(shop.contestId, { ...FULL, ...ON_SITE })).status).toBe(303);
    const slug = contestSlug(shop.name);
    const { loader } = await orderFormRoute();
    const load = async () =>
      (
        await callRoute(loader, new Request(`http://shop.test/order-form/${encodeURIComponent(slug)}`), {
          contestSlug: slug,
        })
      ).data as { promotions: ContestPromotions; pricedAt: number };
    setClock(() => END - 60_000 + 42_123);
    const before = await load();
    expect(before.promotions).toEqual(contestPromotionsOf(shop.contestId));
    expect(before.promotions.earlyBird?.endsAt).toBe(END);
    expect(before.pricedAt).toBe(END - 60_000);
    setClock(() => END + 5_000);
    expect((await load()).pricedAt).toBe(END);
  });

  it("has no promotions for a contest without them", async () => {
    const shop = seedContest();
    const slug = contestSlug(shop.name);
    const { loader } = await orderFormRoute();
    const page = await callRoute(
      loader,
      new Request(`http://shop.test/order-form/${encodeURIComponent(slug)}`),
      {
        contestSlug: slug,
      },
    );
    expect((page.data as { promotions: ContestPromotions }).promotions).toEqual(NO_PROMOTIONS);
  });
});
