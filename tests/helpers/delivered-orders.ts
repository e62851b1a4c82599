import crypto from "node:crypto";
import type { VideoProbe } from "~/lib/rules/video-versions";
import { db } from "~/server/db/client.server";
import { orderLines, orders } from "~/server/db/schema";
import { deliverOrder } from "~/server/delivery/order-delivery.server";
import { fileStore } from "~/server/files/store.server";

/** What ffprobe says of a phone's standing-up video: 1080×1920 H.264 with AAC, a minute long. */
export const PORTRAIT_PROBE: VideoProbe = {
  container: "mov,mp4,m4a,3gp,3g2,mj2",
  videoCodec: "h264",
  audioCodec: "aac",
  durationMs: 60_000,
  width: 1080,
  height: 1920,
  bitrate: 8_000_000,
  rotation: 0,
};

/** A file of `size` random bytes in the shop's store, under a fresh name. */
export async function storedFile(prefix: string, extension: string, size: number, type: string) {
  const name = `${prefix}-${crypto.randomBytes(12).toString("hex")}.${extension}`;
  await (await fileStore()).putBytes(name, crypto.randomBytes(size), type, "private");
  return name;
}

/**
 * A paid order of one 縦 video at 3,000円 for each athlete named, delivered with a file of the
 * shop for each (4,000 bytes, a portrait video as ffprobe reads it): its download page is open.
 */
export async function deliveredVideoOrder(contestName: string, athleteNames: string[], customer: string) {
  const orderNumber = String(50_000_000 + Math.floor(Math.random() * 9_000_000));
  const order = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: crypto.randomUUID(),
      paymentIntentId: crypto.randomUUID(),
      contestName,
      customerEmail: `${customer}-${orderNumber}@example.jp`,
      customerName: "保存 花子",
      totalAmount: 3000 * athleteNames.length,
      lineCount: athleteNames.length,
    })
    .returning()
    .get();
  const lines = athleteNames.map((athleteName, index) =>
    db()
      .insert(orderLines)
      .values({
        orderId: order.id,
        lineNumber: `${orderNumber}-${index + 1}`,
        contestName,
        category: "キッズ部門",
        athleteNumber: index + 1,
        athleteName,
        style: "縦",
        orientation: "vertical",
        price: 3000,
      })
      .returning()
      .get(),
  );
  const files = new Map();
  for (const line of lines)
    files.set(line.id, {
      storedName: await storedFile("delivery", "mp4", 4_000, "video/mp4"),
      originalName: `${line.athleteNumber}_縦.mp4`,
      contentType: "video/mp4",
      size: 4_000,
      video: PORTRAIT_PROBE,
    });
  const result = await deliverOrder(order.id, new Map(), files);
  if (!result.ok) throw new Error(result.message);
  return { order, lines, pageId: result.pageId };
}
