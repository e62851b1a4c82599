import { formatYenSign } from "~/lib/rules/format";
import { receiptItemGroups, receiptLineItem, receiptSumRows } from "~/lib/rules/receipt";
import type { Receipt } from "./receipts.server";

/**
 * The receipt PDF below its head (receipt-pdf.server.ts): the refunds in words, the 内訳 and the
 * sums, flowing onto further A4 sheets when a long order needs them.
 */

export type Doc = PDFKit.PDFDocument;

const A4 = { width: 595.28, height: 841.89 };
export const MARGIN = 56;
export const CONTENT = A4.width - MARGIN * 2;
/** Where a sheet's content ends; the page number sits below it, in the margin. */
const BOTTOM = A4.height - MARGIN;
export const INK = "#18181b";
export const MUTED = "#52525b";
const RULE = "#a1a1aa";
/** The 内訳's item column: the price column needs no more than 「¥1,000,000」. */
const ITEM_WIDTH = CONTENT - 90;
const SUM_ROW = 14;
/** The 合計 row, the tax under it and お支払い日. */
const TOTAL_ROWS = 54;
/** The 再発行 note's room at the foot of the last sheet. */
const REISSUE_NOTE = 18;

/**
 * The flow below the head: where the next thing goes, and a new sheet when it does not fit.
 * A sheet after the first says whose receipt it continues; in the 内訳 it repeats the columns
 * and, amid a contest's lines, the contest's name.
 */
export class Sheets {
  /** The last sheet keeps room at its foot for the 再発行 note. */
  readonly bottom: number;
  /** The contest whose lines are being listed. */
  contestName: string | null = null;

  constructor(
    readonly doc: Doc,
    private readonly receipt: Receipt,
    public y: number,
  ) {
    this.bottom = BOTTOM - (receipt.reissue ? REISSUE_NOTE : 0);
  }

  /** Room for `height` on this sheet, or a new one (continuing the 内訳 when `inTable`). */
  room(height: number, inTable = false) {
    if (this.y + height <= this.bottom) return;
    const { doc } = this;
    doc.addPage();
    doc.font("jp").fontSize(9).fillColor(MUTED);
    doc.text(`${this.receipt.title}（続き）`, MARGIN, MARGIN, { width: CONTENT / 2, lineBreak: false });
    doc.text(`No. ${this.receipt.orderNumber}`, MARGIN, MARGIN, { width: CONTENT, align: "right" });
    doc.fillColor(INK);
    this.y = MARGIN + 28;
    if (!inTable) return;
    this.columns("内訳（続き）");
    if (this.contestName !== null) this.contest(`${this.contestName}（続き）`);
  }

  /** The 内訳's title and its column heads. */
  columns(title: string) {
    const { doc } = this;
    doc.font("jp-bold").fontSize(10).fillColor(INK);
    doc.text(title, MARGIN, this.y);
    this.y += 17;
    this.rule();
    doc.font("jp").fontSize(9).fillColor(MUTED);
    doc.text("品目", MARGIN + 4, this.y + 4, { lineBreak: false });
    doc.text("金額（税込）", MARGIN, this.y + 4, { width: CONTENT - 4, align: "right" });
    doc.fillColor(INK);
    this.y += 18;
    this.rule();
  }

  /** A contest's name, in bold above its lines. */
  contest(name: string) {
    this.doc
      .font("jp-bold")
      .fontSize(9)
      .text(name, MARGIN + 4, this.y + 5, { width: ITEM_WIDTH });
    this.y += rowHeight(this.doc, { contest: name, text: name, price: null });
  }

  /** One line, indented under its contest, with its list price at the right. */
  line(text: string, price: number) {
    const { doc } = this;
    doc
      .font("jp")
      .fontSize(9)
      .text(text, MARGIN + 14, this.y + 4, { width: ITEM_WIDTH - 10 });
    doc.text(formatYenSign(price), MARGIN, this.y + 4, { width: CONTENT - 4, align: "right" });
    this.y += rowHeight(doc, { contest: null, text, price });
    this.rule();
  }

  rule() {
    this.doc
      .moveTo(MARGIN, this.y)
      .lineTo(MARGIN + CONTENT, this.y)
      .lineWidth(0.6)
      .strokeColor(RULE)
      .stroke();
  }

