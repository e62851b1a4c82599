import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ORDER_METADATA_KEYS,
  orderMetadata,
  orderMetadataUpdate,
  readOrderMetadata,
  STRIPE_METADATA_LIMITS,
  type CarriedOrder,
  withOrderCheck,
} from "~/server/payments/order-metadata.server";
import { MAX_ORDER_ITEMS } from "~/lib/rules/pricing";
import { DISCOUNT_KINDS } from "~/lib/rules/promotions";

/** Japanese text with emoji (surrogate pairs, ZWJ sequences) and the odd quote or backslash JSON escapes. */
const japanese = (maxLength: number, size: fc.SizeForArbitrary = "small") =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom("山", "田", "太", "郎", "ア", "ン", "ナ", "ー", "・", "　", "髙", "𠮷", "々"),
        fc.constantFrom("😀", "👨‍👩‍👧", "🇯🇵", "🏊‍♀️", "🎬"),
        fc.constantFrom('"', "\\", "\n", "a", "1"),
        fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
      ),
      { minLength: 1, maxLength, size },
    )
    .map((parts) => [...parts.join("")].slice(0, maxLength).join(""));

const line = (categories: fc.Arbitrary<string>, names: fc.Arbitrary<string>) =>
  fc
    .record({
      category: categories,
      athleteId: fc.integer({ min: 1, max: 2 ** 31 }),
      athleteNumber: fc.integer({ min: 0, max: 999_999 }),
      athleteName: names,
      formatId: fc.integer({ min: 1, max: 2 ** 31 }),
      style: fc.constantFrom("縦", "横", "縦（スマホ用）"),
      orientation: fc.constantFrom("vertical" as const, "horizontal" as const),
      listPrice: fc.integer({ min: 2_000, max: 1_000_000 }),
      discounts: fc.array(
        fc.record({
          kind: fc.constantFrom(...DISCOUNT_KINDS),
          name: names,
          amount: fc.integer({ min: 0, max: 1_000 }),
        }),
        { maxLength: 2 },
      ),
    })
    .map((line) => ({
      ...line,
      price: line.listPrice - line.discounts.reduce((sum, d) => sum + d.amount, 0),
    }));

/** An address the customer form accepts (zod's check, as customerSchema). */
const address = fc
  .emailAddress()
  .filter((email) => email.length <= 254 && z.string().email().safeParse(email).success);

/**
 * The largest order the shop takes: 50 lines (MAX_ORDER_ITEMS), every category and name
 * different and as long as the forms allow (100 UTF-16 units: 50 code points of up to 2 units).
 */
const shopOrder = fc.record({
  contestId: fc.integer({ min: 1, max: 2 ** 31 }),
  customerEmail: address,
  customerName: japanese(50),
  couponCode: fc.option(fc.stringMatching(/^[A-Z0-9_-]{3,32}$/), { nil: null }),
  pricedLines: fc.array(line(japanese(50, "max"), japanese(50, "max")), {
    minLength: 1,
    maxLength: MAX_ORDER_ITEMS,
    size: "max",
  }),
});

/** Longer names and categories than the forms take: some of these do not fit. */
const anyOrder = fc.record({
  contestId: fc.integer({ min: 1, max: 2 ** 31 }),
  customerEmail: fc.constant("parent@example.jp"),
  customerName: japanese(50),
  couponCode: fc.option(fc.constant("X".repeat(32)), { nil: null }),
  pricedLines: fc.array(line(japanese(400, "max"), japanese(400, "max")), {
    minLength: 1,
    maxLength: MAX_ORDER_ITEMS,
    size: "max",
  }),
});

