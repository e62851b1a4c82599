import { useEffect, useRef, useState } from "react";
import { SALES_STATUSES } from "~/lib/schemas/athlete-schemas";
import type { AthleteActionResult } from "~/server/catalog/athlete-tab.server";
import type { AthleteRow } from "~/server/catalog/athletes.server";

/** What every row of the table needs from the page. */
export type TableContext = {
  contestId: number;
  bibNumberLabel: string;
  categories: string[];
  priceNames: [string, string];
  /** A plain form post's failed row save: that row shows its messages and the typed values. */
  rowResult: AthleteActionResult | null;
};

/** The line above the table that tells how a row's or the bar's change went (JS). */
export type Notice = { ok: boolean; message: string };

/** What the table hands each row, active or deleted. */
export type RowProps = {
  athlete: AthleteRow;
  context: TableContext;
  selected: boolean;
  onSelect: (on: boolean) => void;
  /** The row leaves the page while a bulk 削除 / 復元 / 完全に削除 of it is on its way. */
  hiddenByBulk: boolean;
  highlighted: boolean;
  onNotice: (notice: Notice) => void;
};

/** How a row names its athlete: in its buttons' labels, its checkbox's and its failure notices. */
export function athleteLabel(athlete: Pick<AthleteRow, "athleteNumber" | "name">): string {
  return `${athlete.athleteNumber} ${athlete.name}`;
}

/** The spec's saved highlight lasts 2 seconds. */
const HIGHLIGHT_MS = 2000;

/** A counter that reads true for HIGHLIGHT_MS after each bump. */
export function useFlash(): [boolean, () => void] {
  const [flash, setFlash] = useState(0);
  const [on, setOn] = useState(false);
  useEffect(() => {
    if (flash === 0) return;
    setOn(true);
    const timer = window.setTimeout(() => setOn(false), HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [flash]);
  return [on, () => setFlash((n) => n + 1)];
}

/**
 * Runs `handle` once for each answer a fetcher brings back, as soon as it arrives (while
 * the page data is still reloading): a row the reload removes must still report.
 */
export function useFetcherOutcome(
  fetcher: { data?: AthleteActionResult },
  handle: (result: AthleteActionResult) => void,
) {
  const seen = useRef(fetcher.data);
  const handler = useRef(handle);
  handler.current = handle;
  useEffect(() => {
    if (!fetcher.data || fetcher.data === seen.current) return;
    seen.current = fetcher.data;
    handler.current(fetcher.data);
  }, [fetcher.data]);
}

/** A bulk change on its way, as its form data says it. */
export type PendingBulk = {
  intent: string;
  ids: Set<number>;
  vertical?: number;
  horizontal?: number;
  videoStatus?: string;
  photoStatus?: string;
};

export function pendingBulk(formData: FormData | undefined): PendingBulk | null {
  const intent = formData?.get("intent");
  if (!formData || typeof intent !== "string" || !intent.startsWith("bulk-")) return null;
  const number = (name: string) => {
    const value = String(formData.get(name) ?? "");
    return /^\d+$/.test(value) ? Number(value) : undefined;
  };
  const status = (name: string) => {
    const value = String(formData.get(name) ?? "");
    return (SALES_STATUSES as readonly string[]).includes(value) ? value : undefined;
  };
  return {
    intent,
    ids: new Set(formData.getAll("ids").map(Number)),
    vertical: number("verticalVideoPrice"),
    horizontal: number("horizontalVideoPrice"),
    videoStatus: status("videoStatus"),
    photoStatus: status("photoStatus"),
  };
}

/** The values a row shows while a bulk change of it is on its way (optimistic). */
export function withBulk(athlete: AthleteRow, bulk: PendingBulk | null): AthleteRow {
  if (!bulk || bulk.intent !== "bulk-update" || !bulk.ids.has(athlete.id)) return athlete;
  return {
    ...athlete,
    verticalVideoPrice: bulk.vertical ?? athlete.verticalVideoPrice,
    horizontalVideoPrice: bulk.horizontal ?? athlete.horizontalVideoPrice,
    videoStatus: bulk.videoStatus ?? athlete.videoStatus,
    photoStatus: bulk.photoStatus ?? athlete.photoStatus,
  };
}
