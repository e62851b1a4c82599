import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { contestFlyer } from "~/server/flyers/contest-flyer.server";
import { contestFlyerPdf } from "~/server/flyers/contest-flyer-pdf.server";
import { attachmentDisposition } from "~/server/http/content-disposition.server";

/** The contest's flyer for the venue (A4 PDF), made from its settings as they are now. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const pdf = await contestFlyerPdf(contestFlyer(contest));
  return new Response(pdf, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.byteLength),
      "Content-Disposition": attachmentDisposition(`flyer-${contest.id}.pdf`, `チラシ_${contest.name}.pdf`),
      // It prints the 合言葉: kept by no cache on the way.
      "Cache-Control": "private, no-store",
    },
  });
}