function withinStripeLimits(metadata: Record<string, string>) {
  expect(Object.keys(metadata).length).toBeLessThanOrEqual(STRIPE_METADATA_LIMITS.keys);
  for (const [key, value] of Object.entries(metadata)) {
    expect(key.length).toBeLessThanOrEqual(STRIPE_METADATA_LIMITS.keyLength);
    expect(key).not.toMatch(/[[\]]/);
    expect(value.length).toBeLessThanOrEqual(STRIPE_METADATA_LIMITS.valueLength);
    // A lone half of a surrogate pair would not survive the request's UTF-8.
    expect(value).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  }
}

describe("an order carried in a payment's metadata", () => {
  it("comes back exactly, within Stripe's limits, for any order the shop takes (up to 50 lines)", () => {
    fc.assert(
      fc.property(shopOrder, (order) => {
        const metadata = orderMetadata("chk_1", order);
        withinStripeLimits(metadata);
        expect(metadata.checkoutId).toBe("chk_1");
        expect(readOrderMetadata(metadata)).toEqual({ order, problem: null });
      }),
      { numRuns: 300 },
    );
  });

  it("keeps Stripe's limits for anything, and an order that does not fit reads as incomplete, never as a smaller order", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(anyOrder, (order) => {
        const metadata = orderMetadata("chk_1", order);
        withinStripeLimits(metadata);
        withinStripeLimits(orderMetadataUpdate("chk_1", order));
        const read = readOrderMetadata(metadata);
        if (read.order) expect(read.order).toEqual(order);
        else expect(read.problem.reason).toBe("incomplete");
        seen.add(read.order ? "complete" : "incomplete");
      }),
      { numRuns: 200 },
    );
    // Both kinds were tried, so neither branch above went untested.
    expect([...seen].sort()).toEqual(["complete", "incomplete"]);
  });

  it("a 50-line order of names and categories longer than the forms take is marked incomplete", () => {
    const long = (i: number, what: string) => `${what}${i}${"😀".repeat(150)}`;
    const order: CarriedOrder = {
      contestId: 3,
      customerEmail: "parent@example.jp",
      customerName: "山田 花子",
      couponCode: null,
      pricedLines: Array.from({ length: MAX_ORDER_ITEMS }, (_, i) => ({
        category: long(i, "部門"),
        athleteId: i + 1,
        athleteNumber: i,
        athleteName: long(i, "選手"),
        formatId: 1,
        style: "縦",
        orientation: "vertical" as const,
        price: 3000,
        listPrice: 3000,
        discounts: [],
      })),
    };
    const metadata = orderMetadata("chk_big", order);
    withinStripeLimits(metadata);
    expect(metadata.order_line_count).toBe("50");
    const read = readOrderMetadata(metadata);
    expect(read.order).toBeNull();
    expect(read.problem).toMatchObject({ reason: "incomplete" });
    expect(read.problem?.message).toMatch(/明細 50 件のうち \d+ 件しか/);
  });

  it('an update clears the lines\' keys the smaller order no longer uses (Stripe removes a key set to "")', () => {
    const lineOf = (i: number) => ({
      category: "A部門",
      athleteId: i + 1,
      athleteNumber: i,
      athleteName: `選手${i}${"あ".repeat(90)}`,
      formatId: 1,
      style: "縦",
      orientation: "vertical" as const,
      price: 3000,
      listPrice: 3000,
      discounts: [],
    });
    const big = {
      contestId: 1,
      customerEmail: "a@example.jp",
      customerName: "花子",
      couponCode: null,
      pricedLines: [0, 1, 2, 3, 4, 5].map(lineOf),
    };
    const small = { ...big, pricedLines: [lineOf(0)] };
    const before = orderMetadata("chk", big);
    expect(before.order_lines_1).toBeDefined();
    const update = orderMetadataUpdate("chk", small);
    expect(Object.keys(update).sort()).toEqual([...ORDER_METADATA_KEYS].sort());
    // Stripe's merge: the update's keys over the old ones, "" removing a key.
    const merged = Object.fromEntries(
      Object.entries({ ...before, ...update }).filter(([, value]) => value !== ""),
    );
    expect(merged).toEqual(orderMetadata("chk", small));
    expect(readOrderMetadata(merged).order).toEqual(small);
  });

  const order: CarriedOrder = {
    contestId: 7,
    customerEmail: "hanako@example.jp",
    customerName: "山田 花子",
    couponCode: null,
    pricedLines: [
      {
        category: "A部門",
        athleteId: 11,
        athleteNumber: 5,
        athleteName: "佐藤 一郎",
        formatId: 2,
        style: "縦",
        orientation: "vertical",
        price: 3000,
        listPrice: 3000,
        discounts: [],
      },
      {
        category: "A部門",
        athleteId: 11,
        athleteNumber: 5,
        athleteName: "佐藤 一郎",
        formatId: 3,
        style: "横",
        orientation: "horizontal",
        price: 4500,
        listPrice: 4500,
        discounts: [],
      },
    ],
  };

  it.each<[string, (metadata: Record<string, string>) => void]>([
    ["another address", (m) => (m.order_customer_email = "thief@example.jp")],
    ["another name", (m) => (m.order_customer_name = "山田 太郎")],
    ["another contest", (m) => (m.order_contest_id = "8")],
    ["a price lowered in the lines", (m) => (m.order_lines_0 = m.order_lines_0!.replace("4500", "450"))],
    ["a line count raised", (m) => (m.order_line_count = "3")],
    ["the lines' key removed", (m) => delete m.order_lines_0],
    ["the check removed", (m) => delete m.order_check],
  ])("%s is refused as invalid", (_label, tamper) => {
    const metadata = orderMetadata("chk_t", order);
    tamper(metadata);
    const read = readOrderMetadata(metadata);
    expect(read.order).toBeNull();
    expect(read.problem).toMatchObject({ reason: "invalid" });
    expect(read.problem?.message).toMatch(/書き換えられています/);
  });

  it.each<[string, Record<string, string>]>([
    ["lines that are not JSON", { order_lines_0: "{" }],
    [
      "a string index out of range",
      { order_lines_0: JSON.stringify({ s: ["a"], l: [[5, 1, 1, 0, 1, 0, 0, 100]] }) },
    ],
    [
      "a negative athlete id",
      { order_lines_0: JSON.stringify({ s: ["a"], l: [[0, -1, 1, 0, 1, 0, 0, 100]] }) },
    ],
    ["a third orientation", { order_lines_0: JSON.stringify({ s: ["a"], l: [[0, 1, 1, 0, 1, 0, 2, 100]] }) }],
    ["a fractional price", { order_lines_0: JSON.stringify({ s: ["a"], l: [[0, 1, 1, 0, 1, 0, 0, 0.5]] }) }],
    ["an extra field", { order_lines_0: JSON.stringify({ s: ["a"], l: [], x: 1 }) }],
    ["a contest id with a leading zero", { order_contest_id: "07" }],
    ["no address", { order_customer_email: "not an address" }],
    ["an empty name", { order_customer_name: "" }],
  ])(
    "%s is refused by the schema even under a right check (a forger's), without throwing",
    (_label, values) => {
      const forged = withOrderCheck({
        ...orderMetadata("chk_f", { ...order, pricedLines: order.pricedLines.slice(0, 1) }),
        ...values,
      });
      let read: ReturnType<typeof readOrderMetadata> | undefined;
      expect(() => (read = readOrderMetadata(forged))).not.toThrow();
      expect(read?.order).toBeNull();
      expect(read?.problem).toMatchObject({ reason: "invalid" });
    },
  );

  it("a payment without the order's keys, or in an unknown format, says so", () => {
    expect(readOrderMetadata({ checkoutId: "chk" }).problem).toMatchObject({ reason: "none" });
    expect(readOrderMetadata(null).problem).toMatchObject({ reason: "none" });
    expect(readOrderMetadata({ ...orderMetadata("chk", order), order_format: "2" }).problem).toMatchObject({
      reason: "unknown_format",
    });
  });
});
