import type { LoaderFunctionArgs } from "@remix-run/node";
import { csvLine, UTF8_BOM } from "~/lib/rules/csv";
import { tokyoDay } from "~/lib/rules/tokyo-date";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { now } from "~/server/core/clock.server";
import { SALES_CSV_HEADER, salesCsvRows } from "~/server/sales/sales-csv.server";
import { parseSalesFilter } from "~/server/sales/sales.server";

/** The filtered order lines and refunds as CSV (UTF-8 with BOM, so Excel shows the Japanese right), streamed. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const filter = parseSalesFilter(new URL(request.url).searchParams);
  const rows = salesCsvRows(filter);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(UTF8_BOM + csvLine(SALES_CSV_HEADER)));
    },
    pull(controller) {
      let chunk = "";
      for (let i = 0; i < 500; i++) {
        const next = rows.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += csvLine(next.value);
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="sales-${tokyoDay(now())}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
