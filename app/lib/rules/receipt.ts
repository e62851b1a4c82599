/**
 * The 領収書's arithmetic and address, shared by the receipt page, its PDF and purchase history.
 *
 * Every price in the shop is tax-inclusive yen at the standard rate (videos are not food, so the
 * reduced 8 % rate never applies). A 適格簡易請求書 must state the tax included "per rate, per
 * document", rounded once: the tax is computed from the receipt's total, never summed from the
 * lines' own roundings (three 1,000 yen lines include 272 yen, not 3 × 90 = 270).
 */

/**
 * The longest 宛名 (addressee) a receipt takes, in characters. Here, not beside its schema, so the
 * receipt page says it in its hint without loading zod.
 */
export const RECEIPT_ADDRESSEE_MAX = 60;

/** The standard consumption tax rate, in percent. */
export const STANDARD_TAX_RATE_PERCENT = 10;

/** The consumption tax included in a tax-inclusive amount at the standard rate, rounded down once. */
export function includedTax(taxInclusiveTotal: number): number {
  // Integer arithmetic: total × 10 / 110, floored (a yen amount times 10 stays exact).
  const scaled = taxInclusiveTotal * STANDARD_TAX_RATE_PERCENT;
  return (scaled - (scaled % (100 + STANDARD_TAX_RATE_PERCENT))) / (100 + STANDARD_TAX_RATE_PERCENT);
}

/** The receipt page of an order, reached with the order's status page token. */
export function receiptPath(statusToken: string): string {
  return `/orders/${statusToken}/receipt`;
}

/** The same receipt as a PDF. */
export function receiptPdfPath(statusToken: string): string {
  return `/orders/${statusToken}/receipt.pdf`;
}

/** One order line as the receipt lists it under its contest: category, athlete and style. */
export function receiptLineItem(line: {
  category: string;
  numberLabel: string;
  athleteNumber: number;
  athleteName: string;
  style: string;
}): string {
  return `${line.category} ${line.numberLabel} ${line.athleteNumber} ${line.athleteName}（${line.style}）`;
}

/**
 * The receipt's lines under their contest, in the order's order: the contest is named once
 * above its lines rather than on each, so a line fits one row of the page and of the A4 PDF
 * (a contest name can take half a row, and a club's order repeats it dozens of times).
 */
export function receiptItemGroups<Line extends { contestName: string }>(
  lines: readonly Line[],
): { contestName: string; lines: Line[] }[] {
  const groups: { contestName: string; lines: Line[] }[] = [];
  for (const line of lines) {
    const group = groups.at(-1);
    if (group?.contestName === line.contestName) group.lines.push(line);
    else groups.push({ contestName: line.contestName, lines: [line] });
  }
  return groups;
}

/** A row under the receipt's items, before 合計: a subtotal, a discount or a refund (negative). */
export type ReceiptSumRow = { kind: "subtotal" | "discount" | "refund"; label: string; amount: number };

/**
 * The rows between the receipt's items and its 合計, the same on the page and in the PDF. The
 * items are at their list prices, so a discounted order first gives their sum and each 割引 by
 * name (the tax is then on what was paid, see includedTax); refunds come after what was paid.
 * An order with neither has no rows: the items add up to 合計.
 */
export function receiptSumRows(receipt: {
  listTotal: number;
  discounts: readonly { name: string; amount: number }[];
  paid: number;
  refunds: readonly { on: string; done: boolean; amount: number }[];
}): ReceiptSumRow[] {
  const rows: ReceiptSumRow[] = [];
  if (receipt.discounts.length > 0) {
    rows.push({ kind: "subtotal", label: "小計（通常価格）", amount: receipt.listTotal });
    for (const discount of receipt.discounts)
      rows.push({ kind: "discount", label: `割引 ${discount.name}`, amount: -discount.amount });
  }
  if (receipt.refunds.length > 0) {
    rows.push({
      kind: "subtotal",
      label: receipt.discounts.length > 0 ? "お支払い金額" : "小計",
      amount: receipt.paid,
    });
    for (const refund of receipt.refunds)
      rows.push({
        kind: "refund",
        label: `返金（${refund.on}${refund.done ? "" : "・手続き中"}）`,
        amount: -refund.amount,
      });
  }
  return rows;
}
