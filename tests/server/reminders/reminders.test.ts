import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action, loader } from "~/routes/storefront/reminder-stop";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { mailOutbox, orderLines, orders, refunds, type PaymentStatus } from "~/server/db/schema";
import { recordDelivery } from "~/server/delivery/order-delivery.server";
import { retryDueMail } from "~/server/mail/outbox.server";
import { metricsText } from "~/server/metrics/registry.server";
import { konbiniDeadline } from "~/server/orders/konbini.server";
import {
  runReminderPass,
  startReminderLoop,
  stopReminderLoop,
} from "~/server/reminders/reminder-pass.server";
import { formRequest } from "../../helpers/shop";
import { callRoute } from "../../helpers/route";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text";

/** An instant given as Japan time, "2026-06-03T09:00". */
const jst = (local: string) => new Date(`${local}:00+09:00`);

let sequence = 0;

function insertOrder(values: {
  createdAt: Date;
  paymentMethod?: "card" | "konbini";
  paymentStatus?: PaymentStatus;
  paymentDueAt?: Date;
}) {
  const n = ++sequence;
  const orderNumber = String(30_000_000 + n);
  const order = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `reminder-checkout-${n}`,
      paymentIntentId: `pi_reminder_${n}`,
      contestName: "秋のダンス発表会",
      customerEmail: `reminder-${n}@example.jp`,
      customerName: "通知 花子",
      totalAmount: 7500,
      lineCount: 2,
      paymentMethod: values.paymentMethod ?? "card",
      paymentStatus: values.paymentStatus ?? "paid",
      paidAt: values.paymentStatus === "awaiting" ? null : values.createdAt,
      paymentDueAt: values.paymentDueAt ?? null,
      konbiniConfirmationNumber: values.paymentMethod === "konbini" ? "123456789012" : null,
      createdAt: values.createdAt,
    })
    .returning()
    .get();
  const lines = db()
    .insert(orderLines)
    .values(
      [
        { style: "縦", orientation: "vertical" as const, price: 3000 },
        { style: "横", orientation: "horizontal" as const, price: 4500 },
      ].map((line, index) => ({
        orderId: order.id,
        lineNumber: `${orderNumber}-${index + 1}`,
        contestName: "秋のダンス発表会",
        category: "キッズ部門",
        athleteNumber: 7,
        athleteName: "通知 一郎",
        style: line.style,
        orientation: line.orientation,
        price: line.price,
        createdAt: values.createdAt,
      })),
    )
    .returning()
    .all();
  return { order, lines };
}

/** A konbini order made on Monday 2026-06-01 at 10:00: its voucher ends Thursday 06-04 at 23:59:59. */
function konbiniOrder(createdAt = jst("2026-06-01T10:00")) {
  return insertOrder({
    createdAt,
    paymentMethod: "konbini",
    paymentStatus: "awaiting",
    paymentDueAt: konbiniDeadline(createdAt, 3),
  }).order;
}

/** A card order delivered (by URL) on 2026-06-01 at 14:00: its download page ends 30 days later. */
function deliveredOrder(at = jst("2026-06-01T14:00")) {
  const { order, lines } = insertOrder({ createdAt: new Date(at.getTime() - 3 * 86_400_000) });
  setClock(() => at.getTime());
  db().transaction((tx) =>
    recordDelivery(
      tx,
      order.id,
      new Map(lines.map((line) => [line.id, { url: `https://v.example.jp/${line.id}` }])),
      at,
    ),
  );
  return { order, lines };
}

function passAt(local: string) {
  const at = jst(local);
  setClock(() => at.getTime());
  return runReminderPass();
}

function remindersOf(orderId: number) {
  return db()
    .select()
    .from(mailOutbox)
    .where(like(mailOutbox.dedupeKey, `reminder:%:${orderId}`))
    .all()
    .map((row) => ({ ...row, kind: row.dedupeKey!.split(":")[1] }));
}

