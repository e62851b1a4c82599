import fs from "node:fs";
import { createRequire } from "node:module";
import { formatYenSign } from "~/lib/rules/format";
import { receiptLineDescription, receiptSumRows } from "~/lib/rules/receipt";
import { loadPdfKit } from "../core/lazy-modules.server";
import type { Receipt } from "./receipts.server";

/**
 * The 領収書 as an A4 PDF (pdfkit), laid out as the printed HTML page is: the title centred,
 * the addressee line, the amount large, 但し…, the tax at the rate, the items, and the seller
 * with its registration number at the right. Noto Sans JP is embedded (pdfkit keeps only the
 * glyphs used), so the receipt reads the same on any device and its text can be copied.
 */

// Resolved through Node's module resolution from this module's URL, so the fonts are found
// from the sources (tests, dev) and from the built server (build/server/index.js) alike.
const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: "@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf",
  bold: "@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf",
} as const;

let fonts: { regular: Buffer; bold: Buffer } | undefined;

/** Read once (about 5 MB each) and kept: a receipt is made from them in a few tens of milliseconds. */
function fontData() {
  fonts ??= {
    regular: fs.readFileSync(require.resolve(FONT_FILES.regular)),
    bold: fs.readFileSync(require.resolve(FONT_FILES.bold)),
  };
  return fonts;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const CONTENT = A4.width - MARGIN * 2;
const INK = "#18181b";
const MUTED = "#52525b";
const RULE = "#a1a1aa";

export async function receiptPdf(receipt: Receipt): Promise<Uint8Array<ArrayBuffer>> {
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    info: {
      Title: receipt.qualifiedInvoice ? `${receipt.title}（適格簡易請求書）` : receipt.title,
      Author: receipt.seller.name,
      Subject: `注文番号 ${receipt.orderNumber}`,
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  const { regular, bold } = fontData();
  doc.registerFont("jp", regular);
  doc.registerFont("jp-bold", bold);
  doc.fillColor(INK);

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
  doc.text(receipt.title, MARGIN, MARGIN + 44, { width: CONTENT, align: "center" });
  if (receipt.qualifiedInvoice) {
    doc.font("jp").fontSize(10).fillColor(MUTED);
    doc.text("（適格簡易請求書）", { width: CONTENT, align: "center" }).fillColor(INK);
  }

  // 宛名: the name (or a blank line to write in) and 様 on one underlined line.
  const addresseeTop = MARGIN + 130;
  const addresseeWidth = 300;
  doc.font("jp-bold").fontSize(15);
  doc.text(receipt.addressee, MARGIN, addresseeTop, {
    width: addresseeWidth - 30,
    lineBreak: false,
    ellipsis: true,
  });
  doc
    .font("jp")
    .fontSize(13)
    .text("様", MARGIN + addresseeWidth - 20, addresseeTop + 2, { lineBreak: false });
  doc
    .moveTo(MARGIN, addresseeTop + 24)
    .lineTo(MARGIN + addresseeWidth, addresseeTop + 24)
    .lineWidth(0.8)
    .strokeColor(INK)
    .stroke();

  // 金額: large, in a box, with the tax-included mark.
  const amountTop = addresseeTop + 48;
  doc.rect(MARGIN, amountTop, CONTENT, 56).lineWidth(1.2).strokeColor(INK).stroke();
  doc
    .font("jp")
    .fontSize(12)
    .text("金額", MARGIN + 18, amountTop + 21, { lineBreak: false });
  doc
    .font("jp-bold")
    .fontSize(24)
    .text(`${formatYenSign(receipt.total)}-`, MARGIN, amountTop + 12, { width: CONTENT, align: "center" });
  doc
    .font("jp")
    .fontSize(10)
    .text("（税込）", MARGIN, amountTop + 24, { width: CONTENT - 18, align: "right" });

  doc.font("jp").fontSize(11);
  doc.text(`但し ${receipt.purpose}`, MARGIN, amountTop + 72);
  doc.text("上記正に領収いたしました。", MARGIN, amountTop + 90);
  doc.text(
    `${receipt.taxRatePercent}%対象 ${formatYenSign(receipt.total)}（うち消費税 ${formatYenSign(receipt.tax)}）`,
    MARGIN,
    amountTop + 108,
  );
  // Each refund in words: the amount above is what is left after them.
  receipt.refunds.forEach((refund, index) => {
    doc.text(refund.sentence, MARGIN, amountTop + 126 + index * 18);
  });

  // The items.
  let y = amountTop + 146 + receipt.refunds.length * 18;
  doc.font("jp-bold").fontSize(10);
  doc.text("内訳", MARGIN, y);
  y += 18;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + CONTENT, y)
    .lineWidth(0.6)
    .strokeColor(RULE)
    .stroke();
  doc.font("jp").fontSize(9).fillColor(MUTED);
  doc.text("品目", MARGIN + 4, y + 5, { lineBreak: false });
  doc.text("金額（税込）", MARGIN, y + 5, { width: CONTENT - 4, align: "right" });
  doc.fillColor(INK);
  y += 20;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + CONTENT, y)
    .stroke();
  for (const line of receipt.lines) {
    const description = `${receiptLineDescription(line)}${line.refunded ? "（返金済み）" : ""}`;
    doc.font("jp").fontSize(9.5);
    const height = doc.heightOfString(description, { width: CONTENT - 110 });
    if (y + height + 12 > A4.height - 200) {
      doc.addPage();
      y = MARGIN;
    }
    doc.text(description, MARGIN + 4, y + 5, { width: CONTENT - 110 });
    doc.text(`${formatYenSign(line.listPrice)}`, MARGIN, y + 5, { width: CONTENT - 4, align: "right" });
    y += Math.max(height, 12) + 10;
    doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + CONTENT, y)
      .strokeColor(RULE)
      .stroke();
  }
  // The items' sum and each 割引, what was paid and each refund, so 合計 reads as what is left.
  doc.font("jp").fontSize(9.5);
  for (const row of receiptSumRows(receipt)) {
    doc.text(row.label, MARGIN + 4, y + 6, { lineBreak: false });
    const amount = row.amount < 0 ? `−${formatYenSign(-row.amount)}` : formatYenSign(row.amount);
    doc.text(amount, MARGIN, y + 6, { width: CONTENT - 4, align: "right" });
    y += 16;
  }
  doc.font("jp-bold").fontSize(10);
  doc.text("合計", MARGIN + 4, y + 6, { lineBreak: false });
  doc.text(formatYenSign(receipt.total), MARGIN, y + 6, { width: CONTENT - 4, align: "right" });
  y += 22;
  doc.font("jp").fontSize(9).fillColor(MUTED);
  doc.text(
    `（${receipt.taxRatePercent}%対象 ${formatYenSign(receipt.total)} うち消費税 ${formatYenSign(receipt.tax)}）`,
    MARGIN,
    y,
    { width: CONTENT - 4, align: "right" },
  );
  doc.text(`お支払い日 ${receipt.paidOn}`, MARGIN + 4, y + 16);
  doc.fillColor(INK);

  // The seller, at the right, with its registration number.
  const sellerLeft = MARGIN + CONTENT - 240;
  let sellerTop = Math.max(y + 52, A4.height - MARGIN - 130);
  if (sellerTop > A4.height - MARGIN - 80) {
    doc.addPage();
    sellerTop = MARGIN;
  }
  doc.font("jp-bold").fontSize(11).text(receipt.seller.name, sellerLeft, sellerTop, { width: 240 });
  doc.font("jp").fontSize(9).text(receipt.seller.address, { width: 240 });
  if (receipt.seller.invoiceNumber) doc.text(`登録番号 ${receipt.seller.invoiceNumber}`, { width: 240 });
  if (receipt.reissue) {
    doc
      .fontSize(8)
      .fillColor(MUTED)
      .text(
        `この領収書は再発行したものです（初回発行日 ${receipt.firstIssuedOn}）。`,
        MARGIN,
        A4.height - MARGIN - 24,
        {
          width: CONTENT,
          lineBreak: false,
        },
      );
  }

  doc.end();
  await done;
  const pdf = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    pdf.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return pdf;
}
