import { describe, expect, it } from "vitest";
import {
  includedTax,
  receiptItemGroups,
  receiptLineItem,
  receiptPath,
  receiptPdfPath,
  receiptSumRows,
} from "~/lib/rules/receipt";
import { RECEIPT_ADDRESSEE_MESSAGES, receiptAddresseeSchema } from "~/lib/schemas/receipt-schemas";

describe("the tax included in a receipt (10 %, rounded down once per receipt)", () => {
  it("takes 10/110 of the tax-inclusive total, rounded down", () => {
    expect(includedTax(3_000)).toBe(272); // 272.72…
    expect(includedTax(6_000)).toBe(545); // 545.45…
    expect(includedTax(5_500)).toBe(500); // exactly 500
    expect(includedTax(8_000)).toBe(727); // 727.27…
    expect(includedTax(110)).toBe(10);
    expect(includedTax(109)).toBe(9);
    expect(includedTax(1)).toBe(0);
    expect(includedTax(0)).toBe(0);
    expect(includedTax(1_234_567)).toBe(112_233); // 112,233.36…
  });

  it("is computed from the total, not summed from the lines' own roundings", () => {
    const lines = [1_000, 1_000, 1_000];
    const perLine = lines.reduce((sum, price) => sum + includedTax(price), 0);
    const total = lines.reduce((sum, price) => sum + price, 0);
    expect(perLine).toBe(270); // 3 × 90
    expect(includedTax(total)).toBe(272);
    // A vertical and a horizontal video (the demo shop's 3,000 + 5,000).
    expect(includedTax(3_000) + includedTax(5_000)).toBe(726);
    expect(includedTax(8_000)).toBe(727);
  });
});

describe("the receipt's addresses", () => {
  it("sit under the order's status page token", () => {
    const token = "0123456789abcdef0123456789abcdef";
    expect(receiptPath(token)).toBe(`/orders/${token}/receipt`);
    expect(receiptPdfPath(token)).toBe(`/orders/${token}/receipt.pdf`);
  });
});

describe("the addressee", () => {
  const parse = (addressee: unknown) => receiptAddresseeSchema.safeParse({ addressee });

  it("is trimmed, may be empty, and counts characters as a person does", () => {
    expect(parse("  株式会社サンプル  ").data).toEqual({ addressee: "株式会社サンプル" });
    expect(parse(undefined).data).toEqual({ addressee: "" });
    expect(parse("𠮷".repeat(60)).success).toBe(true);
  });

  it("refuses a name over 60 characters and control characters, in Japanese", () => {
    expect(parse("あ".repeat(61)).error?.issues[0]?.message).toBe(RECEIPT_ADDRESSEE_MESSAGES.tooLong);
    expect(parse("山田\n太郎").error?.issues[0]?.message).toBe(RECEIPT_ADDRESSEE_MESSAGES.badCharacters);
    expect(parse("山田\u202e太郎").error?.issues[0]?.message).toBe(RECEIPT_ADDRESSEE_MESSAGES.badCharacters);
    expect(parse(["a", "b"]).success).toBe(false);
  });
});

describe("the rows between a receipt's items and its 合計", () => {
  const order = { listTotal: 3_000, discounts: [], paid: 3_000, refunds: [] };
  it("are none for an order without discount or refund: the items add up to 合計", () => {
    expect(receiptSumRows(order)).toEqual([]);
  });

  it("give the list total and each 割引, negative, for a discounted order", () => {
    const discounts = [
      { name: "早割", amount: 500 },
      { name: "クーポン（SPRING10）", amount: 250 },
    ];
    expect(receiptSumRows({ ...order, discounts, paid: 2_250 })).toEqual([
      { kind: "subtotal", label: "小計（通常価格）", amount: 3_000 },
      { kind: "discount", label: "割引 早割", amount: -500 },
      { kind: "discount", label: "割引 クーポン（SPRING10）", amount: -250 },
    ]);
  });

  it("keep a refund's rows after what was paid (小計 without discounts, お支払い金額 after them)", () => {
    const refunds = [{ on: "2025年7月1日", done: false, amount: 1_000 }];
    expect(receiptSumRows({ ...order, refunds })).toEqual([
      { kind: "subtotal", label: "小計", amount: 3_000 },
      { kind: "refund", label: "返金（2025年7月1日・手続き中）", amount: -1_000 },
    ]);
    const discounts = [{ name: "早割", amount: 500 }];
    expect(receiptSumRows({ ...order, discounts, paid: 2_500, refunds }).map((row) => row.label)).toEqual([
      "小計（通常価格）",
      "割引 早割",
      "お支払い金額",
      "返金（2025年7月1日・手続き中）",
    ]);
  });
});

describe("the receipt's items", () => {
  const line = (contestName: string, athleteNumber: number) => ({
    contestName,
    category: "小学生の部",
    numberLabel: "ゼッケン番号",
    athleteNumber,
    athleteName: "山田 花子",
    style: "縦",
  });

  it("name the contest once above its lines, in the order's order, and each line without it", () => {
    const lines = [line("春の大会", 1), line("春の大会", 2), line("秋の大会", 3), line("春の大会", 4)];
    expect(receiptItemGroups(lines).map((group) => [group.contestName, group.lines.length])).toEqual([
      ["春の大会", 2],
      ["秋の大会", 1],
      ["春の大会", 1],
    ]);
    expect(receiptLineItem(lines[0]!)).toBe("小学生の部 ゼッケン番号 1 山田 花子（縦）");
    expect(receiptItemGroups([])).toEqual([]);
  });
});
