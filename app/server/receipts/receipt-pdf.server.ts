import { formatYenSign } from "~/lib/rules/format";
import { startPdf } from "../core/pdf-document.server";
import {
  CONTENT,
  drawItems,
  drawSums,
  INK,
  MARGIN,
  MUTED,
  Sheets,
  type Doc,
} from "./receipt-pdf-items.server";
import type { Receipt } from "./receipts.server";

/**
 * The 領収書 as an A4 PDF (pdfkit), laid out as the printed HTML page is: the title centred,
 * the addressee at the left and the seller with its registration number at the right, the
 * amount large, 但し…, the tax at the rate, then the items under their contest and the sums.
 *
 * The first sheet is a whole receipt by itself (addressee, amount, tax, seller), whatever
 * follows, so the seller can never be left alone on a sheet. An ordinary order (a family's few
 * lines, with discounts and refunds) is that one sheet. A long one (a club's, up to the order
 * form's 50 lines) cannot be legible on one, so its 内訳 continues on the next, headed with the
 * receipt's number, and every sheet is numbered; the sums and 合計 never split, and the last
 * line goes over with them rather than leave them alone under a heading.
 */

const ADDRESSEE_WIDTH = 260;
const SELLER_WIDTH = 190;
const SELLER_LEFT = MARGIN + CONTENT - SELLER_WIDTH;

export async function receiptPdf(receipt: Receipt): Promise<Uint8Array<ArrayBuffer>> {
  const { doc, finish } = await startPdf({
    margin: MARGIN,
    // Kept until the end, so each sheet can be numbered once their count is known.
    bufferPages: true,
    info: {
      Title: receipt.qualifiedInvoice ? `${receipt.title}（適格簡易請求書）` : receipt.title,
      Author: receipt.seller.name,
      Subject: `注文番号 ${receipt.orderNumber}`,
    },
  });
  doc.fillColor(INK);

  const sheets = new Sheets(doc, receipt, drawHead(doc, receipt));
  drawItems(sheets, receipt);
  drawSums(sheets, receipt);
  sheets.finish();

  return finish();
}

/**
 * The first sheet's top, at fixed places: number and date, title, addressee and seller, the
 * amount, 但し… and the tax. Returns where what follows begins.
 */
function drawHead(doc: Doc, receipt: Receipt): number {
  // Top right: the number and the date; a 再発行 says so at the top left.
  doc.font("jp").fontSize(9.5);
  doc.text(`No. ${receipt.orderNumber}`, MARGIN, MARGIN, { width: CONTENT, align: "right" });
  doc.text(`発行日 ${receipt.issuedOn}`, { width: CONTENT, align: "right" });
  if (receipt.reissue) {
    doc
      .font("jp-bold")
      .fontSize(11)
      .fillColor("#b91c1c")
      .text("再発行", MARGIN, MARGIN, { width: 80 })
      .fillColor(INK);
  }

  // The title, centred, with what kind of document it is.
  // Not letter-spaced as the page's title is: text extraction (search, copy, screen readers)
  // would read a spaced title as 「領 収 書」.
  doc.font("jp-bold").fontSize(28);
  doc.text(receipt.title, MARGIN, MARGIN + 34, { width: CONTENT, align: "center" });
  if (receipt.qualifiedInvoice) {
    doc.font("jp").fontSize(10).fillColor(MUTED);
    doc.text("（適格簡易請求書）", { width: CONTENT, align: "center" }).fillColor(INK);
  }

  // 宛名: the name (or a blank line to write in) and 様 on one underlined line.
  const addresseeTop = MARGIN + 112;
  doc.font("jp-bold").fontSize(15);
  doc.text(receipt.addressee, MARGIN, addresseeTop, {
    width: ADDRESSEE_WIDTH - 30,
    lineBreak: false,
    ellipsis: true,
  });
  doc
    .font("jp")
    .fontSize(13)
    .text("様", MARGIN + ADDRESSEE_WIDTH - 20, addresseeTop + 2, { lineBreak: false });
  doc
    .moveTo(MARGIN, addresseeTop + 24)
    .lineTo(MARGIN + ADDRESSEE_WIDTH, addresseeTop + 24)
    .lineWidth(0.8)
    .strokeColor(INK)
    .stroke();

  // The seller across from the addressee, with its registration number: on the first sheet
  // with the amount, however long the 内訳 below.
  doc
    .font("jp-bold")
    .fontSize(10.5)
    .text(receipt.seller.name, SELLER_LEFT, addresseeTop - 6, {
      width: SELLER_WIDTH,
    });
  doc.font("jp").fontSize(8.5).text(receipt.seller.address, { width: SELLER_WIDTH });
  if (receipt.seller.invoiceNumber)
    doc.text(`登録番号 ${receipt.seller.invoiceNumber}`, { width: SELLER_WIDTH });

  // 金額: large, in a box, with the tax-included mark.
  const amountTop = Math.max(addresseeTop + 44, doc.y + 14);
  doc.rect(MARGIN, amountTop, CONTENT, 52).lineWidth(1.2).strokeColor(INK).stroke();
  doc
    .font("jp")
    .fontSize(12)
    .text("金額", MARGIN + 18, amountTop + 19, { lineBreak: false });
  doc
    .font("jp-bold")
    .fontSize(24)
    .text(`${formatYenSign(receipt.total)}-`, MARGIN, amountTop + 10, { width: CONTENT, align: "center" });
  doc
    .font("jp")
    .fontSize(10)
    .text("（税込）", MARGIN, amountTop + 22, { width: CONTENT - 18, align: "right" });

  doc.font("jp").fontSize(11);
  doc.text(`但し ${receipt.purpose}`, MARGIN, amountTop + 64);
  doc.text("上記正に領収いたしました。", MARGIN, amountTop + 80);
  doc.text(
    `${receipt.taxRatePercent}%対象 ${formatYenSign(receipt.total)}（うち消費税 ${formatYenSign(receipt.tax)}）`,
    MARGIN,
    amountTop + 96,
  );
  return amountTop + 112;
}
