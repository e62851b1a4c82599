/**
 * The open orders in the plan: which have a file for every line (一括納品 delivers those), which
 * still wait for one, which have a line marked お断り, and the lines still missing a file.
 */
import type { Orientation } from "~/lib/rules/pricing";
import { matchKey } from "../file-names.server";
import type { OpenLine } from "./reads.server";

export type MissingFile = {
  athleteId: number | null;
  athleteNumber: number;
  athleteName: string;
  orientation: Orientation;
  style: string;
  orderNumbers: string[];
};

export type OpenOrder = { id: number; orderNumber: string; customerName: string; lineCount: number };

/** Each open order, complete when every line's athlete and style has a file in `fileForKey`. */
export function sortOpenOrders(
  openLines: OpenLine[],
  fileForKey: Map<string, number>,
  styleName: (orientation: Orientation) => string,
) {
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
    missing: [...missingByKey.values()].sort(
      (a, b) => a.athleteNumber - b.athleteNumber || a.orientation.localeCompare(b.orientation),
    ),
    ready: orderList.filter((order) => order.complete && !order.declined).map(summary),
    incomplete: orderList.filter((order) => !order.complete && !order.declined).map(summary),
    declined: orderList.filter((order) => order.declined).map(summary),
  };
}