/** The outbox's retry passes until nothing is left to send. */
async function sendEverything() {
  while ((await retryDueMail()).sent > 0);
}

function stopPathIn(text: string): string {
  const match = /https?:\/\/\S+(\/reminders\/[A-Za-z0-9_-]{22})/.exec(text);
  if (!match?.[1]) throw new Error(`no stop link in: ${text}`);
  return match[1];
}

describe("the konbini voucher's reminder", () => {
  it("is queued once, from 9:00 Japan time the day before the deadline, with how to pay, the amount, the number and the deadline", () => {
    const order = konbiniOrder();
    expect(passAt("2026-06-03T08:59").queued.konbini).toBe(0);
    expect(remindersOf(order.id)).toEqual([]);

    expect(passAt("2026-06-03T09:00").queued.konbini).toBe(1);
    const [mail] = remindersOf(order.id);
    expect(mail).toMatchObject({ kind: "konbini", to: order.customerEmail, status: "pending" });
    expect(mail!.subject).toContain(`お支払い期限が近づいています（注文番号 ${order.orderNumber}）`);
    expect(mail!.text).toContain("7,500円（税込）");
    expect(mail!.text).toContain("123456789012");
    expect(mail!.text).toContain("2026/06/04 23:59（日本時間）");
    expect(mail!.text).toContain("インターネット代金支払い");
    expect(mail!.html).toContain("/reminders/");
    stopPathIn(mail!.text);
    // Not sent once the deadline has passed, even if SMTP was down until then.
    expect(mail!.expiresAt).toEqual(order.paymentDueAt);

    // Later passes, and a restart's, queue nothing more.
    expect(passAt("2026-06-03T09:10").queued.konbini).toBe(0);
    expect(passAt("2026-06-04T20:00").queued.konbini).toBe(0);
    expect(remindersOf(order.id)).toHaveLength(1);
  });

  it("is not sent for an order paid or expired by then; one waiting in the outbox is cancelled when the order is paid", () => {
    const paid = konbiniOrder();
    const expired = konbiniOrder();
    db().update(orders).set({ paymentStatus: "paid" }).where(eq(orders.id, paid.id)).run();
    db().update(orders).set({ paymentStatus: "expired" }).where(eq(orders.id, expired.id)).run();
    passAt("2026-06-03T09:00");
    expect(remindersOf(paid.id)).toEqual([]);
    expect(remindersOf(expired.id)).toEqual([]);

    // Queued while SMTP is down (nothing sends it), then paid at a store: the next pass cancels it.
    const waiting = konbiniOrder();
    passAt("2026-06-03T09:10");
    expect(remindersOf(waiting.id)).toMatchObject([{ status: "pending" }]);
    db().update(orders).set({ paymentStatus: "paid" }).where(eq(orders.id, waiting.id)).run();
    expect(passAt("2026-06-03T09:20").cancelled).toBe(1);
    expect(remindersOf(waiting.id)).toMatchObject([{ status: "cancelled" }]);
  });

  it("due while the server was down, is sent late but never after the deadline; a voucher made the evening before gets none", () => {
    // The server comes back on the deadline's day: the reminder goes, late.
    const late = konbiniOrder();
    passAt("2026-06-04T22:00");
    expect(remindersOf(late.id)).toHaveLength(1);
    // It comes back only after the deadline: none.
    const missed = konbiniOrder();
    passAt("2026-06-05T00:00");
    expect(remindersOf(missed.id)).toEqual([]);

    // A 1-day voucher made at 22:00 on the day before its deadline's day: its own mail is fresh.
    const created = jst("2026-06-10T22:00");
    const fresh = insertOrder({
      createdAt: created,
      paymentMethod: "konbini",
      paymentStatus: "awaiting",
      paymentDueAt: konbiniDeadline(created, 1),
    }).order;
    passAt("2026-06-11T09:00");
    expect(remindersOf(fresh.id)).toEqual([]);
  });
});

