/**
 * The pool's files in the plan: delivered ones (serving order lines) and waiting ones, each
 * waiting file matched by its name or the admin's hand match, and the file each athlete and
 * style would be delivered with.
 */
import type { Orientation } from "~/lib/rules/pricing";
import { matchDeliveryFile, matchKey, type DeliveryContest, type FileMatch } from "../file-names.server";
import type { OpenLine, PoolEntry } from "./reads.server";

/** A file waiting for 一括納品 (it serves no order line yet), with what its name or the admin matched. */
export type WaitingFile = {
  id: number;
  originalName: string;
  size: number;
  byHand: boolean;
  match: FileMatch;
  /** Open orders it would complete or help complete (their lines of this athlete and style). */
  orderNumbers: string[];
  /** The delivered file of the same athlete and style it would replace, with the orders that have it. */
  replaces: { fileId: number; originalName: string; orderNumbers: string[] } | null;
};

/** A file already serving order lines: the current video of its athlete and style. */
export type DeliveredFile = {
  id: number;
  originalName: string;
  size: number;
  athleteId: number | null;
  orientation: Orientation | null;
  lineCount: number;
};

type WaitingRow = { file: PoolEntry["file"]; match: FileMatch; byHand: boolean };

const DUPLICATE_REASON = "同じ選手・スタイルのファイルが複数あります。使わない方を削除してください。";

/**
 * Delivered files (by the athlete and style they serve) apart from waiting ones; a waiting file
 * is matched by the admin's hand match when there is one, else by its name, afresh each time
 * (a renumbered athlete re-matches).
 */
export function sortPool(pool: PoolEntry[], contest: DeliveryContest) {
  const delivered: DeliveredFile[] = [];
  const deliveredForKey = new Map<string, DeliveredFile>();
  const waiting: WaitingRow[] = [];
  for (const { file, lineCount } of pool) {
    if (lineCount > 0) {
      const entry: DeliveredFile = {
        id: file.id,
        originalName: file.originalName,
        size: file.size,
        athleteId: file.athleteId,
        orientation: file.orientation,
        lineCount,
      };
      delivered.push(entry);
      if (file.athleteId && file.orientation)
        deliveredForKey.set(matchKey(file.athleteId, file.orientation), entry);
      continue;
    }
    const byHand = file.athleteId !== null && file.orientation !== null;
    const match: FileMatch =
      file.athleteId !== null && file.orientation !== null
        ? { kind: "matched", athleteId: file.athleteId, orientation: file.orientation }
        : matchDeliveryFile(file.originalName, contest);
    waiting.push({ file, match, byHand });
  }
  return { delivered, deliveredForKey, waiting };
}

/** Two waiting files for one athlete and style: neither is used until the admin removes one. */
function duplicateKeysOf(waiting: WaitingRow[]): Set<string> {
  const waitingPerKey = new Map<string, number>();
  for (const { match } of waiting)
    if (match.kind === "matched") {
      const key = matchKey(match.athleteId, match.orientation);
      waitingPerKey.set(key, (waitingPerKey.get(key) ?? 0) + 1);
    }
  return new Set([...waitingPerKey].filter(([, n]) => n > 1).map(([key]) => key));
}

/** The open orders with a line of each athlete and style that gets a video (お断り and refunded lines get none). */
function orderNumbersByKey(openLines: OpenLine[]): Map<string, string[]> {
  const orderNumbersForKey = new Map<string, string[]>();
  for (const line of openLines) {
    if (!line.athleteId || line.withoutVideo) continue;
    const key = matchKey(line.athleteId, line.orientation);
    const numbers = orderNumbersForKey.get(key) ?? [];
    if (!numbers.includes(line.orderNumber)) numbers.push(line.orderNumber);
    orderNumbersForKey.set(key, numbers);
  }
  return orderNumbersForKey;
}

/**
 * Each waiting file's place: ambiguous when another waiting file has its athlete and style, else
 * the orders it serves and the delivered file it replaces. `fileForKey` is the file each athlete
 * and style would be delivered with: a waiting file wins over the delivered one of its key.
 */
export function placeWaitingFiles(
  sorted: ReturnType<typeof sortPool>,
  openLines: OpenLine[],
  deliveredOrderNumbers: Map<number, string[]>,
): { waiting: WaitingFile[]; fileForKey: Map<string, number> } {
  const duplicateKeys = duplicateKeysOf(sorted.waiting);
  const orderNumbersForKey = orderNumbersByKey(openLines);
  const fileForKey = new Map<string, number>();
  for (const [key, file] of sorted.deliveredForKey) fileForKey.set(key, file.id);
  const waiting: WaitingFile[] = sorted.waiting.map(({ file, match, byHand }) => {
    const base = {
      id: file.id,
      originalName: file.originalName,
      size: file.size,
      byHand,
      orderNumbers: [],
      replaces: null,
    };
    if (match.kind !== "matched") return { ...base, match };
    const key = matchKey(match.athleteId, match.orientation);
    if (duplicateKeys.has(key))
      return {
        ...base,
        // No candidate to offer: choosing the same athlete and style by hand would not settle it.
        match: { kind: "ambiguous", reason: DUPLICATE_REASON, candidates: [] },
      };
    // A waiting file wins over the delivered one of its key: it is the newer, corrected video.
    fileForKey.set(key, file.id);
    const old = sorted.deliveredForKey.get(key);
    return {
      ...base,
      match,
      orderNumbers: orderNumbersForKey.get(key) ?? [],
      replaces: old
        ? {
            fileId: old.id,
            originalName: old.originalName,
            orderNumbers: deliveredOrderNumbers.get(old.id) ?? [],
          }
        : null,
    };
  });
  return { waiting, fileForKey };
}
