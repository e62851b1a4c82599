import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { FormError, FormNotice } from "~/components/form-messages";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import type { AthleteActionResult } from "~/server/catalog/athlete-tab.server";
import type { AthleteRow as AthleteRowData } from "~/server/catalog/athletes.server";
import { AthleteRow } from "./AthleteRow";
import { BulkBar } from "./BulkBar";
import { DeletedAthleteRow } from "./DeletedAthleteRow";
import { PurgeDialog, type PurgeTarget } from "./PurgeConfirmation";
import { AthleteTableHead } from "./table-columns";
import {
  pendingBulk,
  useFetcherOutcome,
  useFlash,
  withBulk,
  type Notice,
  type TableContext,
} from "./table-state";
import { SideScroll } from "~/components/SideScroll";

/**
 * The athlete table with its bulk bar. The selection lives here: the rows tick it, the bar
 * posts it. With JS the bar goes through a fetcher and its effect shows at once (rows it
 * deletes leave, rows it updates show the new values), a success lights the changed rows, and
 * every row's or the bar's outcome is told in one line above the table.
 */
export function AthleteTable({
  context,
  rows,
  deletedView,
  selectAll,
  bulkResult,
  selectAllLink,
  clearLink,
  purgeLinkFor,
}: {
  context: TableContext;
  rows: AthleteRowData[];
  deletedView: boolean;
  selectAll: boolean;
  bulkResult: AthleteActionResult | null;
  selectAllLink: string;
  clearLink: string;
  purgeLinkFor: (id: number) => string;
}) {
  const hydrated = useHydrated();
  const bulkFetcher = useFetcher<AthleteActionResult>({ key: "athlete-bulk" });
  const echoedIds = bulkResult?.reply?.initialValue?.ids;
  const [selected, setSelected] = useState<Set<number>>(() =>
    selectAll ? new Set(rows.map((r) => r.id)) : new Set([echoedIds ?? []].flat().map(Number)),
  );
  const [notice, setNotice] = useState<Notice | null>(null);
  const [highlighted, setHighlighted] = useState<Set<number>>(new Set());
  const [highlightOn, flashHighlight] = useFlash();
  const [purging, setPurging] = useState<PurgeTarget | null>(null);

  useFetcherOutcome(bulkFetcher, (result) => {
    setNotice({
      ok: result.ok,
      message: result.message ?? (result.ok ? "完了しました。" : "操作に失敗しました。"),
    });
    if (result.ok) {
      setSelected(new Set());
      setHighlighted(new Set(result.ids ?? []));
      flashHighlight();
    }
  });

  const bulk = pendingBulk(bulkFetcher.formData);
  const visibleIds = rows.map((r) => r.id);
  const selectedOnPage = visibleIds.filter((id) => selected.has(id));
  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <div className="space-y-3">
      <BulkBar
        fetcher={bulkFetcher}
        lastResult={bulkFetcher.data?.reply ?? bulkResult?.reply ?? null}
        selectedCount={selectedOnPage.length}
        deletedView={deletedView}
        priceNames={context.priceNames}
        selectAllLink={selectAllLink}
        clearLink={clearLink}
        onAskPurge={hydrated ? setPurging : null}
      />

      {notice ? (
        notice.ok ? (
          <FormNotice kind="success">{notice.message}</FormNotice>
        ) : (
          <FormError errors={[notice.message]} />
        )
      ) : null}

      {rows.length > 0 ? (
        <SideScroll label="選手の一覧" className="rounded-xl shadow-sm">
          <table className="w-full min-w-[68rem] table-fixed text-left text-sm">
            <AthleteTableHead
              bibNumberLabel={context.bibNumberLabel}
              priceNames={context.priceNames}
              deletedView={deletedView}
              selectAll={
                hydrated
                  ? {
                      checked: selectedOnPage.length === rows.length,
                      onChange: (on) => setSelected(on ? new Set(visibleIds) : new Set()),
                    }
                  : null
              }
            />
            <tbody className="divide-y divide-zinc-100">
              {rows.map((athlete) => {
                const shared = {
                  context,
                  selected: selected.has(athlete.id),
                  onSelect: (on: boolean) => toggle(athlete.id, on),
                  hiddenByBulk: Boolean(bulk && bulk.intent !== "bulk-update" && bulk.ids.has(athlete.id)),
                  highlighted: highlightOn && highlighted.has(athlete.id),
                  onNotice: setNotice,
                };
                return deletedView ? (
                  <DeletedAthleteRow
                    key={athlete.id}
                    athlete={athlete}
                    {...shared}
                    purgeLink={purgeLinkFor(athlete.id)}
                    onAskPurge={hydrated ? setPurging : null}
                  />
                ) : (
                  <AthleteRow key={athlete.id} athlete={withBulk(athlete, bulk)} {...shared} />
                );
              })}
            </tbody>
          </table>
        </SideScroll>
      ) : null}
      {hydrated ? <PurgeDialog target={purging} onClose={() => setPurging(null)} /> : null}
    </div>
  );
}
