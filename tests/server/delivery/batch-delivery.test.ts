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
  videoFormats,
} from "~/server/db/schema";
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
import { claimDownload } from "~/server/orders/customer/downloads.server";
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

  it("an order with a line marked お断り is never delivered in a batch, even with every file there", async () => {
    const c = contest(1);
    const declined = order(c, "declined@example.jp", [[1, "vertical"]]);
    db().update(orderLines).set({ refused: true }).where(eq(orderLines.orderId, declined.id)).run();
    const fine = order(c, "fine@example.jp", [[1, "vertical"]]);
    await upload(c, "1_縦.mp4");
    const plan = deliveryPlan(c.id)!;
    expect(plan.declined.map((o) => o.id)).toEqual([declined.id]);
    expect(deliverContest(c.id)!.delivered.map((o) => o.id)).toEqual([fine.id]);
    expect(statusOf(declined.id)).toBe("未対応");
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
