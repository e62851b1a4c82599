import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import {
  athletes,
  contests,
  deliveryFiles,
  downloadPages,
  orderLines,
  orders,
  refunds,
  videoFormats,
} from "~/server/db/schema";
import type { RefundStatus } from "~/lib/rules/refunds";
import { DELIVERY_MESSAGES } from "~/lib/schemas/delivery-schemas";
import { deliverOrder, resendDeliveryMail } from "~/server/delivery/order-delivery.server";
import { tabFilesOf } from "~/server/orders/admin/tab-files.server";
import { deliverContest } from "~/server/delivery/batch-delivery.server";
import {
  matchFileByHand,
  removeWaitingFile,
  storeDeliveryFile,
} from "~/server/delivery/delivery-files.server";
import { deleteUnneededDeliveryFiles, KEEP_AFTER_EXPIRY_MS } from "~/server/delivery/file-cleanup.server";
import { deliveryPlan } from "~/server/delivery/delivery-plan.server";
import { deliveryScreen } from "~/server/delivery/delivery-screen.server";
import { mediaDir } from "../../helpers/media-dir";
import { pendingMailCount } from "~/server/mail/outbox.server";
import { claimDownload, downloadPage, downloadRefusal } from "~/server/orders/customer/downloads.server";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";
import { videoBytes } from "../../helpers/test-videos";

const smtp = smtpServerForThisFile();
let serial = 0;

/** A contest selling 縦 and 横 with athletes 1..n (演奏順 as its number label). */
function contest(athleteCount: number, styles = ["縦", "横"]) {
  const row = db()
    .insert(contests)
    .values({ name: `一括納品テスト${++serial}`, slugKey: `batch${serial}`, bibNumberLabel: "演奏順" })
    .returning()
    .get();
  styles.forEach((name, displayOrder) =>
    db().insert(videoFormats).values({ contestId: row.id, name, displayOrder }).run(),
  );
  const list = Array.from({ length: athleteCount }, (_, index) =>
    db()
      .insert(athletes)
      .values({ contestId: row.id, athleteNumber: index + 1, name: `選手${index + 1}`, category: "A" })
      .returning()
      .get(),
  );
  return { ...row, athletes: list };
}

type Contest = ReturnType<typeof contest>;

/** A paid order of `email` for [athlete number, orientation] lines. */
function order(c: Contest, email: string, lines: [number, "vertical" | "horizontal"][]) {
  const orderNumber = String(30_000_000 + ++serial);
  const row = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `bc${serial}`,
      paymentIntentId: `bpi${serial}`,
      contestId: c.id,
      contestName: c.name,
      bibNumberLabel: c.bibNumberLabel,
      customerEmail: email,
      customerName: "家族",
      totalAmount: 3000 * lines.length,
      lineCount: lines.length,
    })
    .returning()
    .get();
  lines.forEach(([number, orientation], index) => {
    const athlete = c.athletes[number - 1]!;
    db()
      .insert(orderLines)
      .values({
        orderId: row.id,
        lineNumber: `${orderNumber}-${index + 1}`,
        contestName: c.name,
        category: "A",
        athleteId: athlete.id,
        athleteNumber: athlete.athleteNumber,
        athleteName: athlete.name,
        style: orientation === "vertical" ? "縦" : "横",
        orientation,
        price: 3000,
      })
      .run();
  });
  return row;
}

/** Stores a real video (each name its own bytes) under that name as a delivery file of the contest. */
async function upload(c: Contest, name: string) {
  const bytes = videoBytes(undefined, name);
  fs.mkdirSync(mediaDir(), { recursive: true });
  const file = path.join(mediaDir(), `incoming-${++serial}`);
  fs.writeFileSync(file, bytes);
  const stored = await storeDeliveryFile(c.id, file, name);
  if (!stored.ok) throw new Error(stored.message);
  return stored.file;
}

const linesOf = (orderId: number) =>
  db().select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(orderLines.id).all();

/** A refund of the order as the refund step writes it (lines at their price, or a typed amount with none). */
function refund(orderId: number, lineIds: number[], amount: number, status: RefundStatus = "succeeded") {
  db()
    .insert(refunds)
    .values({
      orderId,
      paymentIntentId: `rpi${++serial}`,
      lineIds,
      amount,
      reason: "撮影できませんでした",
      requestKey: `refund-${serial}`,
      status,
    })
    .run();
}

