/**
 * The open orders in the plan: which have a file for every line that gets a video (一括納品
 * delivers those, the お断り and refunded lines without one), which still wait for a file, which
 * have no video to send at all (every line お断り or refunded: closed only when the admin ticks
 * them), and the lines still missing a file.
 */
import type { Orientation } from "~/lib/rules/pricing";
import { matchKey } from "../file-names.server";
import type { WithoutVideo } from "~/lib/rules/lines-without-video";
import type { OpenLine } from "./reads.server";

export type MissingFile = {
  athleteId: number | null;
  athleteNumber: number;
  athleteName: string;
  orientation: Orientation;
  style: string;
  orderNumbers: string[];
};

/** A line of an open order that gets no video, as the plan names it. */
export type LineWithoutVideo = {
  lineId: number;
  lineNumber: string;
  athleteNumber: number;
  athleteName: string;
  style: string;
  reason: WithoutVideo;
};

export type OpenOrder = {
  id: number;
  orderNumber: string;
  customerName: string;
  lineCount: number;
  /** The videos it is delivered with: its lines less those below. */
  videoCount: number;
  /** Its lines marked お断り or refunded: handled with the order, without a video. */
  withoutVideo: LineWithoutVideo[];
};

/**
 * Each open order, complete when every line that gets a video has a file in `fileForKey` for
 * its athlete and style. A line that gets no video is neither waited for nor missing.
 */
export function sortOpenOrders(
  openLines: OpenLine[],
  fileForKey: Map<string, number>,
  styleName: (orientation: Orientation) => string,
) {
  const missingByKey = new Map<string, MissingFile>();
  const openOrders = new Map<number, OpenOrder & { complete: boolean }>();
  for (const line of openLines) {
    const order = openOrders.get(line.orderId) ?? {
      id: line.orderId,
      orderNumber: line.orderNumber,
      customerName: line.customerName,
      lineCount: 0,
      videoCount: 0,
      withoutVideo: [],
      complete: true,
    };
    order.lineCount++;
    openOrders.set(line.orderId, order);
    const style = line.style || styleName(line.orientation);
    if (line.withoutVideo) {
      order.withoutVideo.push({
        lineId: line.id,
        lineNumber: line.lineNumber,
        athleteNumber: line.athleteNumber,
        athleteName: line.athleteName,
        style,
        reason: line.withoutVideo,
      });
      continue;
    }
    order.videoCount++;
    const key = line.athleteId ? matchKey(line.athleteId, line.orientation) : `gone:${line.id}`;
    if (line.athleteId && fileForKey.has(key)) continue;
    order.complete = false;
    const missing = missingByKey.get(key) ?? {
      athleteId: line.athleteId,
      athleteNumber: line.athleteNumber,
      athleteName: line.athleteName,
      orientation: line.orientation,
      style,
      orderNumbers: [],
    };
    if (!missing.orderNumbers.includes(line.orderNumber)) missing.orderNumbers.push(line.orderNumber);
    missingByKey.set(key, missing);
  }
  const orderList = [...openOrders.values()];
  const summary = ({ complete: _, ...order }: (typeof orderList)[number]): OpenOrder => order;
  const withVideos = orderList.filter((order) => order.videoCount > 0);
  return {
    missing: [...missingByKey.values()].sort(
      (a, b) => a.athleteNumber - b.athleteNumber || a.orientation.localeCompare(b.orientation),
    ),
    ready: withVideos.filter((order) => order.complete).map(summary),
    incomplete: withVideos.filter((order) => !order.complete).map(summary),
    nothingToDeliver: orderList.filter((order) => order.videoCount === 0).map(summary),
  };
}
