import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { mailOutbox, orderLines, orders } from "~/server/db/schema";
import {
  queueMail,
  retryDelayMs,
  retryDueMail,
  sendQueuedMail,
  sendThroughOutbox,
} from "~/server/mail/outbox.server";
import { checkoutUntilVerified } from "../../helpers/checkout-flow";
import { callRoute } from "../../helpers/route";
import { formRequest, seedContest } from "../../helpers/shop";
import { startSmtpServer, type ReceivedMail } from "../../helpers/smtp";

// One mailbox across restarts of the SMTP server, which comes back on the same port.
const received: ReceivedMail[] = [];
let smtp: Awaited<ReturnType<typeof startSmtpServer>> | null = null;
let port = 0;

async function smtpUp() {
  smtp = await startSmtpServer(port, received);
  port = smtp.port;
}
async function smtpDown() {
  await smtp?.close();
  smtp = null;
}

beforeAll(async () => {
  await smtpUp();
  process.env.SMTP_URL = smtp?.url;
});
afterAll(() => smtpDown());
// The clock is put back by tests/setup.ts.
afterEach(async () => {
  if (!smtp) await smtpUp();
});

const mailsTo = (email: string) => received.filter((m) => m.to.includes(email));
const rowsTo = (email: string) => db().select().from(mailOutbox).where(eq(mailOutbox.to, email)).all();
/** Moves the clock past every backoff, as if the SMTP outage had lasted a while. */
const later = (ms: number) => setClock(() => Date.now() + ms);

function testMail(n: number) {
  return { subject: `テストメール${n}`, text: `本文${n}`, html: `<p>本文${n}</p>` };
}

