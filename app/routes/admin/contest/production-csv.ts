import type { LoaderFunctionArgs } from "@remix-run/node";
import { csvLine, UTF8_BOM } from "~/lib/rules/csv";
import { tokyoDay } from "~/lib/rules/tokyo-date";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { now } from "~/server/core/clock.server";
import { attachmentDisposition } from "~/server/http/content-disposition.server";
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
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": attachmentDisposition(
        `production-${contest.id}-${day}.csv`,
        `制作リスト_${contest.name}_${day}.csv`,
      ),
      "Cache-Control": "no-store",
    },
  });
}
