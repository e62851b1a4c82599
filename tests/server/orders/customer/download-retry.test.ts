// The safety net of "each video once": a download the shop saw cut short, and never finish, in its
// 24 hours is offered once more (recorded, mailed to the order's address with the saving steps).
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { mailOutbox, orderLines } from "~/server/db/schema";
import { orderPage } from "~/server/orders/admin/order-page.server";
import {
  offerDownloadRetries,
  recordDownloadEnd,
  watchDownload,
} from "~/server/orders/customer/download-retry.server";
import { claimDownload, downloadPage } from "~/server/orders/customer/downloads.server";
import { deliveredVideoOrder } from "../../../helpers/delivered-orders";

const HOUR = 3_600_000;
const START = new Date("2026-07-01T10:00:00+09:00").getTime();

/** A paid one-video order delivered with a file of the shop, its page open for 30 days from START. */
async function deliveredVideo() {
  setClock(() => START);
  const { order, lines, pageId } = await deliveredVideoOrder("夏の発表会", ["保存 さくら"], "retry");
  return { pageId, lineId: lines[0]!.id, order, email: order.customerEmail };
}

const at = (hours: number) => {
  const time = START + hours * HOUR;
  setClock(() => time);
  return new Date(time);
};

const lineOf = (lineId: number) => db().select().from(orderLines).where(eq(orderLines.id, lineId)).get()!;
const retryMails = (lineId: number) =>
  db()
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.dedupeKey, `download-retry:${lineId}`))
    .all();
const startDownload = (video: { pageId: string; lineId: number }) => {
  const decision = claimDownload(video.pageId, video.lineId, "vertical");
  expect(decision.ok).toBe(true);
};

describe("a download cut short is offered once more", () => {
  it("a download that reached its last byte is not offered again after its 24 hours", async () => {
    const video = await deliveredVideo();
    at(1);
    startDownload(video);
    recordDownloadEnd(video.lineId, "cut");
    at(2);
    recordDownloadEnd(video.lineId, "finished"); // resumed within its window, to the end
    at(26);
    expect(offerDownloadRetries()).toBe(0);
    expect(lineOf(video.lineId).downloadRetryAt).toBeNull();
    expect(downloadPage(video.pageId)!.lines[0]!.downloaded).toBe(true);
    expect(retryMails(video.lineId)).toHaveLength(0);
  });

  it("an unfinished download is offered once more only after its window, exactly once, and shown to the admin", async () => {
    const video = await deliveredVideo();
    at(1);
    startDownload(video);
    at(1.5);
    recordDownloadEnd(video.lineId, "cut");
    // Within its 24 hours it may still be resumed: nothing to offer yet.
    at(24.9);
    expect(offerDownloadRetries()).toBe(0);
    const offeredAt = at(25.1);
    expect(offerDownloadRetries()).toBe(1);
    expect(offerDownloadRetries()).toBe(0);
    expect(lineOf(video.lineId)).toMatchObject({ downloadStartedAt: null, downloadRetryAt: offeredAt });
    const pageLine = downloadPage(video.pageId)!.lines[0]!;
    expect(pageLine).toMatchObject({ downloaded: false, offeredAgain: true });
    expect(orderPage(video.order).lines[0]!.downloadRetryAt).toEqual(offeredAt);

    // The second window is the last: cut short again, it is not offered a third time.
    at(30);
    startDownload(video);
    recordDownloadEnd(video.lineId, "cut");
    at(60);
    expect(offerDownloadRetries()).toBe(0);
    expect(downloadPage(video.pageId)!.lines[0]).toMatchObject({ downloaded: true, offeredAgain: false });
    expect(claimDownload(video.pageId, video.lineId, "vertical")).toMatchObject({
      ok: false,
      reason: "downloaded",
    });
  });

  it("the mail of a download offered again goes once, to the order's own address, with the saving steps", async () => {
    const video = await deliveredVideo();
    at(1);
    startDownload(video);
    recordDownloadEnd(video.lineId, "cut");
    at(26);
    // The page's own visit and the server's pass both offer it: one offer, one mail.
    expect(offerDownloadRetries({ pageId: video.pageId })).toBe(1);
    expect(offerDownloadRetries()).toBe(0);
    const mails = retryMails(video.lineId);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(video.email);
    expect(mails[0]!.subject).toContain("もう一度ダウンロードできるようにしました");
    expect(mails[0]!.text).toContain(`/download/${video.pageId}`);
    expect(mails[0]!.text).toContain("保存 さくら");
    expect(mails[0]!.text).toContain("「ビデオを保存」をタップ");
    expect(mails[0]!.text).toContain("ギャラリー");
  });

  it("a download page that ended first, or a video never cut short, offers nothing", async () => {
    const ended = await deliveredVideo();
    at(1);
    startDownload(ended);
    recordDownloadEnd(ended.lineId, "cut");
    at(31 * 24);
    expect(offerDownloadRetries({ pageId: ended.pageId })).toBe(0);

    const played = await deliveredVideo();
    at(1);
    startDownload(played); // started (the player, a download the shop never saw end)
    at(26);
    expect(offerDownloadRetries({ pageId: played.pageId })).toBe(0);
    expect(retryMails(ended.lineId)).toHaveLength(0);
    expect(retryMails(played.lineId)).toHaveLength(0);
  });

  it("an answer handed whole to its last byte is a finished download; a cut connection or a middle part is not", async () => {
    const video = await deliveredVideo();
    at(1);
    startDownload(video);
    const answer = (status: number, range?: string) =>
      new Response("bytes", { status, headers: range ? { "Content-Range": range } : {} });
    const settle = async (response: Response, sent: boolean) => {
      watchDownload(video.lineId, response, Promise.resolve(sent));
      await new Promise((resolve) => setTimeout(resolve, 0));
      return lineOf(video.lineId);
    };
    expect(await settle(answer(206, "bytes 0-999/4000"), true)).toMatchObject({
      downloadCutAt: null,
      downloadFinishedAt: null,
    });
    expect((await settle(answer(200), false)).downloadCutAt).not.toBeNull();
    expect((await settle(answer(206, "bytes 1000-3999/4000"), true)).downloadFinishedAt).not.toBeNull();
  });
});