describe("a download page's reminders", () => {
  it("go 7 days and 1 day before its end while a video waits, each once, and none after it ended", () => {
    const { order } = deliveredOrder();
    // Delivered 2026-06-01 14:00, the page ends 2026-07-01 14:00.
    expect(passAt("2026-06-24T08:59").queued.download_7d).toBe(0);
    expect(passAt("2026-06-24T09:00").queued.download_7d).toBe(1);
    expect(passAt("2026-06-24T09:10").queued.download_7d).toBe(0);
    const [week] = remindersOf(order.id);
    expect(week).toMatchObject({ kind: "download_7d", to: order.customerEmail });
    expect(week!.subject).toContain("ダウンロード期限（2026/07/01 14:00）が近づいています");
    expect(week!.text).toContain("まだダウンロードされていない動画が2本あります");
    expect(week!.text).toContain("キッズ部門 / ゼッケン番号 7 通知 一郎（縦）");
    expect(week!.text).toMatch(/\/download\/[A-Za-z0-9_-]{22}/);
    stopPathIn(week!.text);

    expect(passAt("2026-06-30T08:59").queued.download_1d).toBe(0);
    expect(passAt("2026-06-30T09:00").queued.download_1d).toBe(1);
    expect(passAt("2026-07-01T13:00").queued.download_1d).toBe(0);
    expect(remindersOf(order.id).map((mail) => mail.kind)).toEqual(["download_7d", "download_1d"]);
    // The same stop link in both: one per order.
    expect(stopPathIn(remindersOf(order.id)[1]!.text)).toBe(stopPathIn(week!.text));

    const ended = deliveredOrder(jst("2026-06-02T14:00"));
    passAt("2026-07-02T14:00");
    expect(remindersOf(ended.order.id)).toEqual([]);
  });

  it("none once every video was downloaded, refused or refunded (a whole order refunded by a typed amount too)", () => {
    const downloaded = deliveredOrder();
    db()
      .update(orderLines)
      .set({ downloadStartedAt: jst("2026-06-20T12:00") })
      .where(eq(orderLines.orderId, downloaded.order.id))
      .run();
    const refusedAndRefunded = deliveredOrder();
    const [refused, refunded] = refusedAndRefunded.lines;
    db().update(orderLines).set({ refused: true }).where(eq(orderLines.id, refused!.id)).run();
    db()
      .insert(refunds)
      .values({
        orderId: refusedAndRefunded.order.id,
        paymentIntentId: refusedAndRefunded.order.paymentIntentId,
        lineIds: [refunded!.id],
        amount: refunded!.price,
        reason: "テスト",
        requestKey: `refund-${refunded!.id}`,
        status: "succeeded",
      })
      .run();
    // A typed amount of the whole payment names no line, and leaves no video to fetch either.
    const refundedWhole = deliveredOrder();
    db()
      .insert(refunds)
      .values({
        orderId: refundedWhole.order.id,
        paymentIntentId: refundedWhole.order.paymentIntentId,
        lineIds: [],
        amount: refundedWhole.order.totalAmount,
        reason: "テスト",
        requestKey: `refund-whole-${refundedWhole.order.id}`,
        status: "succeeded",
      })
      .run();
    passAt("2026-06-24T09:00");
    passAt("2026-06-30T09:00");
    expect(remindersOf(downloaded.order.id)).toEqual([]);
    expect(remindersOf(refusedAndRefunded.order.id)).toEqual([]);
    expect(remindersOf(refundedWhole.order.id)).toEqual([]);

    // One video fetched after the 7-day reminder, the other still waiting: the 1-day one names only it.
    const half = deliveredOrder();
    passAt("2026-06-24T09:00");
    db()
      .update(orderLines)
      .set({ downloadStartedAt: jst("2026-06-25T12:00") })
      .where(eq(orderLines.id, half.lines[0]!.id))
      .run();
    passAt("2026-06-30T09:00");
    const [, lastDay] = remindersOf(half.order.id);
    expect(lastDay!.text).toContain("まだダウンロードされていない動画が1本あります");
    expect(lastDay!.text).toContain("（横）");
    expect(lastDay!.text).not.toContain("（縦）");
  });

  it("a server down over the 7-day one sends only the 1-day one, late, once", () => {
    const { order } = deliveredOrder();
    passAt("2026-06-30T18:00");
    passAt("2026-06-30T18:10");
    expect(remindersOf(order.id).map((mail) => mail.kind)).toEqual(["download_1d"]);
  });
});

