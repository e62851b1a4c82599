import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDate } from "~/lib/rules/format";
import { describeProductionFilter, productionQuery } from "~/lib/rules/production-list";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import {
  parseProductionFilter,
  productionCategories,
  productionFlags,
  productionList,
  productionTotals,
} from "~/server/delivery/production-list.server";
import { ProductionFilter } from "./production/ProductionFilter";
import { FlagLegend, ProductionTable, type ProductionTableRow } from "./production/ProductionTable";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `制作リスト ${data?.contest.name ?? ""} | 管理画面` },
];

/**
 * The whole list, not a page of it: the editors print it and work through it, and one
 * grouped query answers it even for a contest of thousands of athletes.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const categories = productionCategories(contest.id);
  const { filter, unknownCategory } = parseProductionFilter(new URL(request.url).searchParams, categories);
  const rows = productionList(contest.id, filter);
  return {
    contest: { id: contest.id, name: contest.name, bibNumberLabel: contest.bibNumberLabel || "番号" },
    categories,
    filter,
    unknownCategory,
    totals: productionTotals(rows),
    rows: rows.map((row): ProductionTableRow => ({
      key: `${row.athleteId ?? `${row.athleteNumber}-${row.athleteName}`}-${row.orientation}`,
      athleteNumber: row.athleteNumber,
      athleteName: row.athleteName,
      category: row.category,
      style: row.style,
      lineCount: row.lineCount,
      deliveredCount: row.deliveredCount,
      firstOrderedOn: formatDate(row.firstOrderedAt),
      state: row.state,
      flags: productionFlags(row),
    })),
  };
}

export default function ProductionList() {
  const { contest, categories, filter, unknownCategory, totals, rows } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const filterText = describeProductionFilter(filter);
  const csvHref = `/admin/contest/${contest.id}/production.csv${productionQuery(filter)}`;

  return (
    <div className="space-y-5 print:space-y-3 print:[page:production-list]">
      {/* On paper the admin frame is hidden: this heading says which contest and which rows. */}
      <div className="hidden print:block">
        <h1 className="text-lg font-bold">制作リスト {contest.name}</h1>
        <p className="text-sm">{filterText}</p>
      </div>

      <div className="flex flex-wrap items-end justify-between gap-3 print:hidden">
        <div>
          <h2 className="text-lg font-bold">制作リスト</h2>
          <p className="mt-1 text-sm text-zinc-600">
            注文のある選手 × スタイルごとに1行です。同じ動画を複数のご家族が注文していても1本として数えます。
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {hydrated ? (
            <button type="button" onClick={() => window.print()} className="btn-secondary">
              印刷
            </button>
          ) : null}
          <a href={csvHref} download className="btn-secondary">
            CSVダウンロード
          </a>
        </div>
      </div>

      <ProductionFilter categories={categories} filter={filter} unknownCategory={unknownCategory} />

      <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2">
        <p className="text-sm text-zinc-700" data-testid="production-totals">
          <span className="font-semibold text-zinc-900">{totals.rows}件</span>
          （注文明細 {totals.lines}本）・未納品{" "}
          <span className="font-semibold text-zinc-900">{totals.open}件</span>
          <span className="text-zinc-500 print:hidden">・{filterText}</span>
        </p>
        <FlagLegend />
      </div>

      {rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 bg-white py-12 text-center text-zinc-600">
          {filter.category !== null || filter.openOnly
            ? "条件に合う注文はありません"
            : "この大会の注文はまだありません"}
        </p>
      ) : (
        <ProductionTable
          rows={rows}
          numberLabel={contest.bibNumberLabel}
          caption={`${contest.name} の制作リスト（${filterText}）`}
        />
      )}
    </div>
  );
}
