import { and, asc, count, eq, gt, inArray, isNotNull, isNull, or } from "drizzle-orm";
import {
  matchDeliveryFile,
  matchKey,
  type DeliveryContest,
  type FileMatch,
} from "~/server/delivery/file-names.server";
import type { MatchAthlete } from "~/server/delivery/file-names/athlete-names.server";
import { ORDER_TABS } from "~/lib/rules/order-tabs";
import { ORIENTATION_LABELS, type Orientation } from "~/lib/rules/pricing";
import { db, type Tx } from "../db/client.server";
import { athletes, contests, deliveryFiles, orderLines, orders } from "../db/schema";
import { pricedFormats } from "../catalog/pricing.server";

type Reader = Pick<Tx, "select" | "selectDistinct">;

export type PlanAthlete = MatchAthlete & { category: string };

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

export type MissingFile = {
  athleteId: number | null;
  athleteNumber: number;
  athleteName: string;
  orientation: Orientation;
  style: string;
  orderNumbers: string[];
};

export type OpenOrder = { id: number; orderNumber: string; customerName: string; lineCount: number };

export type DeliveryPlan = {
  contestId: number;
  numberLabel: string;
  styles: { name: string; orientation: Orientation }[];
  athletes: Map<number, PlanAthlete>;
  waiting: WaitingFile[];
  delivered: DeliveredFile[];
  missing: MissingFile[];
  /** Open orders whose every line has a file now: 一括納品 delivers exactly these. */
  ready: OpenOrder[];
  /** Open orders still missing a file for at least one line. */
  incomplete: OpenOrder[];
  /** Open orders with a line marked お断り: left to the admin in the order list. */
  declined: OpenOrder[];
  /** The file each athlete and style would be delivered with (matchKey → file id). */
  fileForKey: Map<string, number>;
  /** Waiting files that 一括納品 puts to use: they complete an order or replace a delivered file. */
  toUse: WaitingFile[];
  /** Delivered orders whose file was replaced after their delivery mail: the admin may mail them again. */
  changedSinceMail: { id: number; orderNumber: string; customerName: string }[];
};

const DUPLICATE_REASON = "同じ選手・スタイルのファイルが複数あります。使わない方を削除してください。";

/**
 * The matching screen's whole picture of a contest, computed from the database and the file
 * names each time (a renumbered athlete re-matches): which waiting file goes to which athlete
 * and style, which is ambiguous or unmatched, which order lines still lack a file, and which
 * open orders are complete. 一括納品 runs the same computation inside its transaction, so
 * what it delivers is what this describes.
 */
