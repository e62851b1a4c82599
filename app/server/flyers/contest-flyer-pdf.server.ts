import { loadQrCode } from "../core/lazy-modules.server";
import { startPdf, type PdfDoc } from "../core/pdf-document.server";
import type { ContestFlyer } from "./contest-flyer.server";

/**
 * A contest's flyer as one A4 sheet for the venue's wall or reception: the contest, a QR code of
 * its order form large enough to scan from a step away, the 合言葉 in large type, when orders are
 * taken and the prices. Black on white with one accent, to print well on an office printer.
 * The QR code is a PNG (qrcode) placed as an image: its modules stay square at any print size,
 * and it can be read back from the PDF (the tests decode it to the address).
 */

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const WIDTH = PAGE.width - MARGIN * 2;
const INK = "#18181b";
const MUTED = "#52525b";
const ACCENT = "#be123c";
const QR_SIZE = 210;

export async function contestFlyerPdf(flyer: ContestFlyer): Promise<Uint8Array<ArrayBuffer>> {
  const { doc, finish } = await startPdf({
    margin: MARGIN,
    info: { Title: `${flyer.contestName} 動画のご案内`, Author: flyer.shopName },
  });
  const QRCode = await loadQrCode();
  // Level M and a quiet zone of four modules, as a phone's camera expects.
  const qr = await QRCode.toBuffer(flyer.orderFormUrl, { errorCorrectionLevel: "M", margin: 4, scale: 8 });

  doc.fillColor(MUTED).font("jp").fontSize(11);
  doc.text(flyer.shopName, MARGIN, MARGIN, { width: WIDTH, align: "center" });
  doc.moveDown(0.6).fillColor(INK).font("jp-bold").fontSize(24);
  // Two lines at most: a long name is shortened rather than pushing the sheet onto a second page.
  doc.text(flyer.contestName, { width: WIDTH, align: "center", height: 70, ellipsis: true });
  if (flyer.heldAt)
    doc.fillColor(MUTED).font("jp").fontSize(12).text(flyer.heldAt, { width: WIDTH, align: "center" });

  doc.moveDown(0.8).fillColor(ACCENT).font("jp-bold").fontSize(18);
  doc.text("この大会の動画をご注文いただけます", { width: WIDTH, align: "center" });

  const qrTop = doc.y + 14;
  doc.image(qr, MARGIN + (WIDTH - QR_SIZE) / 2, qrTop, { width: QR_SIZE, height: QR_SIZE });
  doc.fillColor(INK).font("jp").fontSize(11);
  doc.text("スマートフォンのカメラで読み取ってください", MARGIN, qrTop + QR_SIZE + 6, {
    width: WIDTH,
    align: "center",
  });
  // Printed as a person reads it (the contest's name, not %E7%AC%AC…); the QR code keeps it encoded.
  doc.fillColor(MUTED).fontSize(9.5).text(decodeURI(flyer.orderFormUrl), { width: WIDTH, align: "center" });

  if (flyer.accessCode) drawAccessCode(doc, flyer.accessCode, doc.y + 16);

  doc.y += 18;
  heading(doc, "ご注文受付");
  doc.font("jp").fontSize(12).fillColor(INK).text(flyer.sales, MARGIN, doc.y, { width: WIDTH });
  if (flyer.prices.length) {
    doc.moveDown(0.7);
    heading(doc, "価格（1本・税込）");
    doc.font("jp").fontSize(12).fillColor(INK);
    for (const price of flyer.prices) doc.text(price, { width: WIDTH });
    if (flyer.earlyBird)
      doc.fillColor(ACCENT).font("jp-bold").fontSize(11.5).text(flyer.earlyBird, { width: WIDTH });
  }

  // The foot, at a fixed place: who sells, and where, for those who type rather than scan.
  // Inside the bottom margin, which pdfkit would otherwise answer with a second page.
  doc.page.margins.bottom = 0;
  doc.font("jp").fontSize(10).fillColor(MUTED);
  doc.text(`${flyer.shopName}\u3000${flyer.shopUrl}`, MARGIN, PAGE.height - MARGIN - 14, {
    width: WIDTH,
    align: "center",
    lineBreak: false,
  });
  return finish();
}

function heading(doc: PdfDoc, text: string) {
  doc.font("jp-bold").fontSize(12.5).fillColor(INK).text(text, MARGIN, doc.y, { width: WIDTH });
  doc.moveDown(0.15);
}

/** The code in a framed box, large enough to copy from across a table, with what it is for. */
function drawAccessCode(doc: PdfDoc, code: string, top: number) {
  const height = 104;
  doc
    .roundedRect(MARGIN + 40, top, WIDTH - 80, height, 8)
    .lineWidth(1.5)
    .strokeColor(INK)
    .stroke();
  doc.font("jp-bold").fontSize(12).fillColor(INK);
  doc.text("合言葉", MARGIN, top + 10, { width: WIDTH, align: "center" });
  // 30 pt, smaller for a long code (up to 32 letters) so that it stays on one line.
  const codeWidth = WIDTH - 100;
  const size = Math.min(30, (30 * codeWidth) / doc.fontSize(30).widthOfString(code));
  doc.fontSize(size).text(code, MARGIN + 50, top + 28 + (30 - size) / 2, {
    width: codeWidth,
    align: "center",
    lineBreak: false,
  });
  doc.font("jp").fontSize(9.5).fillColor(MUTED);
  doc.text(
    "注文ページで入力すると、選手の一覧が表示されます。参加者とご家族のための合言葉です。SNS などには載せないでください。",
    MARGIN + 56,
    top + 72,
    { width: WIDTH - 112, align: "center" },
  );
  doc.y = top + height;
}