describe("mail outbox", () => {
  it("with SMTP down an order is still made and its confirmation queued; when SMTP is back the retry sends it once", async () => {
    const shop = seedContest();
    const { cookie, email } = await checkoutUntilVerified(
      shop,
      [{ athleteId: shop.onSale.id, category: "A部門", formatId: shop.horizontal.id }],
      received,
    );
    await smtpDown();

    const payment = await import("~/routes/checkout/payment");
    const paid = await callRoute(
      payment.action,
      formRequest(
        "/payment",
        [
          ["cardholderName", "T"],
          ["cardNumber", "4242424242424242"],
          ["expiry", "12/34"],
          ["cvc", "123"],
        ],
        cookie,
      ),
    );
    expect(paid.location).toBe("/payment-complete");
    const order = db().select().from(orders).where(eq(orders.customerEmail, email)).get();
    expect(order?.totalAmount).toBe(4500);

    // The immediate attempt fails (nothing listens); the mail waits with a next try time.
    const confirmationRow = () =>
      rowsTo(email).find((r) => r.dedupeKey === `order-confirmation:${order?.id}`);
    await expect.poll(() => confirmationRow()?.lastError, { timeout: 10_000 }).toBeTruthy();
    const queued = confirmationRow();
    expect(queued).toMatchObject({ status: "pending", sentAt: null, attempts: 1 });
    expect(queued?.lastError).toBeTruthy();
    expect(queued!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(mailsTo(email).filter((m) => m.subject.includes("注文"))).toHaveLength(0);

    // Not due yet: a retry pass leaves it alone.
    expect(await retryDueMail()).toEqual({ sent: 0, failed: 0 });

    await smtpUp();
    later(retryDelayMs(1) + 1000);
    expect((await retryDueMail()).sent).toBeGreaterThanOrEqual(1);
    expect(await retryDueMail()).toEqual({ sent: 0, failed: 0 });
    const confirmations = mailsTo(email).filter((m) => m.text.includes(order!.orderNumber));
    expect(confirmations).toHaveLength(1);
    expect(rowsTo(email).find((r) => r.dedupeKey === `order-confirmation:${order?.id}`)).toMatchObject({
      status: "sent",
      attempts: 2,
    });
  });

  it("納品 with SMTP down delivers the order and queues its mail; a second 納品 does not queue another; the retry sends it once", async () => {
    const { deliverOrder } = await import("~/server/delivery/order-delivery.server");
    const email = `deliver${Date.now()}@example.jp`;
    const orderNumber = String(Date.now() % 100_000_000);
    const order = db()
      .insert(orders)
      .values({
        orderNumber,
        checkoutId: `oc${orderNumber}`,
        paymentIntentId: `opi${orderNumber}`,
        contestName: "送信箱テスト大会",
        customerEmail: email,
        customerName: "送信 花子",
        totalAmount: 3000,
        lineCount: 1,
      })
      .returning()
      .get();
    const line = db()
      .insert(orderLines)
      .values({
        orderId: order.id,
        lineNumber: `${orderNumber}-1`,
        contestName: "送信箱テスト大会",
        category: "A",
        athleteNumber: 1,
        athleteName: "選手1",
        style: "縦",
        orientation: "vertical",
        price: 3000,
      })
      .returning()
      .get();
    await smtpDown();
    const urls = new Map([[line.id, "https://videos.example.jp/1.mp4"]]);
    expect(await deliverOrder(order.id, urls)).toMatchObject({ ok: true, mail: "queued" });
    expect(await deliverOrder(order.id, urls)).toMatchObject({ ok: true, mail: "already-sent" });
    expect(db().select().from(orders).where(eq(orders.id, order.id)).get()?.status).toBe("納品済み");
    expect(rowsTo(email)).toMatchObject([
      { dedupeKey: `delivery:${order.id}`, status: "pending", attempts: 1 },
    ]);

    await smtpUp();
    later(retryDelayMs(1) + 1000);
    await retryDueMail();
    await retryDueMail();
    expect(rowsTo(email)).toMatchObject([{ status: "sent", attempts: 2 }]);
    expect(mailsTo(email)).toHaveLength(1);
    expect(mailsTo(email)[0]?.text).toContain("/download/");
  });

  it("two retry passes at once, in this process and another, send each queued mail once", async () => {
    await smtpDown();
    const email = `race${Date.now()}@example.jp`;
    const ids = Array.from({ length: 30 }, (_, i) => queueMail({ to: email, mail: testMail(i) }) as number);
    // Each first try fails while SMTP is down.
    for (const id of ids) expect(await sendQueuedMail(id)).toBe("failed");
    await smtpUp();
    // Due now for every process, whatever its clock.
    db()
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(inArray(mailOutbox.id, ids))
      .run();

    const goFile = path.join(os.tmpdir(), `outbox-go-${Date.now()}`);
    const child = spawn("npx", ["tsx", "tests/helpers/outbox-worker.ts", goFile], {
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const ready = new Promise<void>((resolve) =>
      child.stderr.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve()),
    );
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await ready;
    // Both processes start together: two passes here, one loop there.
    fs.writeFileSync(goFile, "");
    const passes = async () => {
      let sent = 0;
      for (;;) {
        const pass = await retryDueMail();
        sent += pass.sent;
        if (pass.sent === 0 && pass.failed === 0) return sent;
      }
    };
    const [a, b] = await Promise.all([passes(), passes()]);
    expect(await exited).toBe(0);
    const there = (JSON.parse(out) as { sent: number }).sent;
    if (process.env.SHOW_FIGURES) console.info({ sentHere: a + b, sentByOtherProcess: there });
    expect(a + b + there).toBe(30);
    await expect.poll(() => mailsTo(email).length).toBe(30);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(email)).toHaveLength(30);
    expect(new Set(mailsTo(email).map((m) => m.subject)).size).toBe(30);
    expect(rowsTo(email).every((r) => r.status === "sent" && r.sentAt !== null && r.attempts === 2)).toBe(
      true,
    );
  }, 60_000);

  it("a claim left by a crashed sender is taken over only after its lease; a mail is never claimed twice at once", async () => {
    const email = `lease${Date.now()}@example.jp`;
    const id = queueMail({ to: email, mail: testMail(1) })!;
    // A sender claims it and dies before sending.
    db()
      .update(mailOutbox)
      .set({ status: "sending", claimedUntil: new Date(Date.now() + 60_000), attempts: 1 })
      .where(eq(mailOutbox.id, id))
      .run();
    const row = () => rowsTo(email)[0];
    expect(await sendQueuedMail(id)).toBe("not-claimed");
    await retryDueMail();
    expect(row()?.status).toBe("sending");
    later(61_000);
    await retryDueMail();
    expect(row()).toMatchObject({ status: "sent", attempts: 2 });
    expect(await sendQueuedMail(id)).toBe("not-claimed");
    expect(mailsTo(email)).toHaveLength(1);
  });

  it("a resent code cancels the unsent older one, and an expired code is not sent late", async () => {
    await smtpDown();
    const email = `code${Date.now()}@example.jp`;
    const expiresAt = new Date(Date.now() + 10 * 60_000);
    expect(
      await sendThroughOutbox({ to: email, topic: `checkout-code:x${email}`, expiresAt, mail: testMail(1) }),
    ).toBe(false);
    expect(
      await sendThroughOutbox({ to: email, topic: `checkout-code:x${email}`, expiresAt, mail: testMail(2) }),
    ).toBe(false);
    expect(rowsTo(email).map((r) => r.status)).toEqual(["cancelled", "pending"]);
    await smtpUp();
    later(11 * 60_000);
    expect(await retryDueMail()).toEqual({ sent: 0, failed: 0 });
    expect(rowsTo(email).map((r) => r.status)).toEqual(["cancelled", "cancelled"]);
    expect(mailsTo(email)).toHaveLength(0);
  });

  it("the same logical mail is queued once", () => {
    const email = `dedupe${Date.now()}@example.jp`;
    expect(queueMail({ to: email, dedupeKey: `k:${email}`, mail: testMail(1) })).not.toBeNull();
    expect(queueMail({ to: email, dedupeKey: `k:${email}`, mail: testMail(1) })).toBeNull();
    expect(rowsTo(email)).toHaveLength(1);
  });

  it("backs off: 30 s, 1 min, 2 min … at most 30 min", () => {
    expect([1, 2, 3, 10].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 30 * 60_000]);
  });
});
