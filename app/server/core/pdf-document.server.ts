import fs from "node:fs";
import { createRequire } from "node:module";
import { loadPdfKit } from "./lazy-modules.server";

/**
 * An A4 PDF (pdfkit) in the shop's Japanese font, for the documents the shop prints: the 領収書
 * and a contest's flyer. Noto Sans JP is embedded (pdfkit keeps only the glyphs used), so a
 * document reads the same on any device and its text can be copied; "jp" and "jp-bold" name it.
 */

// Resolved through Node's module resolution from this module's URL, so the fonts are found
// from the sources (tests, dev) and from the built server (build/server/index.js) alike.
const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: "@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf",
  bold: "@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf",
} as const;

let fonts: { regular: Buffer; bold: Buffer } | undefined;

/** Read once (about 5 MB each) and kept: a document is made from them in a few tens of milliseconds. */
function fontData() {
  fonts ??= {
    regular: fs.readFileSync(require.resolve(FONT_FILES.regular)),
    bold: fs.readFileSync(require.resolve(FONT_FILES.bold)),
  };
  return fonts;
}

export type PdfDoc = PDFKit.PDFDocument;

/** A new A4 document with the fonts registered, and `finish`, which ends it and gives its bytes. */
export async function startPdf(
  options: PDFKit.PDFDocumentOptions,
): Promise<{ doc: PdfDoc; finish: () => Promise<Uint8Array<ArrayBuffer>> }> {
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({ size: "A4", ...options });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  const { regular, bold } = fontData();
  doc.registerFont("jp", regular);
  doc.registerFont("jp-bold", bold);
  const finish = async () => {
    doc.end();
    await done;
    const pdf = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.byteLength, 0));
    let offset = 0;
    for (const chunk of chunks) {
      pdf.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return pdf;
  };
  return { doc, finish };
}
