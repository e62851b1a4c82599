import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { receiptPath } from "~/lib/rules/receipt";
import { attachmentDisposition } from "~/server/http/content-disposition.server";
import { notFoundResponse } from "~/server/http/not-found.server";
import { receiptPdf } from "~/server/receipts/receipt-pdf.server";
import { receiptByToken } from "~/server/receipts/receipts.server";

/**
 * The issued 領収書 as a PDF: the current issue, as the page shows it (downloading counts as no
 * issue). Before the first issue the addressee is still to be entered, on the page.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  const state = receiptByToken(token);
  if (state.kind === "not-found") return notFoundResponse();
  // Not paid yet, or given back whole: there is no receipt to download; the reason, as on the page.
  if (state.kind === "unpaid" || state.kind === "refunded")
    return new Response(state.message, {
      status: 409,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  if (state.kind === "not-issued") return redirect(receiptPath(token));
  const { receipt } = state;
  const pdf = await receiptPdf(receipt);
  return new Response(pdf, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.byteLength),
      "Content-Disposition": attachmentDisposition(
        `receipt-${receipt.orderNumber}.pdf`,
        `領収書_${receipt.orderNumber}${receipt.reissue ? "_再発行" : ""}.pdf`,
      ),
      "Cache-Control": "private, no-store",
      // An order's own document, as its pages (meta robots) and robots.txt say.
      "X-Robots-Tag": "noindex",
    },
  });
}
