import type { ReactNode } from "react";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { displayStatus, STATUS_STYLES } from "~/lib/schemas/athlete-schemas";
import { athleteLabel, type RowProps } from "./table-state";

/** The checkbox and number columns stay in view while a phone scrolls the table sideways. */
export const STICKY_CELL =
  "sticky z-10 bg-white transition-colors duration-500 group-data-[highlight=saved]:bg-emerald-50";

/** The header cells' ids: an editable row's inputs are labelled by their column's header. */
export const COLUMN_IDS = {
  number: "athlete-col-number",
  name: "athlete-col-name",
  category: "athlete-col-category",
  vertical: "athlete-col-price-1",
  horizontal: "athlete-col-price-2",
  video: "athlete-col-video",
  photo: "athlete-col-photo",
};

const HEADING = "px-2 py-3 font-medium whitespace-nowrap";

/** The header row; with JS its first cell selects every row of the page. */
export function AthleteTableHead({
  bibNumberLabel,
  priceNames,
  deletedView,
  selectAll,
}: {
  bibNumberLabel: string;
  priceNames: [string, string];
  deletedView: boolean;
  /** Null without JS, where the bar's links select the page instead. */
  selectAll: { checked: boolean; onChange: (on: boolean) => void } | null;
}) {
  return (
    <thead className="border-b border-zinc-200 bg-zinc-50 text-zinc-600">
      <tr>
        <th className="sticky left-0 z-10 w-10 bg-zinc-50 px-3 py-3 font-medium">
          {selectAll ? (
            <input
              type="checkbox"
              aria-label="このページの選手をすべて選択"
              checked={selectAll.checked}
              onChange={(event) => selectAll.onChange(event.target.checked)}
              className="h-4 w-4 accent-brand-600"
            />
          ) : (
            <span className="sr-only">選択</span>
          )}
        </th>
        <th id={COLUMN_IDS.number} className="sticky left-10 z-10 w-24 bg-zinc-50 px-2 py-3 font-medium">
          {bibNumberLabel}
        </th>
        <th id={COLUMN_IDS.name} className={HEADING}>
          選手名
        </th>
        <th id={COLUMN_IDS.category} className={`w-36 ${HEADING}`}>
          部門
        </th>
        <th id={COLUMN_IDS.vertical} className={`w-28 ${HEADING}`}>
          {priceNames[0]}の価格
        </th>
        <th id={COLUMN_IDS.horizontal} className={`w-28 ${HEADING}`}>
          {priceNames[1]}の価格
        </th>
        <th id={COLUMN_IDS.video} className={`w-32 ${HEADING}`}>
          動画ステータス
        </th>
        <th id={COLUMN_IDS.photo} className={`w-32 ${HEADING}`}>
          写真ステータス
        </th>
        <th className={`${deletedView ? "w-56" : "w-36"} px-2 py-3 font-medium`}>操作</th>
      </tr>
    </thead>
  );
}

/** A row's checkbox, in the bulk bar's form (id "bulk") by the form attribute. */
export function SelectCell({
  athlete,
  selected,
  onSelect,
  readOnly = false,
}: Pick<RowProps, "athlete" | "selected" | "onSelect"> & { readOnly?: boolean }) {
  return (
    <td className={`left-0 px-3 py-2 ${STICKY_CELL} ${readOnly ? "align-middle" : "align-top"}`}>
      <input
        type="checkbox"
        name="ids"
        value={athlete.id}
        form="bulk"
        checked={selected}
        onChange={(event) => onSelect(event.target.checked)}
        aria-label={`${athleteLabel(athlete)}を選択`}
        className={`${readOnly ? "" : "mt-3"} h-4 w-4 accent-brand-600`}
      />
    </td>
  );
}

/** 販売中 / 確認中 / 受注停止 as a coloured badge (a legacy value shows as 確認中). */
export function StatusBadge({ status }: { status: string }) {
  const shown = displayStatus(status);
  return (
    <span
      className={`inline-block rounded-full border px-2.5 py-0.5 text-xs font-bold ${STATUS_STYLES[shown]}`}
    >
      {shown}
    </span>
  );
}

/**
 * reply=fetcher, only once the page's scripts run: the action then answers the outcome as data
 * for the script to show, where a plain form post gets a redirect with a toast.
 */
export function FetcherReply() {
  const hydrated = useHydrated();
  return hydrated ? <input type="hidden" name="reply" value="fetcher" /> : null;
}

const ROW_BUTTON_TONES = {
  save: "bg-zinc-900 font-semibold text-white hover:bg-zinc-700",
  neutral: "border border-zinc-300 hover:bg-zinc-100",
  danger: "border border-red-300 text-red-700 hover:bg-red-50",
};

/** A row's own button (保存, 削除, 復元): its intent, and an accessible name that says whose row. */
export function RowButton({
  intent,
  tone,
  label,
  formNoValidate,
  children,
}: {
  intent: string;
  tone: keyof typeof ROW_BUTTON_TONES;
  label: string;
  formNoValidate?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      formNoValidate={formNoValidate}
      className={`min-h-11 rounded-lg px-3 text-sm ${ROW_BUTTON_TONES[tone]}`}
      aria-label={label}
    >
      {children}
    </button>
  );
}
