import fs from "node:fs";
import path from "node:path";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { MAX_ORDER_ITEMS } from "~/lib/rules/pricing";
import { receiptPdf } from "~/server/receipts/receipt-pdf.server";
import type { Receipt, ReceiptLine } from "~/server/receipts/receipts.server";

/**
 * The receipt PDF's pages: an ordinary order is one A4 sheet whatever its discounts and refunds;
 * a long one continues its 内訳 on numbered sheets, the first a whole receipt with the seller,
 * the sums and 合計 kept with the last line, never a sheet holding the seller or the sums alone.
 */

const SELLER = {
  name: "株式会社コンテスト映像制作サービス",
  address: "東京都千代田区神田神保町三丁目二十九番地 ダンススタジオビル 5階 501号室",
  invoiceNumber: "T1234567890123",
};

/** A line as long as an ordinary club's: a long contest name, category and athlete. */
function line(index: number, refunded: boolean): ReceiptLine {
  return {
    id: index,
    contestName: "第15回 関東ジュニアダンスコンテスト2026",
    category: "小学生高学年の部",
    numberLabel: "ゼッケン番号",
    athleteNumber: 100 + index,
    athleteName: `佐藤 ひなた${index}`,
    style: index % 2 === 0 ? "縦" : "横",
    price: 2_980,
    listPrice: 3_500,
    refunded,
  };
}

/** `lines` lines with three discounts, `refunds` refunds of one line each, a 再発行 with its note. */
function receipt(lines: number, refunds: number): Receipt {
  const paid = lines * 2_980;
  const refunded = refunds * 2_980;
  return {
    title: "領収書",
    qualifiedInvoice: true,
    reissue: true,
    issueCount: 2,
    issuedOn: "2026年12月1日",
    firstIssuedOn: "2026年11月20日",
    orderNumber: "27593330",
    paidOn: "2026年11月18日",
    addressee: "株式会社サンプルダンススクール",
    purpose: "動画制作代として",
    lines: Array.from({ length: lines }, (_, i) => line(i + 1, i < refunds)),
    listTotal: lines * 3_500,
    discounts: [
      { kind: "early_bird", name: "早割", amount: lines * 300 },
      { kind: "set", name: "セット割", amount: lines * 100 },
      { kind: "coupon", name: "クーポン SPRING2026", amount: lines * 120 },
    ],
    paid,
    refunds: Array.from({ length: refunds }, (_, i) => ({
      on: `2026年11月2${i}日`,
      amount: 2_980,
      done: i % 2 === 0,
      sentence:
        i % 2 === 0
          ? `2026年11月2${i}日に2,980円を返金しました。`
          : `2026年11月2${i}日に2,980円の返金手続きをいたしました。`,
    })),
    total: paid - refunded,
    taxRatePercent: 10,
    tax: Math.floor(((paid - refunded) * 10) / 110),
    seller: SELLER,
  };
}

/** Each page's text, and the PDF kept under .tmp/ to be looked at (pdftoppm -png). */
async function pages(name: string, of: Receipt): Promise<string[]> {
  const bytes = await receiptPdf(of);
  fs.mkdirSync(path.resolve(".tmp"), { recursive: true });
  fs.writeFileSync(path.resolve(".tmp", `${name}.pdf`), bytes);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false });
  return text;
}

describe("the receipt PDF's pages", () => {
  it("an order of four lines with three discounts and two refunds is one page with the seller, the lines, the sums and 合計", async () => {
    const [page, ...more] = await pages("receipt-4-lines", receipt(4, 2));
    expect(more).toEqual([]);
    for (const expected of [
      SELLER.name,
      "登録番号 T1234567890123",
      "第15回 関東ジュニアダンスコンテスト2026",
      "小学生高学年の部 ゼッケン番号 104 佐藤 ひなた4（縦）",
      "割引 クーポン SPRING2026",
      "返金（2026年11月21日・手続き中）",
      "合計",
      "お支払い日 2026年11月18日",
      "この領収書は再発行したものです",
    ])
      expect(page).toContain(expected);
    expect(page).not.toContain(" / ");
  });

  it("an ordinary order of eight lines with three discounts and two refunds still fits one page", async () => {
    expect(await pages("receipt-8-lines", receipt(8, 2))).toHaveLength(1);
  });

  it(`the longest order (${MAX_ORDER_ITEMS} lines, discounts, refunds) continues its 内訳 on numbered pages, the sums with its last line`, async () => {
    const all = await pages("receipt-longest", receipt(MAX_ORDER_ITEMS, 3));
    expect(all.length).toBeGreaterThan(1);
    expect(all.length).toBeLessThanOrEqual(3);
    const [first, ...rest] = all;
    // The first page is a whole receipt: the amount, the seller and its number, the first lines.
    for (const expected of ["¥", SELLER.name, "登録番号 T1234567890123", "内訳", "佐藤 ひなた1（"])
      expect(first).toContain(expected);
    // The last page: the last line with the sums and 合計, never them alone.
    const last = all.at(-1)!;
    for (const expected of [`佐藤 ひなた${MAX_ORDER_ITEMS}（`, "小計（通常価格）", "合計", "お支払い日"])
      expect(last).toContain(expected);
    rest.forEach((text) => {
      expect(text).toContain("領収書（続き）");
      expect(text).toContain("No. 27593330");
      expect(text).toContain("内訳（続き）");
    });
    all.forEach((text, index) => expect(text).toContain(`${index + 1} / ${all.length}`));
    // Every line once, on some page.
    expect(all.join("\n").match(/佐藤 ひなた\d+（/g)).toHaveLength(MAX_ORDER_ITEMS);
  });
});
