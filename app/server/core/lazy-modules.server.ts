/**
 * Packages loaded on their first use instead of when the server starts. Each holds 10–30 MB once
 * loaded (sharp and pdfkit ~28 MB, the Stripe SDK ~20, nodemailer ~13, qrcode ~10; about 50 MB
 * together), and what a burst of parents asks for needs none of them: images are made when an
 * admin uploads, receipts when one is asked for, mail by the outbox, a QR code when an admin sets
 * up an authenticator app, Stripe when a payment starts. The AWS SDK (~25 MB) only when the shop
 * keeps its files in object storage and stores, removes or lists one (serving a file signs its URL
 * without it: app/server/files/s3-signature.server.ts). See decisions 0024 and 0019.
 */
function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}

export const loadSharp = onFirstUse(async () => (await import("sharp")).default);
export const loadPdfKit = onFirstUse(async () => (await import("pdfkit")).default);
export const loadStripe = onFirstUse(async () => (await import("stripe")).default);
export const loadNodemailer = onFirstUse(async () => (await import("nodemailer")).default);
export const loadQrCode = onFirstUse(async () => (await import("qrcode")).default);
export const loadS3 = onFirstUse(() => import("@aws-sdk/client-s3"));