describe("the stop link", () => {
  it("asks first (GET changes nothing), then stops the order's further reminders and cancels a waiting one, JS off", async () => {
    const { order } = deliveredOrder();
    passAt("2026-06-24T09:00");
    const [week] = remindersOf(order.id);
    const path = stopPathIn(week!.text);
    const token = path.split("/").pop()!;

    const page = await callRoute(loader, new Request(`http://shop.test${path}`), { token });
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(page.data).toMatchObject({ page: { orderNumber: order.orderNumber, stoppedAt: null } });
    expect(remindersOf(order.id)).toMatchObject([{ status: "pending" }]);

    // The page's plain form posts to its own address, and is sent back to it.
    const stopped = await callRoute(action, formRequest(path, []), { token });
    expect(stopped).toMatchObject({ status: 303, location: path });
    expect(remindersOf(order.id)).toMatchObject([{ status: "cancelled" }]);
    const after = await callRoute(loader, new Request(`http://shop.test${path}`), { token });
    expect(after.data).toMatchObject({ page: { stoppedAt: jst("2026-06-24T09:00") } });

    passAt("2026-06-30T09:00");
    expect(remindersOf(order.id).map((mail) => mail.kind)).toEqual(["download_7d"]);
    // A second post is harmless.
    expect((await callRoute(action, formRequest(path, []), { token })).status).toBe(303);
  });

  it("a guessed or malformed token finds nothing and stops nothing", async () => {
    for (const token of ["A".repeat(22), "short", "../orders/x", "0123456789abcdef0123456789abcdef"]) {
      const request = new Request(`http://shop.test/reminders/${encodeURIComponent(token)}`);
      expect((await callRoute(loader, request, { token })).status, token).toBe(404);
      expect((await callRoute(action, formRequest(`/reminders/x`, []), { token })).status, token).toBe(404);
    }
  });
});

describe("the reminders' loop", () => {
  it("runs a pass at start; a restart queues nothing twice, and /metrics counts what was sent by kind", async () => {
    const voucher = konbiniOrder(jst("2026-07-06T10:00"));
    const { order } = deliveredOrder(jst("2026-07-01T14:00"));
    const at = jst("2026-07-08T09:30");
    setClock(() => at.getTime());
    startReminderLoop();
    stopReminderLoop();
    // A restart: a new loop's first pass finds both already queued.
    startReminderLoop();
    stopReminderLoop();
    expect(remindersOf(voucher.id)).toHaveLength(1);
    expect(remindersOf(order.id)).toHaveLength(0);

    const sample = async (kind: string) =>
      sampleValue(parsePrometheusText((await metricsText()).body), "shop_reminders_sent_total", { kind }) ??
      -1;
    const before = { konbini: await sample("konbini"), week: await sample("download_7d") };
    // The outbox sends them (to MAIL_DIR here: no SMTP_URL); a queued one is not sent yet.
    await sendEverything();
    expect(remindersOf(voucher.id)).toMatchObject([{ status: "sent" }]);
    expect(await sample("konbini")).toBe(before.konbini + 1);

    passAt("2026-07-24T09:00");
    await sendEverything();
    expect(remindersOf(order.id)).toMatchObject([{ kind: "download_7d", status: "sent" }]);
    expect(await sample("download_7d")).toBe(before.week + 1);
    expect(await sample("konbini")).toBe(before.konbini + 1);
  });
});