const statusOf = (orderId: number) => db().select().from(orders).where(eq(orders.id, orderId)).get()?.status;

async function mailsSettled() {
  for (let i = 0; i < 200 && pendingMailCount() > 0; i++) await new Promise((r) => setTimeout(r, 20));
}

describe("一括納品", () => {
  it("delivers every complete order with one mail each, leaves the incomplete one open, and a second run sends nothing", async () => {
    const c = contest(6);
    const families = ["a@example.jp", "b@example.jp", "c@example.jp", "d@example.jp"];
    const o1 = order(c, families[0]!, [[1, "vertical"]]);
    const o2 = order(c, families[0]!, [[2, "horizontal"]]);
    const o3 = order(c, families[1]!, [
      [1, "vertical"],
      [3, "vertical"],
    ]);
    const o4 = order(c, families[2]!, [[4, "horizontal"]]);
    const o5 = order(c, families[3]!, [[5, "vertical"]]);
    const o6 = order(c, families[3]!, [
      [3, "vertical"],
      [6, "vertical"],
    ]);
    for (const name of ["01_縦.mp4", "002-横.mov", "No3 縦.mp4", "演奏順4_yoko.mp4", "５_縦.mp4"])
      await upload(c, name);

    const screen = deliveryScreen(c.id)!;
    expect(screen.matched).toHaveLength(5);
    expect(screen.missing.map((line) => [line.athleteNumber, line.orientation, line.orderNumbers])).toEqual([
      [6, "vertical", [o6.orderNumber]],
    ]);
    expect(screen.ready.map((o) => o.id).sort()).toEqual([o1.id, o2.id, o3.id, o4.id, o5.id].sort());
    expect(screen.incomplete.map((o) => o.id)).toEqual([o6.id]);

    const before = smtp.received.length;
    const first = deliverContest(c.id)!;
    expect(first.delivered).toHaveLength(5);
    expect(first.mails).toBe(5);
    await mailsSettled();
    const mails = smtp.received.slice(before);
    expect(mails).toHaveLength(5);
    expect(mails.map((mail) => mail.to[0]).sort()).toEqual([...families, families[0]!].sort());
    for (const o of [o1, o2, o3, o4, o5]) expect(statusOf(o.id)).toBe("納品済み");
    expect(statusOf(o6.id)).toBe("未対応");

    // One file on disk serves both families' 演奏順 1 縦.
    const lineFiles = db()
      .select({ fileId: orderLines.deliveryFileId, athleteNumber: orderLines.athleteNumber })
      .from(orderLines)
      .where(eq(orderLines.athleteNumber, 1))
      .all()
      .filter((line) => line.fileId !== null);
    expect(new Set(lineFiles.map((line) => line.fileId)).size).toBe(1);

    const again = deliverContest(c.id)!;
    expect(again.delivered).toHaveLength(0);
    expect(again.mails).toBe(0);
    await mailsSettled();
    expect(smtp.received.length).toBe(before + 5);

    // The sixth file completes the last order: one more mail, to that family only.
    await upload(c, "6_縦.mp4");
    const last = deliverContest(c.id)!;
    expect(last.delivered.map((o) => o.id)).toEqual([o6.id]);
    await mailsSettled();
    expect(smtp.received.slice(before + 5).map((mail) => mail.to[0])).toEqual([families[3]]);
    expect(statusOf(o6.id)).toBe("納品済み");

    // The download page serves the shared file, with the once-per-video rule.
    const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, o6.id)).get()!;
    const line = db().select().from(orderLines).where(eq(orderLines.orderId, o6.id)).all()[0]!;
    const claimed = claimDownload(page.id, line.id, "vertical");
    expect(claimed).toMatchObject({ ok: true, kind: "file" });
  });

  it("two files for one athlete and style are ambiguous and deliver nothing until one is removed", async () => {
    const c = contest(2);
    const o = order(c, "dup@example.jp", [[1, "vertical"]]);
    const a = await upload(c, "1_縦.mp4");
    await upload(c, "001 縦.mp4");
    const plan = deliveryPlan(c.id)!;
    expect(plan.waiting.every((file) => file.match.kind === "ambiguous")).toBe(true);
    expect(plan.ready).toHaveLength(0);
    expect(deliverContest(c.id)!.delivered).toHaveLength(0);
    expect(await removeWaitingFile(c.id, a.id)).toEqual({ ok: true });
    expect(fs.existsSync(path.join(mediaDir(), a.storedName))).toBe(false);
    expect(deliverContest(c.id)!.delivered.map((d) => d.id)).toEqual([o.id]);
    await mailsSettled();
  });

  it("a file whose orders still miss another video stays matched by its name, not settled", async () => {
    const c = contest(2);
    const o = order(c, "half@example.jp", [
      [1, "vertical"],
      [2, "vertical"],
    ]);
    const file = await upload(c, "1_縦.mp4");
    expect(deliverContest(c.id)!.delivered).toHaveLength(0);
    expect(db().select().from(deliveryFiles).where(eq(deliveryFiles.id, file.id)).get()).toMatchObject({
      athleteId: null,
      orientation: null,
    });
    expect(deliveryScreen(c.id)!.matched[0]).toMatchObject({ byHand: false, orderNumbers: [o.orderNumber] });
  });

  it("an order with one お断り line is delivered from 納品ファイル: its other lines get their files, the refused line none, and it is not listed as missing", async () => {
    const c = contest(4);
    const o = order(c, "refused-one@example.jp", [
      [1, "vertical"],
      [2, "vertical"],
      [3, "vertical"],
      [4, "horizontal"],
    ]);
    const lines = linesOf(o.id);
    db().update(orderLines).set({ refused: true }).where(eq(orderLines.id, lines[3]!.id)).run();
    for (const name of ["1_縦.mp4", "2_縦.mp4", "3_縦.mp4"]) await upload(c, name);

    const screen = deliveryScreen(c.id)!;
    expect(screen.missing).toEqual([]);
    expect(screen.matched.map((file) => file.orderNumbers)).toEqual([
      [o.orderNumber],
      [o.orderNumber],
      [o.orderNumber],
    ]);
    expect(screen.nothingToDeliver).toEqual([]);
    expect(screen.ready).toEqual([
      expect.objectContaining({
        id: o.id,
        lineCount: 4,
        videoCount: 3,
        withoutVideo: [
          expect.objectContaining({ lineNumber: lines[3]!.lineNumber, athleteNumber: 4, reason: "お断り" }),
        ],
      }),
    ]);

    const before = smtp.received.length;
    const result = deliverContest(c.id)!;
    expect(result.delivered.map((d) => d.id)).toEqual([o.id]);
    await mailsSettled();
    const mails = smtp.received.slice(before);
    expect(mails.map((mail) => mail.to[0])).toEqual(["refused-one@example.jp"]);
    expect(mails[0]!.text).toContain("動画（3本）");
    expect(statusOf(o.id)).toBe("納品済み");
    expect(linesOf(o.id).map((line) => [line.status, line.deliveryFileId !== null])).toEqual([
      ["納品済み", true],
      ["納品済み", true],
      ["納品済み", true],
      ["対応済み", false],
    ]);
  });

  it("a refunded line is neither waited for nor delivered; an order refunded whole is warned about and closed only when ticked, with no mail", async () => {
    const c = contest(2);
    const partly = order(c, "partly@example.jp", [
      [1, "vertical"],
      [2, "vertical"],
    ]);
    const [kept, refundedLine] = linesOf(partly.id);
    refund(partly.id, [refundedLine!.id], 3000);
    // A typed amount of the whole payment names no line, and leaves nothing to deliver either.
    const whole = order(c, "whole@example.jp", [[1, "vertical"]]);
    refund(whole.id, [], 3000);
    // A failed refund gives nothing back: its line is still made.
    const failedRefund = order(c, "failed-refund@example.jp", [[2, "vertical"]]);
    refund(
      failedRefund.id,
      linesOf(failedRefund.id).map((line) => line.id),
      3000,
      "failed",
    );
    await upload(c, "1_縦.mp4");

    const plan = deliveryPlan(c.id)!;
    expect(plan.ready.map((o) => [o.id, o.videoCount, o.withoutVideo.map((line) => line.reason)])).toEqual([
      [partly.id, 1, ["返金"]],
    ]);
    expect(plan.nothingToDeliver.map((o) => o.id)).toEqual([whole.id]);
    expect(plan.incomplete.map((o) => o.id)).toEqual([failedRefund.id]);
    expect(plan.missing.map((line) => [line.athleteNumber, line.orderNumbers])).toEqual([
      [2, [failedRefund.orderNumber]],
    ]);

    // Not ticked: the order with nothing to deliver stays open, and nobody is told a video is ready.
    const before = smtp.received.length;
    const first = deliverContest(c.id)!;
    expect(first.delivered.map((o) => o.id)).toEqual([partly.id]);
    expect(first.unconfirmed.map((o) => o.id)).toEqual([whole.id]);
    expect(first.closed).toEqual([]);
    expect(statusOf(whole.id)).toBe("未対応");
    await mailsSettled();
    expect(smtp.received.slice(before).map((mail) => mail.to[0])).toEqual(["partly@example.jp"]);
    expect(linesOf(partly.id).map((line) => [line.status, line.deliveryFileId !== null])).toEqual([
      ["納品済み", true],
      ["対応済み", false],
    ]);

    // The refunded line is on the page as refunded, and its download is refused in words.
    const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, partly.id)).get()!;
    expect(downloadPage(page.id)!.lines.map((line) => [line.refunded, line.delivered])).toEqual([
      [false, true],
      [true, false],
    ]);
    expect(claimDownload(page.id, refundedLine!.id, "vertical")).toMatchObject({
      ok: false,
      status: 410,
      reason: "refunded",
      message:
        "この動画はご返金の対象となったため、ダウンロードできません。ご不明な点はお問い合わせください。",
    });
    expect(downloadRefusal(page.id, refundedLine!.id)).toMatchObject({ reason: "refunded" });

    // Ticked: closed as 対応済み, with no download page and no mail; a tick for another order closes nothing.
    const second = deliverContest(c.id, { closeOrderIds: [whole.id, partly.id] })!;
    expect(second.closed.map((o) => o.id)).toEqual([whole.id]);
    expect(second.mails).toBe(0);
    expect(statusOf(whole.id)).toBe("対応済み");
    expect(statusOf(partly.id)).toBe("納品済み");
    expect(
      db().select().from(downloadPages).where(eq(downloadPages.orderId, whole.id)).get(),
    ).toBeUndefined();
    await mailsSettled();
    expect(smtp.received.slice(before)).toHaveLength(1);

    // Refunded after its delivery: the delivered video is not downloadable any more, and no mail says it is.
    refund(partly.id, [kept!.id], 3000);
    expect(claimDownload(page.id, kept!.id, "vertical")).toMatchObject({ ok: false, reason: "refunded" });
    expect(await resendDeliveryMail(partly.id)).toBe("no-video");
  });

  it("納品 in the order list takes the file 納品ファイル matched for a line and asks only for the lines still without one", async () => {
    const c = contest(3);
    const o = order(c, "one-by-one@example.jp", [
      [1, "vertical"],
      [2, "vertical"],
      [3, "vertical"],
    ]);
    const [first, second, third] = linesOf(o.id);
    db().update(orderLines).set({ refused: true }).where(eq(orderLines.id, third!.id)).run();
    const file = await upload(c, "01_縦.mp4");
    expect(tabFilesOf([o.id])).toEqual({ [first!.id]: "01_縦.mp4" });

    // The second line has no file in the tab: its URL is still asked for, and nothing is written.
    expect(await deliverOrder(o.id, new Map())).toEqual({
      ok: false,
      status: 400,
      message: DELIVERY_MESSAGES.missingUrl,
    });
    expect(statusOf(o.id)).toBe("未対応");
    const delivered = await deliverOrder(o.id, new Map([[second!.id, "https://videos.example.jp/2.mp4"]]));
    expect(delivered).toMatchObject({ ok: true, mail: "sent" });
    expect(linesOf(o.id).map((line) => [line.status, line.deliveryFileId, line.videoDownloadUrl])).toEqual([
      ["納品済み", file.id, null],
      ["納品済み", null, "https://videos.example.jp/2.mp4"],
      ["対応済み", null, null],
    ]);
    // The tab's file is settled on its athlete and style, as 一括納品 settles the files it uses.
    expect(db().select().from(deliveryFiles).where(eq(deliveryFiles.id, file.id)).get()).toMatchObject({
      athleteId: c.athletes[0]!.id,
      orientation: "vertical",
    });
    await mailsSettled();
  });

  it("a file matched by hand is delivered; a delivered file can be neither removed nor re-matched", async () => {
    const c = contest(3);
    const o = order(c, "hand@example.jp", [[3, "horizontal"]]);
    const file = await upload(c, "IMG_2034.MOV");
    expect(deliveryPlan(c.id)!.waiting[0]!.match.kind).toBe("unmatched");
    expect(matchFileByHand(c.id, file.id, { athleteNumber: 9, orientation: "horizontal" }, "演奏順")).toEqual(
      {
        ok: false,
        status: 400,
        message: "演奏順 9 の選手がいません",
      },
    );
    expect(matchFileByHand(c.id, file.id, { athleteNumber: 3, orientation: "horizontal" }, "演奏順")).toEqual(
      {
        ok: true,
      },
    );
    expect(deliverContest(c.id)!.delivered.map((d) => d.id)).toEqual([o.id]);
    expect(await removeWaitingFile(c.id, file.id)).toMatchObject({ ok: false, status: 409 });
    expect(matchFileByHand(c.id, file.id, null, "演奏順")).toMatchObject({ ok: false, status: 409 });
    await mailsSettled();
  });

  it("a corrected file replaces a delivered one: its lines move, downloads start afresh, no mail until the admin re-sends", async () => {
    const c = contest(2);
    const o = order(c, "fix@example.jp", [[2, "vertical"]]);
    const wrong = await upload(c, "2_縦.mp4");
    deliverContest(c.id);
    await mailsSettled();
    const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, o.id)).get()!;
    const line = db().select().from(orderLines).where(eq(orderLines.orderId, o.id)).get()!;
    expect(claimDownload(page.id, line.id, "vertical")).toMatchObject({
      ok: true,
      storedName: wrong.storedName,
    });

    const corrected = await upload(c, "2_縦_修正版.mp4");
    const screen = deliveryScreen(c.id)!;
    expect(screen.matched[0]).toMatchObject({ id: corrected.id, replaces: { fileId: wrong.id } });
    const before = smtp.received.length;
    const result = deliverContest(c.id)!;
    expect(result.replaced.map((r) => r.id)).toEqual([o.id]);
    expect(result.mails).toBe(0);
    await mailsSettled();
    expect(smtp.received.length).toBe(before);
    const moved = db().select().from(orderLines).where(eq(orderLines.id, line.id)).get()!;
    expect(moved.deliveryFileId).toBe(corrected.id);
    expect(moved.downloadStartedAt).toBeNull();
    expect(deliveryScreen(c.id)!.changedSinceMail.map((x) => x.id)).toEqual([o.id]);
    expect(
      db().select().from(deliveryFiles).where(eq(deliveryFiles.id, wrong.id)).get()!.retiredAt,
    ).not.toBeNull();
    // The replaced file serves nobody now: the clean-up deletes it.
    await deleteUnneededDeliveryFiles();
    expect(fs.existsSync(path.join(mediaDir(), wrong.storedName))).toBe(false);
    expect(fs.existsSync(path.join(mediaDir(), corrected.storedName))).toBe(true);
  });
});

