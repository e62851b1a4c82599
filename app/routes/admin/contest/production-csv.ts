import type { LoaderFunctionArgs } from "@remix-run/node";
import { csvLine, UTF8_BOM } from "~/lib/csv";
import { tokyoDay } from "~/lib/tokyo-date";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { now } from "~/server/core/clock.server";
import {
  parseProductionFilter,
  productionCategories,
  productionCsvHeader,
  productionCsvRow,
  productionList,
} from "~/server/delivery/production-list.server";

/**
 * The 制作リスト as CSV, with the page's filter (UTF-8 with BOM, so Excel shows the Japanese
 * right). A few thousand rows at most, from one query: built whole rather than streamed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const { filter } = parseProductionFilter(
    new URL(request.url).searchParams,
    productionCategories(contest.id),
  );
  const rows = productionList(contest.id, filter);
  const body =
    UTF8_BOM +
    csvLine(productionCsvHeader(contest.bibNumberLabel)) +
    rows.map((row) => csvLine(productionCsvRow(row))).join("");
  const day = tokyoDay(now());
  // filename for old clients (ASCII only); filename* (RFC 5987) gives the rest the Japanese name.
  const japanese = `制作リスト_${contest.name}_${day}.csv`.replace(/[\\/:*?"<>|\p{Cc}]/gu, "_");
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="production-${contest.id}-${day}.csv"; filename*=UTF-8''${encodeRfc5987(japanese)}`,
      "Cache-Control": "no-store",
    },
  });
}

/** encodeURIComponent leaves ' ( ) * as they are; RFC 5987's attr-char does not allow them. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
