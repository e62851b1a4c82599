/**
 * The 領収書's arithmetic and address, shared by the receipt page, its PDF and purchase history.
 *
 * Every price in the shop is tax-inclusive yen at the standard rate (videos are not food, so the
 * reduced 8 % rate never applies). A 適格簡易請求書 must state the tax included "per rate, per
 * document", rounded once: the tax is computed from the receipt's total, never summed from the
 * lines' own roundings (three 1,000 yen lines include 272 yen, not 3 × 90 = 270).
 */

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

/** One order line as the receipt names it: contest, category, athlete and style. */
export function receiptLineDescription(line: {
  contestName: string;
  category: string;
  numberLabel: string;
  athleteNumber: number;
  athleteName: string;
  style: string;
}): string {
  return `${line.contestName} ${line.category} ${line.numberLabel} ${line.athleteNumber} ${line.athleteName}（${line.style}）`;
}
