import { db } from "../db/client.server";
import type { MatchAthlete } from "./file-names/athlete-names.server";
import type { DeliveryStyle } from "./file-names/styles.server";
import { placeWaitingFiles, sortPool, type DeliveredFile, type WaitingFile } from "./plan/files.server";
import { sortOpenOrders, type MissingFile, type OpenOrder } from "./plan/open-orders.server";
import {
  changedSinceMailOf,
  deliveredOrdersOf,
  openLinesOf,
  planAthletes,
  planContest,
  poolOf,
  type Reader,
} from "./plan/reads.server";

export type PlanAthlete = MatchAthlete & { category: string };

export type DeliveryPlan = {
  contestId: number;
  numberLabel: string;
  styles: DeliveryStyle[];
  athletes: Map<number, PlanAthlete>;
  waiting: WaitingFile[];
  delivered: DeliveredFile[];
  missing: MissingFile[];
  /**
   * Open orders whose every line that gets a video has a file now: 一括納品 delivers exactly these,
   * their お断り and refunded lines (`withoutVideo`) without one.
   */
  ready: OpenOrder[];
  /** Open orders still missing a file for at least one line that gets a video. */
  incomplete: OpenOrder[];
  /**
   * Open orders with no video to send (every line お断り or refunded): 一括納品 closes one as
   * 対応済み, with no mail, only when the admin ticks it.
   */
  nothingToDeliver: OpenOrder[];
  /** The file each athlete and style would be delivered with (matchKey → file id). */
  fileForKey: Map<string, number>;
  /** Waiting files that 一括納品 puts to use: they complete an order or replace a delivered file. */
  toUse: WaitingFile[];
  /** Delivered orders whose file was replaced after their delivery mail: the admin may mail them again. */
  changedSinceMail: { id: number; orderNumber: string; customerName: string }[];
};

/**
 * The 納品ファイル tab's whole picture of a contest, computed from the database and the file
 * names each time (a renumbered athlete re-matches): which waiting file goes to which athlete
 * and style, which is ambiguous or unmatched, which order lines still lack a file, and which
 * open orders are complete. 一括納品 runs the same computation inside its transaction, so
 * what it delivers is what this describes. The steps are in plan/: the reads, the files, the orders.
 */
export function deliveryPlan(contestId: number, reader: Reader = db()): DeliveryPlan | null {
  const contest = planContest(reader, contestId);
  if (!contest) return null;
  const openLines = openLinesOf(reader, contestId);
  const athletes = planAthletes(reader, contestId, openLines);

  // 1. The pool: delivered files apart from waiting ones, each waiting file matched.
  const pool = sortPool(poolOf(reader, contestId), {
    styles: contest.styles,
    numberLabel: contest.numberLabel,
    athletes,
  });
  // 2. Where each waiting file goes, and the file each athlete and style would be delivered with.
  const { waiting, fileForKey } = placeWaitingFiles(
    pool,
    openLines,
    deliveredOrdersOf(
      reader,
      pool.delivered.map((file) => file.id),
    ),
  );
  // 3. Which open orders that completes.
  const orders = sortOpenOrders(openLines, fileForKey, contest.styleName);

  return {
    contestId,
    numberLabel: contest.numberLabel,
    styles: contest.styles,
    athletes: new Map(athletes.map((athlete) => [athlete.id, athlete])),
    waiting,
    delivered: pool.delivered,
    ...orders,
    fileForKey,
    toUse: waiting.filter(
      (file) => file.match.kind === "matched" && (file.orderNumbers.length > 0 || file.replaces !== null),
    ),
    changedSinceMail: changedSinceMailOf(reader, contestId),
  };
}
