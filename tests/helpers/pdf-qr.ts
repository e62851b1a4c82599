import jsQR from "jsqr";
import { extractImages, getDocumentProxy } from "unpdf";

// pdf.js hands an image's pixels over with ArrayBuffer's transferToFixedLength, which Node 20
// lacks (21 has it): a copy does the same for a test.
const buffers = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: () => ArrayBuffer };
buffers.transferToFixedLength ??= function (this: ArrayBuffer) {
  return this.slice(0);
};

/** A PDF's page count and the QR codes printed on its first page, decoded from the images it holds. */
export async function pdfPagesAndQrCodes(pdf: Uint8Array): Promise<{ pages: number; qrCodes: string[] }> {
  // A copy, as a plain Uint8Array (pdf.js refuses a Buffer, and takes over what it is given).
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const images = await extractImages(document, 1);
  const qrCodes = images.flatMap((image) => {
    const rgba = new Uint8ClampedArray(image.width * image.height * 4);
    for (let pixel = 0; pixel < image.width * image.height; pixel++) {
      for (let channel = 0; channel < 3; channel++)
        rgba[pixel * 4 + channel] =
          image.data[pixel * image.channels + (image.channels === 1 ? 0 : channel)] ?? 0;
      rgba[pixel * 4 + 3] = 255;
    }
    const code = jsQR(rgba, image.width, image.height);
    return code ? [code.data] : [];
  });
  return { pages: document.numPages, qrCodes };
}