  /** The 再発行 note at the foot of the last sheet; 「1 / 2」 at the foot of each, when more than one. */
  finish() {
    const { doc, receipt } = this;
    if (receipt.reissue) {
      const note = `この領収書は再発行したものです（初回発行日 ${receipt.firstIssuedOn}）。`;
      doc.font("jp").fontSize(8).fillColor(MUTED);
      doc.text(note, MARGIN, BOTTOM - 12, { width: CONTENT, lineBreak: false });
    }
    const { start, count } = doc.bufferedPageRange();
    if (count < 2) return;
    for (let index = 0; index < count; index++) {
      doc.switchToPage(start + index);
      // Written in the bottom margin: with the margin left in place pdfkit would start a new page.
      const margin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc.font("jp").fontSize(8.5).fillColor(MUTED);
      doc.text(`${index + 1} / ${count}`, MARGIN, BOTTOM + 20, {
        width: CONTENT,
        align: "center",
        lineBreak: false,
      });
      doc.page.margins.bottom = margin;
    }
  }
}

type ItemRow =
  { contest: string; text: string; price: null } | { contest: null; text: string; price: number };

/** A row's height: a contest's name in bold, a line indented under it, either wrapping when long. */
function rowHeight(doc: Doc, row: ItemRow): number {
  doc.font(row.contest !== null ? "jp-bold" : "jp").fontSize(9);
  const width = row.contest !== null ? ITEM_WIDTH : ITEM_WIDTH - 10;
  return Math.max(doc.heightOfString(row.text, { width }), 12) + 7;
}

/** The refunds in words (the amount above is what is left after them), then the items under their contest. */
export function drawItems(sheets: Sheets, receipt: Receipt) {
  const { doc } = sheets;
  doc.font("jp").fontSize(11);
  for (const refund of receipt.refunds) {
    sheets.room(16);
    doc.text(refund.sentence, MARGIN, sheets.y);
    sheets.y += 16;
  }
  sheets.y += 10;
  const rows = receiptItemGroups(receipt.lines).flatMap((group): ItemRow[] => [
    { contest: group.contestName, text: group.contestName, price: null },
    ...group.lines.map((line) => ({
      contest: null,
      text: `${receiptLineItem(line)}${line.refunded ? "（返金済み）" : ""}`,
      price: line.listPrice,
    })),
  ]);
  const heights = rows.map((row) => rowHeight(doc, row));
  // A row with what must go over with it: a contest's name its first line, the last line the sums.
  const needs = (index: number): number =>
    heights[index]! +
    (rows[index]!.contest !== null && index + 1 < rows.length ? needs(index + 1) : 0) +
    (index === rows.length - 1 ? sumsHeight(receipt) : 0);
  sheets.room(60);
  sheets.columns("内訳");
  rows.forEach((row, index) => {
    if (row.contest !== null) {
      sheets.contestName = null;
      sheets.room(needs(index), true);
      sheets.contest(row.contest);
      sheets.contestName = row.contest;
    } else {
      sheets.room(needs(index), true);
      sheets.line(row.text, row.price);
    }
  });
}

/** What follows the items, kept on one sheet: the sums, 合計, the tax and お支払い日. */
function sumsHeight(receipt: Receipt): number {
  return 4 + receiptSumRows(receipt).length * SUM_ROW + TOTAL_ROWS;
}

/** The items' sum and each 割引, what was paid and each refund, so 合計 reads as what is left. */
export function drawSums(sheets: Sheets, receipt: Receipt) {
  const { doc } = sheets;
  // Rows too many for one sheet with the rest (dozens of refunds) flow on their own.
  const together = sumsHeight(receipt) <= BOTTOM - MARGIN * 2;
  sheets.room(together ? sumsHeight(receipt) : SUM_ROW);
  sheets.y += 4;
  for (const row of receiptSumRows(receipt)) {
    if (!together) sheets.room(SUM_ROW);
    doc.font("jp").fontSize(9);
    doc.text(row.label, MARGIN + 4, sheets.y, { lineBreak: false });
    const amount = row.amount < 0 ? `−${formatYenSign(-row.amount)}` : formatYenSign(row.amount);
    doc.text(amount, MARGIN, sheets.y, { width: CONTENT - 4, align: "right" });
    sheets.y += SUM_ROW;
  }
  if (!together) sheets.room(TOTAL_ROWS);
  doc.font("jp-bold").fontSize(10);
  doc.text("合計", MARGIN + 4, sheets.y + 2, { lineBreak: false });
  doc.text(formatYenSign(receipt.total), MARGIN, sheets.y + 2, { width: CONTENT - 4, align: "right" });
  sheets.y += 20;
  doc.font("jp").fontSize(8.5).fillColor(MUTED);
  doc.text(
    `（${receipt.taxRatePercent}%対象 ${formatYenSign(receipt.total)} うち消費税 ${formatYenSign(receipt.tax)}）`,
    MARGIN,
    sheets.y,
    { width: CONTENT - 4, align: "right" },
  );
  doc.text(`お支払い日 ${receipt.paidOn}`, MARGIN + 4, sheets.y + 16);
  doc.fillColor(INK);
  sheets.y += TOTAL_ROWS - 20;
}