describe("delivery file clean-up", () => {
  it("keeps a delivered file while a page offers it, and deletes it once every page has been expired for the grace period", async () => {
    const c = contest(1);
    const o = order(c, "old@example.jp", [[1, "vertical"]]);
    const waiting = await upload(c, "1_横.mp4");
    const file = await upload(c, "1_縦.mp4");
    deliverContest(c.id);
    await mailsSettled();
    const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, o.id)).get()!;
    const line = db().select().from(orderLines).where(eq(orderLines.orderId, o.id)).get()!;

    setClock(() => page.expiresAt.getTime() + KEEP_AFTER_EXPIRY_MS - 60_000);
    await deleteUnneededDeliveryFiles();
    expect(fs.existsSync(path.join(mediaDir(), file.storedName))).toBe(true);

    setClock(() => page.expiresAt.getTime() + KEEP_AFTER_EXPIRY_MS + 60_000);
    await deleteUnneededDeliveryFiles();
    expect(fs.existsSync(path.join(mediaDir(), file.storedName))).toBe(false);
    // A waiting file of a live contest stays until the admin removes it.
    expect(fs.existsSync(path.join(mediaDir(), waiting.storedName))).toBe(true);
    // An extended page then says the video's time is over, rather than failing.
    db()
      .update(downloadPages)
      .set({ expiresAt: new Date(Date.now() + 86_400_000 * 400) })
      .run();
    expect(claimDownload(page.id, line.id, "vertical")).toMatchObject({ ok: false, status: 410 });
  });
});