export function deliveryPlan(contestId: number, reader: Reader = db()): DeliveryPlan | null {
  const contest = reader
    .select({ id: contests.id, bibNumberLabel: contests.bibNumberLabel })
    .from(contests)
    .where(eq(contests.id, contestId))
    .get();
  if (!contest) return null;
  const styles = pricedFormats(contestId, reader).map(({ name, orientation }) => ({ name, orientation }));
  const styleName = (orientation: Orientation) =>
    styles.find((style) => style.orientation === orientation)?.name ?? ORIENTATION_LABELS[orientation];

  const pending = [...ORDER_TABS.pending];
  const openLines = reader
    .select({
      id: orderLines.id,
      orderId: orderLines.orderId,
      athleteId: orderLines.athleteId,
      athleteNumber: orderLines.athleteNumber,
      athleteName: orderLines.athleteName,
      orientation: orderLines.orientation,
      style: orderLines.style,
      orderNumber: orders.orderNumber,
      customerName: orders.customerName,
      declined: orderLines.refused,
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(
      and(eq(orders.contestId, contestId), eq(orders.paymentStatus, "paid"), inArray(orders.status, pending)),
    )
    .orderBy(asc(orders.createdAt), asc(orderLines.id))
    .all();

  // The contest's athletes, and deleted ones that still have order lines waiting.
  const openAthleteIds = [...new Set(openLines.flatMap((line) => (line.athleteId ? [line.athleteId] : [])))];
  const athleteRows = reader
    .select({
      id: athletes.id,
      athleteNumber: athletes.athleteNumber,
      name: athletes.name,
      category: athletes.category,
    })
    .from(athletes)
    .where(
      and(
        eq(athletes.contestId, contestId),
        or(
          eq(athletes.isDeleted, false),
          openAthleteIds.length ? inArray(athletes.id, openAthleteIds) : undefined,
        ),
      ),
    )
    .orderBy(asc(athletes.athleteNumber))
    .all();
  const athleteMap = new Map(athleteRows.map((athlete) => [athlete.id, athlete]));
  const matchContest: DeliveryContest = {
    styles,
    numberLabel: contest.bibNumberLabel,
    athletes: athleteRows,
  };

  const pool = reader
    .select()
    .from(deliveryFiles)
    .where(and(eq(deliveryFiles.contestId, contestId), isNull(deliveryFiles.retiredAt)))
    .orderBy(asc(deliveryFiles.uploadedAt), asc(deliveryFiles.id))
    .all();
  const served = new Map(
    pool.length
      ? reader
          .select({ fileId: orderLines.deliveryFileId, n: count() })
          .from(orderLines)
          .where(
            and(
              isNotNull(orderLines.deliveryFileId),
              inArray(
                orderLines.deliveryFileId,
                pool.map((file) => file.id),
              ),
            ),
          )
          .groupBy(orderLines.deliveryFileId)
          .all()
          .map((row) => [row.fileId, row.n])
      : [],
  );

  const delivered: DeliveredFile[] = [];
  const deliveredForKey = new Map<string, DeliveredFile>();
  const waitingRows: { file: (typeof pool)[number]; match: FileMatch; byHand: boolean }[] = [];
  for (const file of pool) {
    const lineCount = served.get(file.id) ?? 0;
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
        : matchDeliveryFile(file.originalName, matchContest);
    waitingRows.push({ file, match, byHand });
  }

  // Two waiting files for one athlete and style: neither is used until the admin removes one.
  const waitingPerKey = new Map<string, number>();
  for (const { match } of waitingRows)
    if (match.kind === "matched") {
      const key = matchKey(match.athleteId, match.orientation);
      waitingPerKey.set(key, (waitingPerKey.get(key) ?? 0) + 1);
    }
  const duplicateKeys = new Set([...waitingPerKey].filter(([, n]) => n > 1).map(([key]) => key));

  const orderNumbersForKey = new Map<string, string[]>();
  for (const line of openLines) {
    if (!line.athleteId) continue;
    const key = matchKey(line.athleteId, line.orientation);
    const numbers = orderNumbersForKey.get(key) ?? [];
    if (!numbers.includes(line.orderNumber)) numbers.push(line.orderNumber);
    orderNumbersForKey.set(key, numbers);
  }
  const deliveredOrderNumbers = deliveredOrdersOf(reader, delivered);

  const fileForKey = new Map<string, number>();
  for (const [key, file] of deliveredForKey) fileForKey.set(key, file.id);
  const waiting: WaitingFile[] = waitingRows.map(({ file, match, byHand }) => {
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
    const old = deliveredForKey.get(key);
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

  const missingByKey = new Map<string, MissingFile>();
  const openOrders = new Map<number, OpenOrder & { complete: boolean; declined: boolean }>();
  for (const line of openLines) {
    const order = openOrders.get(line.orderId) ?? {
      id: line.orderId,
      orderNumber: line.orderNumber,
      customerName: line.customerName,
      lineCount: 0,
      complete: true,
      declined: false,
    };
    order.lineCount++;
    // An order with a line marked お断り is the admin's to settle, never delivered in a batch.
    if (line.declined) order.declined = true;
    openOrders.set(line.orderId, order);
    const key = line.athleteId ? matchKey(line.athleteId, line.orientation) : `gone:${line.id}`;
    if (line.athleteId && fileForKey.has(key)) continue;
    order.complete = false;
    const missing = missingByKey.get(key) ?? {
      athleteId: line.athleteId,
      athleteNumber: line.athleteNumber,
      athleteName: line.athleteName,
      orientation: line.orientation,
      style: line.style || styleName(line.orientation),
      orderNumbers: [],
    };
    if (!missing.orderNumbers.includes(line.orderNumber)) missing.orderNumbers.push(line.orderNumber);
    missingByKey.set(key, missing);
  }
  const orderList = [...openOrders.values()];
  const summary = ({ complete: _, declined: __, ...order }: (typeof orderList)[number]): OpenOrder => order;

  return {
    contestId,
    numberLabel: contest.bibNumberLabel,
    styles,
    athletes: athleteMap,
    waiting,
    delivered,
    missing: [...missingByKey.values()].sort(
      (a, b) => a.athleteNumber - b.athleteNumber || a.orientation.localeCompare(b.orientation),
    ),
    ready: orderList.filter((order) => order.complete && !order.declined).map(summary),
    incomplete: orderList.filter((order) => !order.complete && !order.declined).map(summary),
    declined: orderList.filter((order) => order.declined).map(summary),
    fileForKey,
    toUse: waiting.filter(
      (file) => file.match.kind === "matched" && (file.orderNumbers.length > 0 || file.replaces !== null),
    ),
    changedSinceMail: reader
      .select({ id: orders.id, orderNumber: orders.orderNumber, customerName: orders.customerName })
      .from(orders)
      .where(
        and(
          eq(orders.contestId, contestId),
          isNotNull(orders.deliveryChangedAt),
          or(isNull(orders.deliveryMailSentAt), gt(orders.deliveryChangedAt, orders.deliveryMailSentAt)),
        ),
      )
      .orderBy(asc(orders.orderNumber))
      .all(),
  };
}

/** The order numbers each delivered file serves, for the "replaces" column. */
function deliveredOrdersOf(reader: Reader, files: DeliveredFile[]): Map<number, string[]> {
  const result = new Map<number, string[]>();
  if (files.length === 0) return result;
  const rows = reader
    .selectDistinct({ fileId: orderLines.deliveryFileId, orderNumber: orders.orderNumber })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(
      inArray(
        orderLines.deliveryFileId,
        files.map((file) => file.id),
      ),
    )
    .orderBy(asc(orders.orderNumber))
    .all();
  for (const row of rows) {
    if (row.fileId === null) continue;
    result.set(row.fileId, [...(result.get(row.fileId) ?? []), row.orderNumber]);
  }
  return result;
}

type AthleteLabel = { athleteNumber: number; name: string };

/** One file as the matching screen shows it. */
export type ScreenFile = {
  id: number;
  originalName: string;
  size: number;
  byHand: boolean;
  athlete: AthleteLabel | null;
  orientation: Orientation | null;
  style: string | null;
  reason: string | null;
  candidates: (AthleteLabel & { orientation: Orientation | null; style: string | null })[];
  orderNumbers: string[];
  replaces: WaitingFile["replaces"];
};

/**
 * The matching screen's data, ready to render: waiting files sorted into matched, ambiguous
 * and unmatched, with athletes and styles spelled out in the contest's own words.
 */
export function deliveryScreen(contestId: number) {
  const plan = deliveryPlan(contestId);
  if (!plan) return null;
  const styleOf = (orientation: Orientation | null) =>
    orientation
      ? (plan.styles.find((style) => style.orientation === orientation)?.name ??
        ORIENTATION_LABELS[orientation])
      : null;
  const label = (athleteId: number | null): AthleteLabel | null => {
    const athlete = athleteId === null ? undefined : plan.athletes.get(athleteId);
    return athlete ? { athleteNumber: athlete.athleteNumber, name: athlete.name } : null;
  };
  const view = (file: WaitingFile): ScreenFile => ({
    id: file.id,
    originalName: file.originalName,
    size: file.size,
    byHand: file.byHand,
    athlete: file.match.kind === "matched" ? label(file.match.athleteId) : null,
    orientation: file.match.kind === "matched" ? file.match.orientation : null,
    style: file.match.kind === "matched" ? styleOf(file.match.orientation) : null,
    reason: file.match.kind === "matched" ? null : file.match.reason,
    candidates:
      file.match.kind === "ambiguous"
        ? file.match.candidates.flatMap((candidate) => {
            const athlete = label(candidate.athleteId);
            return athlete
              ? [{ ...athlete, orientation: candidate.orientation, style: styleOf(candidate.orientation) }]
              : [];
          })
        : [],
    orderNumbers: file.orderNumbers,
    replaces: file.replaces,
  });
  const byNumber = (a: ScreenFile, b: ScreenFile) =>
    (a.athlete?.athleteNumber ?? Infinity) - (b.athlete?.athleteNumber ?? Infinity) ||
    a.originalName.localeCompare(b.originalName, "ja");
  return {
    numberLabel: plan.numberLabel,
    styles: plan.styles,
    matched: plan.waiting
      .filter((file) => file.match.kind === "matched")
      .map(view)
      .sort(byNumber),
    ambiguous: plan.waiting.filter((file) => file.match.kind === "ambiguous").map(view),
    unmatched: plan.waiting.filter((file) => file.match.kind === "unmatched").map(view),
    delivered: plan.delivered
      .map((file) => ({
        id: file.id,
        originalName: file.originalName,
        size: file.size,
        athlete: label(file.athleteId),
        style: styleOf(file.orientation),
        lineCount: file.lineCount,
      }))
      .sort((a, b) => (a.athlete?.athleteNumber ?? Infinity) - (b.athlete?.athleteNumber ?? Infinity)),
    missing: plan.missing,
    ready: plan.ready,
    incomplete: plan.incomplete,
    declined: plan.declined,
    replacing: plan.toUse.filter((file) => file.replaces !== null).length,
    changedSinceMail: plan.changedSinceMail,
  };
}
export type DeliveryScreen = NonNullable<ReturnType<typeof deliveryScreen>>;
